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

  it('JSON on a terminal escapes the C1 controls JSON leaves raw, and piped JSON keeps the same value', async () => {
    const id = (await svc(['agents', 'create', '--name', 'c1\u009bname', '--model', 'm-1', '-q'], { env: env() })).stdout.trim();
    const tty = await svc(['agents', 'get', id, '-o', 'json'], { env: env(), stdoutTTY: true });
    expect(tty.stdout).not.toMatch(RAW);
    expect(tty.stdout).toContain('"c1\\u009bname"');
    expect(JSON.parse(tty.stdout).name).toBe('c1\u009bname');
    const piped = await svc(['agents', 'get', id, '-o', 'json'], { env: env() });
    expect(JSON.parse(piped.stdout).name).toBe('c1\u009bname');
  });
});

describe('control characters whatever stdout and stderr are (a pipe often ends on a terminal)', () => {
  const c1Agent = async (name: string): Promise<string> =>
    (await svc(['agents', 'create', '--name', name, '--model', 'm-1', '-q'], { env: env() })).stdout.trim();

  it('a table piped to another program (-o table | cat) shows control characters escaped', async () => {
    const id = await c1Agent(EVIL);
    const list = await svc(['agents', 'list', '--limit', '100', '-o', 'table'], { env: env() });
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(RAW);
    expect(list.stdout).toContain('evil\\x1b]0;pwned\\x07 \\x1b[2J\\x9b2Jname');
    const get = await svc(['agents', 'get', id, '-o', 'table'], { env: env() });
    expect(get.stdout).not.toMatch(RAW);
  });

  it('piped JSON, NDJSON and IDs carry a C1 control as \\u009b, not the raw character, and keep the value', async () => {
    const id = await c1Agent('c1\u009bname\u007f');
    const json = await svc(['agents', 'get', id, '-o', 'json'], { env: env() });
    expect(json.stdout).not.toMatch(RAW);
    expect(json.stdout).toContain('"c1\\u009bname\\u007f"');
    expect(JSON.parse(json.stdout).name).toBe('c1\u009bname\u007f');
    const list = await svc(['agents', 'list', '--limit', '100', '-o', 'json'], { env: env() });
    expect(list.stdout).not.toMatch(RAW);
    expect(JSON.parse(list.stdout).some((a: { name: string }) => a.name === 'c1\u009bname\u007f')).toBe(true);
    const ndjson = await svc(['agents', 'list', '--limit', '100', '-o', 'ndjson'], { env: env() });
    expect(ndjson.stdout).not.toMatch(RAW);
    expect(ndjson.stdout).toContain('"c1\\u009bname\\u007f"');
  });

  it('yaml double-quotes and escapes DEL and C1 controls the yaml package leaves raw, and reads back as the same value', async () => {
    const id = await c1Agent('y\u009b2J\u0085z\u007f');
    const r = await svc(['agents', 'get', id, '-o', 'yaml'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toMatch(/^name: "y\\x9b2J\\x85z\\x7f"$/m);
    const { parse } = await import('yaml');
    expect(parse(r.stdout).name).toBe('y\u009b2J\u0085z\u007f');
  });

  it('an error line through 2>&1 | tee, and its JSON form, show the service’s control characters escaped', async () => {
    const missing = 'agent_\u001b]0;pwned\u0007\u009b2J';
    const line = await svc(['agents', 'get', missing], { env: env() });
    expect(line.code).toBe(6);
    expect(line.stderr).not.toMatch(RAW);
    const json = await svc(['agents', 'get', missing, '-o', 'json'], { env: env() });
    expect(json.code).toBe(6);
    expect(json.stderr).not.toMatch(RAW);
  });

  it('the --debug=api log shows a body’s C1 controls escaped, and messages on stderr too', async () => {
    const id = await c1Agent('dbg\u009b2Jname');
    const r = await svc(['agents', 'get', id, '--debug=api'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: < body /);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('dbg\\x9b2Jname');
  });
});
