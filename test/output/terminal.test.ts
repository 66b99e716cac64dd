import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();
const env = () => emuEnv(t.emu, { NO_COLOR: '1' });
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const EVIL = 'evil\u001b]0;pwned\u0007 \u001b[2J\u009b2Jname';

describe('control characters on a terminal', () => {
  it('a table and a record show control characters from an argument or the service escaped, never raw', async () => {
    const id = (
      await svc(['agents', 'create', '--name', EVIL, '--model', 'm-1', '--data', '{"metadata":{"k\\u001b[31m":"v"}}', '-q'], { env: env() })
    ).stdout.trim();
    const list = await svc(['agents', 'list', '--limit', '100'], { env: env(), stdoutTTY: true, columns: 300 });
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(RAW);
    expect(list.stdout).toContain('evil\\x1b]0;pwned\\x07 \\x1b[2J\\x9b2Jname');
    const get = await svc(['agents', 'get', id], { env: env(), stdoutTTY: true, columns: 300 });
    expect(get.code).toBe(0);
    expect(get.stdout).not.toMatch(RAW);
    expect(get.stdout).toMatch(/^name\s+evil\\x1b\]0;pwned\\x07/m);
  });

  it('JSON on a terminal escapes the C1 controls JSON leaves raw (the same value); piped JSON is left as sent', async () => {
    const id = (await svc(['agents', 'create', '--name', 'c1\u009bname', '--model', 'm-1', '-q'], { env: env() })).stdout.trim();
    const tty = await svc(['agents', 'get', id, '-o', 'json'], { env: env(), stdoutTTY: true });
    expect(tty.stdout).not.toMatch(RAW);
    expect(tty.stdout).toContain('"c1\\u009bname"');
    expect(JSON.parse(tty.stdout).name).toBe('c1\u009bname');
    const piped = await svc(['agents', 'get', id, '-o', 'json'], { env: env() });
    expect(JSON.parse(piped.stdout).name).toBe('c1\u009bname');
  });
});
