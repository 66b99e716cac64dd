// Issue 13: an ID that cannot stay one path segment (`.`, `..`) or is empty is a usage error, with no request sent.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator();

describe('IDs in paths', () => {
  it.each([
    [['agents', 'get', '..']],
    [['agents', 'get', '.']],
    [['agents', 'get', '']],
    [['agents', 'delete', '..']],
    [['agents', 'update', '..', '--description', 'x']],
    [['sessions', 'get', '..']],
    [['threads', 'get', 'sesn_1', '..']],
    [['vaults', 'credentials', 'delete', 'vault_1', '..']],
    [['vaults', 'credentials', 'delete', '..', 'cred_1']],
    [['memories', 'delete', 'store_1', '.']],
    [['files', 'get', '']],
    [['work', 'get', 'env_1', '..']],
  ])('svc %j is exit 2 and sends nothing', async (args) => {
    const before = await requestCount(t.emu);
    const r = await svc(args, { env: emuEnv(t.emu) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: (an ID cannot be empty|"\.\.?" cannot be an ID: it would not stay one path segment)\n$/);
    expect(await requestCount(t.emu)).toBe(before);
  });

  it.each(['a/b', '%2e%2e', '...', 'x y?#'])('R-REQ-2 any other ID stays opaque: %j is sent percent-encoded as one segment', async (id) => {
    const r = await svc(['agents', 'get', id], { env: emuEnv(t.emu) });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(JSON.stringify(id).slice(1, -1));
  });
});
