import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const log: string[] = [];
const t = useEmulator({ log: (l) => log.push(l) });

const run = (args: string[], o: SvcOptions = {}) => svc(args, { columns: 200, ...o, env: { ...emuEnv(t.emu), NO_COLOR: '1', ...o.env } });

const agentWithHeaderFrom = (name: string, file: string) =>
  `kind: Agent\nname: ${name}\nmodel: m\nmcp_servers:\n  - {type: url, name: gh, url: "https://mcp.example", headers: {X-Api-Key: {value_from: {file: ${file}}}}}\n`;

const vaultWithTokenFrom = (name: string, file: string) =>
  `kind: Vault\nname: ${name}\ncredentials:\n  - {name: token, type: static_bearer, value_from: {file: ${file}}}\n`;

/** Resolves once `check` holds, polling: waits on a condition, never on a fixed delay. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('svc apply: value_from', () => {
  it('--debug=api never shows a value_from secret sent in an MCP server header, and the service still receives it', async () => {
    const dir = tempConfigDir();
    const secret = 'x-api-key-from-file-3f9a1c';
    writeFileSync(join(dir, 'key.txt'), `${secret}\n`);
    writeFileSync(join(dir, 'agent.yaml'), agentWithHeaderFrom('debug-header', 'key.txt'));
    const r = await run(['apply', '-f', 'agent.yaml', '--set', 'debug-header', '--debug=api'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('POST');
    expect(r.stdout + r.stderr).not.toContain(secret);
    const agent = [...t.emu.collection('agents', 'agent', 'agent').values()].find((a) => a.name === 'debug-header')!;
    expect(Object.values(agent._mcp_headers)).toEqual([{ 'X-Api-Key': secret }]);
  });

  it('a value_from file that is a character device (/dev/zero) is exit 2 naming it, with nothing sent', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'vault.yaml'), vaultWithTokenFrom('zero-vault', '/dev/zero'));
    const before = await requestCount(t.emu);
    const r = await run(['apply', '-f', 'vault.yaml', '--set', 'zero'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/vault\.yaml \(line 1\): credentials\[0\]: value_from: cannot read \/dev\/zero: a character device/);
    // Only the plan's reads went out.
    expect(log.slice(-((await requestCount(t.emu)) - before)).filter((l) => !l.startsWith('GET '))).toEqual([]);
  });

  it('a value_from file larger than the body limit is exit 2 naming it', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'big.txt'), Buffer.alloc(4 * 1024 * 1024 + 1, 'a'));
    writeFileSync(join(dir, 'vault.yaml'), vaultWithTokenFrom('big-vault', 'big.txt'));
    const r = await run(['apply', '-f', 'vault.yaml', '--set', 'big'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/credentials\[0\]: value_from: big\.txt is larger than 4 MiB/);
  });

  it('a value_from file that is a FIFO nobody writes to is interrupted by Ctrl-C (exit 130), with nothing sent', async () => {
    const dir = tempConfigDir();
    const fifo = join(dir, 'token.fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'vault.yaml'), vaultWithTokenFrom('fifo-vault', 'token.fifo'));
    const from = log.length;
    const ctrlC = new AbortController();
    const running = run(['apply', '-f', 'vault.yaml', '--set', 'fifo'], { cwd: dir, signal: ctrlC.signal });
    // The plan lists vaults before it reads the secret of the vault it will create.
    await until(() => log.slice(from).some((l) => l.startsWith('GET /v1/vaults')));
    ctrlC.abort();
    const r = await running;
    expect(r.code).toBe(130);
    expect(log.slice(from).filter((l) => !l.startsWith('GET '))).toEqual([]);
  });

  it('a value_from file that is a FIFO is read when something writes to it', async () => {
    const dir = tempConfigDir();
    const fifo = join(dir, 'token.fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'vault.yaml'), vaultWithTokenFrom('fifo-fed-vault', 'token.fifo'));
    const running = run(['apply', '-f', 'vault.yaml', '--set', 'fifo-fed'], { cwd: dir });
    // A writer in another process: opening a FIFO for writing blocks until the reader opens it.
    await promisify(execFile)('sh', ['-c', `printf 'fed-through-a-fifo-77\\n' > '${fifo}'`]);
    const r = await running;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
