// `svc sessions explain --error-type`: the filter and the explanation share one history read per session, counted
// on the emulator's side.
import { describe, expect, it } from 'vitest';
import { runOutage } from '../../src/emulator/outage';
import { emuEnv, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator({ modelStepMs: 0 });

describe('svc sessions explain --error-type', () => {
  it("reads each failed session's history once: the page the explanation reads too (one list page + 200)", async () => {
    const o = await runOutage(t.emu, { sessions: 200, timeout_ms: 60_000 });
    expect(o.session_ids).toHaveLength(200);
    const before = await requestCount(t.emu);
    const r = await svc(['sessions', 'explain', '--error-type', 'engine_overloaded', '-l', 'scenario=outage', '-o', 'json', '--jq', '.total'], {
      env: emuEnv(t.emu),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Number(r.stdout)).toBe(200);
    expect((await requestCount(t.emu)) - before).toBe(201);
  }, 120_000);
});
