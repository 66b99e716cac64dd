import { execFile as execFileCb, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundle } from '../../scripts/bundle.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emuEnv, tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const repo = new URL('../..', import.meta.url).pathname;
/** Inside node_modules so the bundle's external packages resolve; never the shared dist/, which others rebuild. */
const work = join(repo, 'node_modules', '.cache', `completion-test-${process.pid}`);
const t = useEmulator();
let env: Record<string, string>;
let ids: string[];

/** `svc` on PATH: bin/svc.js over a private bundle of src/, as `npm run build` makes it. */
beforeAll(async () => {
  mkdirSync(join(work, 'bin'), { recursive: true });
  mkdirSync(join(work, 'path'), { recursive: true });
  copyFileSync(join(repo, 'bin', 'svc.js'), join(work, 'bin', 'svc.js'));
  await bundle(join(work, 'dist'), 'error');
  writeFileSync(join(work, 'path', 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${join(work, 'bin', 'svc.js')}" "$@"\n`, { mode: 0o755 });
  for (const name of ['older', 'newer']) await call(t.emu, 'POST', '/v1/agents', { body: { name, model: 'm' } });
  ids = (await call(t.emu, 'GET', '/v1/agents?page_size=1000')).body.items.map((a: { id: string }) => a.id);
  env = { ...(emuEnv(t.emu) as Record<string, string>), SVC_CONFIG_DIR: tempConfigDir(), PATH: `${join(work, 'path')}:${process.env.PATH}`, HOME: tempConfigDir() };
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Asynchronous: the emulator answers from this same process while the shell waits.
const execFile = promisify(execFileCb);
const run = async (bin: string, args: string[]): Promise<string[]> => lines((await execFile(bin, args, { env, encoding: 'utf8', timeout: 15_000 })).stdout);

const has = (bin: string): boolean => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
const script = (file: string): string => join(repo, 'completions', file);

/** Each shell's candidates for a line typed up to the cursor, one per line, descriptions dropped. */
const SHELLS: Record<string, { bin: string; ready: () => string | undefined; complete: (line: string) => Promise<string[]> }> = {
  bash: {
    bin: 'bash',
    ready: () => (spawnSync('bash', ['-c', '[ -r /usr/share/bash-completion/bash_completion ]']).status === 0 ? undefined : 'bash-completion is not installed'),
    complete: (line) => {
      const driver = `source /usr/share/bash-completion/bash_completion; source "$1"
        COMP_LINE=$2; COMP_POINT=\${#COMP_LINE}; read -ra COMP_WORDS <<< "$COMP_LINE"
        [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
        COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _svc svc "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "\${COMPREPLY[@]}"`;
      return run('bash', ['-c', driver, 'bash', script('svc.bash'), line]);
    },
  },
  zsh: {
    bin: 'zsh',
    ready: () => undefined,
    complete: (line) => run('zsh', ['-f', join(repo, 'test', 'completion', 'zsh-capture.zsh'), script('_svc'), line]),
  },
  fish: {
    bin: 'fish',
    ready: () => undefined,
    complete: (line) => run('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', script('svc.fish'), line]),
  },
};

function lines(out: string): string[] {
  return out.split('\n').map((l) => l.split('\t')[0]).filter(Boolean).sort();
}

for (const [shell, s] of Object.entries(SHELLS)) {
  const skip = !has(s.bin) ? `${s.bin} is not installed` : s.ready();
  describe.skipIf(Boolean(skip))(`${shell} completion${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('svc ag<TAB> offers agents', async () => {
      expect(await s.complete('svc ag')).toEqual(['agents']);
    });

    it('svc agents g<TAB> offers get', async () => {
      expect(await s.complete('svc agents g')).toEqual(['get']);
    });

    it('svc -o <TAB> offers the output formats', async () => {
      expect(await s.complete('svc -o ')).toEqual(['id', 'json', 'jsonl', 'ndjson', 'table', 'yaml']);
    });

    it("svc agents get <TAB> offers the emulator's agent IDs", async () => {
      expect(await s.complete('svc agents get ')).toEqual([...ids].sort());
    });
  });
}
