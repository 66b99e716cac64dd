import { describe, expect, it } from 'vitest';
import { svc } from '../helpers/cli';

describe('svc demo', () => {
  it('tours agents against an in-process emulator with real commands, pasteable as shown', async () => {
    const r = await svc(['demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/svc demo: an emulator of the service is running at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toContain("$ svc agents create --name demo-reviewer --model claude-sonnet-4-5 --system 'Review code briefly.' -o id");
    expect(r.stdout).toMatch(/\$ svc agents versions \S+\n\[/);
    // The last step reads version 1 back after the update: the tour really changed state.
    expect(r.stdout).toContain("--version 1 -o json --jq .system\nReview code briefly.\n");
  });
});
