// The worker and the skills of a session's agent (an assumption: the spec does not say how a sandbox sees them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc, tempConfigDir } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';
import { agentSession, send } from '../helpers/sse';
import { expectNoSecrets, resultText, selfHostedEnvironment, toolResults, workdir } from './helpers';

const t = useEmulator({ leaseTtlMs: 1500, deliveryWindowMs: 3000, modelStepMs: 2 });

describe('svc worker run: skills', () => {
  it("puts the packages of the agent's skills under the workdir before the first tool call (with an API key)", async () => {
    const env = await selfHostedEnvironment(t.emu);
    const dir = workdir();
    const pkg = join(dir, '..', `skill-${Date.now()}.zip`);
    writeFileSync(pkg, 'PK-skill-package-bytes');
    const cfg = { SVC_BASE_URL: t.emu.url, SVC_API_KEY: t.emu.apiKey, SVC_CONFIG_DIR: tempConfigDir() };
    const skill = JSON.parse((await svc(['skills', 'create', pkg, '--name', `sk-${Date.now()}`, '-o', 'json'], { env: cfg })).stdout);
    const s = await agentSession(t.emu, { skills: [{ skill_id: skill.id }] }, { environment_id: env.id });
    await send(t.emu, s.id, `/tool bash {"command":"cat .skills/${skill.id}/1/package"}`);
    const r = await svc(['worker', 'run', '--environment', env.id, '--workdir', dir, '--once'], {
      env: { ...cfg, SVC_ENVIRONMENT_KEY: env.key, PATH: process.env.PATH },
    });
    expect(r.code).toBe(0);
    expect((await toolResults(t.emu, s.id)).map(resultText)).toEqual(['PK-skill-package-bytes']);
    expect(r.stderr).toMatch(new RegExp(`skill package ready .*skill=${skill.id} version=1`));
    expectNoSecrets(r.stderr, [t.emu.apiKey, env.key]);
  }, 20_000);
});
