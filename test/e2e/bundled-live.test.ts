import { execFile as execFileCb } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { useBundledSvc } from '../helpers/bundled';
import { tempConfigDir } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';
import { describeWith } from '../helpers/requires';

// The tests of src/ run Ink and its dependencies unpatched; users run the bundle, whose build patches and swaps some of
// them (scripts/build/PERF.md). Here the bundle itself starts and draws the live view on a real pseudo-terminal.
const bundled = useBundledSvc();
const t = useEmulator({ modelStepMs: 5 });
const execFile = promisify(execFileCb);

/** `svc ARGS` from the bundle on a pseudo-terminal of 100×30 (util-linux `script`): everything the terminal received. */
async function onPty(args: string[]): Promise<string> {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const line = `stty cols 100 rows 30; ${q(process.execPath)} ${q(bundled.bin)} ${args.map(q).join(' ')}; echo "EXIT=$?"`;
  const env = { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: tempConfigDir() };
  const { stdout } = await execFile('script', ['-qfec', line, '/dev/null'], { env, encoding: 'utf8', timeout: 60_000 });
  return stdout;
}

describeWith('svc as users get it (the built bundle)', ['script'], () => {
  it('svc --version answers from the bundle on a terminal', async () => {
    const out = await onPty(['--version']);
    expect(out).toMatch(/^\d+\.\d+\.\d+\r?$/m);
    expect(out).toMatch(/EXIT=0/);
  });

  it('svc run on a terminal draws the live view, closes it at idle, prints the answer, exits 0 and gives the terminal back', async () => {
    const agent = (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'bundled', model: 'scripted-1' } })).body;
    const out = await onPty(['run', '--agent', agent.id, '--message', 'hello from the bundle']);
    // The view's footer (its key table) was drawn, then the turn's end.
    const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain('q quit');
    expect(plain).toContain('the turn ended; the session is idle');
    const afterView = out.slice(out.lastIndexOf('\x1b[?2004l'));
    // Bracketed paste is turned off and the cursor shown again before the answer is printed.
    expect(out.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(out.lastIndexOf('\x1b[?2004h'));
    expect(out.lastIndexOf('\x1b[?25h')).toBeGreaterThan(out.lastIndexOf('\x1b[?25l'));
    expect(afterView).toContain('You said: hello from the bundle');
    expect(afterView).toMatch(/EXIT=0/);
  });
});
