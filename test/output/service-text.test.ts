import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emuEnv, svc } from '../helpers/cli';
import { call, useEmulator } from '../helpers/emulator';

const t = useEmulator({ modelStepMs: 1 });
const env = () => emuEnv(t.emu);
const ESC = '\u001b';
const CSI = '\u009b';

async function agent(): Promise<string> {
  return (await call(t.emu, 'POST', '/v1/agents', { body: { name: 'echoer', model: 'scripted-1' } })).body.id;
}

describe('text from the service printed by run, the NDJSON tail and apply', () => {
  it("svc run piped prints the reply's control characters escaped, its line breaks kept", async () => {
    const r = await svc(['run', '--agent', await agent(), '--message', `/echo red${ESC}[31m clear${ESC}[2J bell\u0007 csi${CSI}2J`], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).toContain('\\x1b[31m');
    expect(r.stdout).toContain('\\x9b2J');
    expect(r.stdout.endsWith('\n')).toBe(true);
  });

  it('the NDJSON event lines (run -o ndjson, sessions tail) carry a C1 control as \\u009b, not the raw character, with the same value once parsed', async () => {
    const a = await agent();
    const run = await svc(['run', '--agent', a, '--message', `/echo csi${CSI}2J`, '-o', 'ndjson'], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(CSI);
    expect(run.stdout).toContain('\\u009b');
    const message = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'agent.message');
    expect(JSON.stringify(message)).toContain(`csi${CSI}2J`);
  });

  it("apply's plan shows a name's control characters escaped", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-plan-'));
    writeFileSync(join(dir, 'a.yaml'), `kind: Agent\nname: "rev${'\\x1b'}[2Jiewer"\nmodel: scripted-1\n`);
    const r = await svc(['apply', '-f', dir, '--dry-run', '--set', 'plan-controls', '-o', 'table'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(ESC);
    expect(r.stdout).toContain('rev\\x1b[2Jiewer');
  });
});
