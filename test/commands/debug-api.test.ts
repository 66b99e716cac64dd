// Issue 17: SVC_DEBUG=api and --debug=api reach the client from the command line: full headers and bodies, redacted.
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

const t = useEmulator();
const SECRET = 'ghp_DebugApiSecretValue_93';

async function vault(): Promise<string> {
  const r = await svc(['vaults', 'create', '--name', 'dbg', '-o', 'id'], { env: emuEnv(t.emu) });
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

describe('svc with the API debug log', () => {
  for (const [how, args, extraEnv] of [
    ['SVC_DEBUG=api', [], { SVC_DEBUG: 'api' }],
    ['--debug=api', ['--debug=api'], {}],
  ] as const) {
    it(`${how} logs request and response headers and bodies, never the key nor a credential value`, async () => {
      const v = await vault();
      const env = { ...emuEnv(t.emu), ...extraEnv };
      const r = await svc(['vaults', 'credentials', 'create', v, '--name', 'gh', '--type', 'static_bearer', '--value-stdin', ...args], {
        env,
        stdin: SECRET + '\n',
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('debug: > authorization: Bearer ***');
      expect(r.stderr).toMatch(/debug: > body \{.*"value":"\*\*\*"/);
      expect(r.stderr).toMatch(/debug: < body \{.*"name":"gh"/);
      expect(r.stderr + r.stdout).not.toContain(SECRET);
      expect(r.stderr + r.stdout).not.toContain(t.emu.apiKey);
    });
  }

  it('plain --debug logs request lines but no headers or bodies', async () => {
    const r = await svc(['agents', 'list', '--debug'], { env: emuEnv(t.emu) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: > GET /);
    expect(r.stderr).not.toContain('authorization:');
    expect(r.stderr).not.toContain('debug: < body');
  });
});
