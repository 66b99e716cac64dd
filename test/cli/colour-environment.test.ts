import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();
const BOLD = '\u001b[1m';

describe('colour conventions', () => {
  const table = async (env: Record<string, string>, o: { tty: boolean; args?: string[] }) =>
    (await svc(['agents', 'list', '-o', 'table', ...(o.args ?? [])], { env: { ...emuEnv(t.emu), ...env }, stdoutTTY: o.tty, columns: 200 })).stdout;

  it('CLICOLOR=0 turns colour off on a terminal; CLICOLOR=1 leaves it on', async () => {
    await svc(['agents', 'create', '--name', 'coloured', '--model', 'm-1'], { env: emuEnv(t.emu) });
    expect(await table({}, { tty: true })).toContain(BOLD);
    expect(await table({ CLICOLOR: '0' }, { tty: true })).not.toContain(BOLD);
    expect(await table({ CLICOLOR: '1' }, { tty: true })).toContain(BOLD);
  });

  it('CLICOLOR_FORCE=1 turns it on piped, over CLICOLOR=0; NO_COLOR and --no-color win over it; CLICOLOR_FORCE=0 forces nothing', async () => {
    expect(await table({}, { tty: false })).not.toContain(BOLD);
    expect(await table({ CLICOLOR_FORCE: '1' }, { tty: false })).toContain(BOLD);
    expect(await table({ CLICOLOR_FORCE: '1', CLICOLOR: '0' }, { tty: false })).toContain(BOLD);
    expect(await table({ CLICOLOR_FORCE: '1', NO_COLOR: '1' }, { tty: false })).not.toContain(BOLD);
    expect(await table({ CLICOLOR_FORCE: '1' }, { tty: false, args: ['--no-color'] })).not.toContain(BOLD);
    expect(await table({ CLICOLOR_FORCE: '0' }, { tty: false })).not.toContain(BOLD);
  });
});

/** Every source file of src/, for the variables it reads. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? (name === 'emulator' ? [] : sources(p)) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('svc help environment', () => {
  it('lists every variable svc reads (env.NAME in src/, the emulator aside) and says svc sends no telemetry', async () => {
    const src = new URL('../../src', import.meta.url).pathname;
    const read = new Set<string>();
    for (const file of sources(src)) for (const m of readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) read.add(m[1]);
    expect(read.size).toBeGreaterThan(15);
    const r = await svc(['help', 'environment']);
    expect(r.code).toBe(0);
    const listed = new Set([...r.stdout.matchAll(/^ {2}([A-Z][A-Z0-9_]*)\s/gm)].map((m) => m[1]));
    for (const name of ['CLICOLOR', 'CLICOLOR_FORCE', 'NO_COLOR', 'FORCE_COLOR']) expect(listed).toContain(name);
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
    expect(r.stdout).toContain('svc sends no telemetry');
  });
});
