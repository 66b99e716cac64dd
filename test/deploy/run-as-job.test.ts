// Issue 45 items 12 and 13: run-as-job.sh against hostile IDs, with a stand-in kubectl that records what it is asked.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1';

const dir = new URL('../../deploy/kubernetes/job-per-session/', import.meta.url).pathname;

/**
 * A kubectl that logs each call, keeps what `create -f -` is given (refusing a name it made before, as the API
 * server does), and answers wait, get and attach.
 */
function fakeKubectl(): { bin: string; log: string; made: string } {
  const bin = mkdtempSync(join(tmpdir(), 'svc-kubectl-'));
  const log = join(bin, 'calls.log');
  const made = join(bin, 'made');
  writeFileSync(
    join(bin, 'kubectl'),
    `#!/bin/sh
echo "$*" >> '${log}'
case $1 in
  create) m=$(cat); name=$(printf '%s\\n' "$m" | sed -n 's/^  name: //p' | head -n 1)
    if grep -qx "$name" '${made}' 2>/dev/null; then echo "jobs.batch \\"$name\\" already exists" >&2; exit 1; fi
    echo "$name" >> '${made}'; printf '%s\\n---\\n' "$m" >> '${made}.yaml' ;;
  get) echo pod-1 ;;
esac
exit 0
`,
  );
  chmodSync(join(bin, 'kubectl'), 0o755);
  return { bin, log, made };
}

function runJob(k: { bin: string }, work: string, session = 'sesn_1', extra: Record<string, string> = {}) {
  return spawnSync('sh', [join(dir, 'run-as-job.sh')], {
    encoding: 'utf8',
    input: '',
    env: {
      PATH: `${k.bin}:${process.env.PATH}`,
      SVC_JOB_TEMPLATE: join(dir, 'job-template.yaml'),
      SVC_WORK_ID: work,
      SVC_SESSION_ID: session,
      SVC_WORK_GENERATION: '1',
      SVC_BASE_URL: 'https://api.example.com',
      SVC_API_VERSION: '2026-09-01-beta',
      ...extra,
    },
  });
}
const calls = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
const jobs = (made: string) =>
  parseAllDocuments(readFileSync(`${made}.yaml`, 'utf8'))
    .map((d) => d.toJS())
    .filter(Boolean);

describe('run-as-job.sh (issue 45)', () => {
  it('item 12: an ID with YAML or sed syntax, or a line break, is refused before anything is made; nothing is deleted', () => {
    for (const id of ['a: b', 'x|y', 'w&1', 'w #c', '*anchor', 'w\nsvc/injected: yes', '"q"', "it's", '']) {
      for (const [work, session] of [
        [id, 'sesn_1'],
        ['work_1', id],
      ]) {
        const k = fakeKubectl();
        const r = runJob(k, work, session);
        expect(r.status, JSON.stringify([work, session])).toBe(2);
        expect(r.stderr).toMatch(/^run-as-job\.sh: SVC_(WORK|SESSION)_ID is not a plain ID/);
        expect(calls(k.log)).toEqual([]);
      }
    }
    const k = fakeKubectl();
    expect(runJob(k, 'work_1', 'sesn_1', { SVC_BASE_URL: 'https://x" y' }).status).toBe(2);
    expect(runJob(k, 'work_1', 'sesn_1', { SVC_WORK_GENERATION: '1; rm' }).status).toBe(2);
    expect(calls(k.log)).toEqual([]);
  });

  it("item 12: a plain ID (digits alone too) and a URL with & and ' make a valid Job holding them exactly", () => {
    const k = fakeKubectl();
    const url = "https://api.example.com/v?a=1&b='2'";
    for (const [work, session] of [
      ['work_01HX.a-b', 'sesn_9'],
      ['12345', 'true'],
    ]) {
      const r = runJob(k, work, session, { SVC_BASE_URL: url });
      expect([r.status, r.stderr]).toEqual([0, '']);
    }
    const [a, b] = jobs(k.made);
    for (const job of [a, b]) new Job(job).validate();
    expect(a.metadata.annotations).toEqual({ 'svc/work-id': 'work_01HX.a-b', 'svc/session-id': 'sesn_9' });
    expect(b.metadata.annotations).toEqual({ 'svc/work-id': '12345', 'svc/session-id': 'true' });
    expect(a.spec.template.spec.containers[0].env).toContainEqual({ name: 'SVC_BASE_URL', value: url });
  });

  it('item 13: IDs alike once case-folded or cut at 40 characters get Jobs of their own; a failed create deletes nothing', () => {
    const k = fakeKubectl();
    const long = 'w'.repeat(40);
    for (const id of ['Work_A1', 'work-a1', `${long}a`, `${long}b`]) expect(runJob(k, id).status).toBe(0);
    const names = readFileSync(k.made, 'utf8').trim().split('\n');
    expect(new Set(names).size).toBe(4);
    for (const n of names) expect(n).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    // The same row again: its create fails (the name is taken) and its EXIT trap leaves the first run's Job alone.
    const before = calls(k.log).length;
    const again = runJob(k, 'Work_A1');
    expect(again.status).not.toBe(0);
    const after = calls(k.log).slice(before);
    expect(after.length).toBe(1);
    expect(after[0]).toMatch(/^create /);
  });
});
