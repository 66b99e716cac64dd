import { execFile as execFileCb } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';
import { svcOnPath } from '../helpers/svc-on-path';

const t = useEmulator();
const execFile = promisify(execFileCb);
const repo = new URL('../..', import.meta.url).pathname;
const work = join(repo, 'node_modules', '.cache', `completion-aliases-${process.pid}`);
const extensions = join(work, 'extensions');
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
  mkdirSync(extensions, { recursive: true });
  writeFileSync(join(extensions, 'svc-zzext'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(extensions, 'svc-zzext'), 0o755);
  writeFileSync(join(extensions, 'svc-helper'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(extensions, 'svc-helper'), 0o755);
  config = tempConfigDir();
  env = { ...(emuEnv(t.emu) as Record<string, string>), SVC_CONFIG_DIR: config, PATH: `${extensions}:${process.env.PATH}` };
  expect((await svc(['alias', 'set', 'mine', 'agents get'], { env })).code).toBe(0);
  expect((await svc(['alias', 'set', 'shell', '!echo'], { env })).code).toBe(0);
  await svc(['agents', 'create', '--name', 'newer', '--model', 'm'], { env });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const complete = async (...words: string[]) => (await svc(['__complete', '--', ...words], { env })).stdout.split('\n').filter(Boolean);

describe('svc __complete: aliases and extensions', () => {
  it('completes the first word to the aliases (with their expansion) and the extensions on PATH', async () => {
    expect(await complete('')).toEqual(['mine\talias: agents get', 'shell\talias: !echo', 'helper\textension', 'zzext\textension']);
    expect(await complete('--profile', 'p', 'zz')).toEqual(['zzext\textension']);
    expect(await complete('--profile', '')).toEqual([]);
  });

  it('after an alias, completes what it expands to; a ! alias and an extension get nothing', async () => {
    expect((await complete('mine', 'ne')).map((l) => l.split('\t')[0])).toEqual(['newer']);
    expect(await complete('shell', '')).toEqual([]);
    expect(await complete('zzext', '')).toEqual([]);
  });
});

describeWith('bash completion of aliases and extensions', ['bash'], () => {
  let bashEnv: Record<string, string>;
  beforeAll(async () => {
    const { dir, launcher } = await svcOnPath(work);
    writeFileSync(join(work, 'svc.bash'), (await execFile(process.execPath, [launcher, 'completion', 'bash'])).stdout);
    bashEnv = { ...env, PATH: `${dir}:${env.PATH}`, HOME: tempConfigDir() };
  }, 120_000);

  const bash = async (line: string): Promise<string[]> => {
    const driver = `source "$1"; COMP_LINE=$2; read -ra COMP_WORDS <<< "$COMP_LINE"; [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
      COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _svc; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await execFile('bash', ['--norc', '--noprofile', '-c', driver, 'bash', join(work, 'svc.bash'), line], {
      env: bashEnv,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/ {2}\(.*\)$/, '').trimEnd())
      .sort();
  };

  it('svc m<TAB> offers the commands and the alias; svc zz<TAB> the extension; svc mine ne<TAB> the agent', async () => {
    expect(await bash('svc m')).toEqual(['memories', 'memory-stores', 'mine']);
    expect(await bash('svc zz')).toEqual(['zzext']);
    expect(await bash('svc mine ne')).toEqual(['newer']);
  });

  it('svc he<TAB> offers help beside the extension helper; help is offered at the top only', async () => {
    expect(await bash('svc he')).toEqual(['help', 'helper']);
    expect(await bash('svc sessions he')).toEqual([]);
  });
});
