// What `svc sessions explain` costs the service for 1 000 failed sessions, counted on the emulator's side.
import { describe, expect, it } from 'vitest';
import { runOutage } from '../../src/emulator/outage';
import { emuEnv, svc } from '../helpers/cli';
import { requestCount, useEmulator } from '../helpers/emulator';

const t = useEmulator({ modelStepMs: 0 });

describe('svc sessions explain at scale', () => {
  it('1 000 sessions failed in an outage: one list page and one history page each (1 001 requests), one group', async () => {
    const o = await runOutage(t.emu, { sessions: 1000, timeout_ms: 60_000 });
    expect(o.session_ids).toHaveLength(1000);
    const before = await requestCount(t.emu);
    const started = Date.now();
    const r = await svc(['sessions', 'explain', '-l', 'scenario=outage', '-o', 'json', '--jq', '.groups'], { env: emuEnv(t.emu) });
    const requests = (await requestCount(t.emu)) - before;
    expect(r.code).toBe(0);
    const groups = JSON.parse(r.stdout);
    expect(groups.map((g: any) => [g.code, g.error_type, g.count])).toEqual([['session_error', 'engine_overloaded', 1000]]);
    expect(groups[0].command).toBe('svc sessions rerun --status failed --error-type engine_overloaded -l scenario=outage');
    console.log(`explain of 1000 failed sessions: ${requests} requests in ${Date.now() - started} ms`);
    expect(requests).toBe(1001);
  }, 120_000);
});
