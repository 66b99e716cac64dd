import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';
import { waitUntil } from '../helpers/sse';

describe('svc emulator --exports-file', () => {
  it('writes the two export lines to the file once listening (mode 0600), and removes it on stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-emu-'));
    const file = join(dir, 'emulator.env');
    const stop = new AbortController();
    const running = svc(['emulator', '--port', '0', '--exports-file', 'emulator.env'], { cwd: dir, signal: stop.signal });
    const text = await waitUntil(() => existsSync(file) && readFileSync(file, 'utf8'), 'the env file', 20_000);
    const vars = Object.fromEntries([...text.matchAll(/^export (SVC_BASE_URL|SVC_API_KEY)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(Object.keys(vars).sort()).toEqual(['SVC_API_KEY', 'SVC_BASE_URL']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The file is all a shell needs: the emulator answers with those settings.
    const res = await fetch(`${vars.SVC_BASE_URL}/v1/agents`, {
      headers: { authorization: `Bearer ${vars.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta' },
    });
    expect(res.status).toBe(200);
    stop.abort();
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(text);
    expect(existsSync(file)).toBe(false);
  });

  it('an env file that cannot be written is a usage error (exit 2) naming the option', async () => {
    const r = await svc(['emulator', '--port', '0', '--exports-file', join(tmpdir(), 'no-such-dir-svc', 'x.env')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --exports-file: cannot write .*x\.env: ENOENT/);
  });
});
