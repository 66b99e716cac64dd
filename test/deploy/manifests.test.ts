// deploy/: every Kubernetes manifest validates against the official Kubernetes and KEDA schemas (kubernetes-models),
// and holds what running svc in production needs. No cluster, no network.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { Service, ServiceAccount } from 'kubernetes-models/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { parseDuration } from '../../src/text/duration';

const deploy = new URL('../../deploy/', import.meta.url).pathname;

/** The model (schema) of each kind the recipes use. */
const MODELS: Record<string, new (o: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

/** What run-as-job.sh puts in the Job template. */
const JOB_VALUES: Record<string, string> = {
  __JOB_NAME__: 'svc-row-work-abc-g1',
  __WORK_ID__: 'work_abc',
  __SESSION_ID__: 'sesn_abc',
  __BASE_URL__: 'https://api.example.com',
  __API_VERSION__: '2026-09-01-beta',
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Every Kubernetes object of deploy/kubernetes (kustomize's own file aside), the Job template filled in. */
function objects(): Array<{ file: string; doc: any }> {
  return files(join(deploy, 'kubernetes'))
    .filter((f) => f.endsWith('.yaml') && !f.endsWith('kustomization.yaml'))
    .flatMap((file) => {
      let text = readFileSync(file, 'utf8');
      for (const [k, v] of Object.entries(JOB_VALUES)) text = text.replaceAll(k, v);
      return parseAllDocuments(text).map((d) => {
        expect(d.errors, relative(deploy, file)).toEqual([]);
        return { file: relative(deploy, file), doc: d.toJS() };
      });
    });
}

const byKind = (kind: string, name?: string) => objects().filter((o) => o.doc.kind === kind && (name === undefined || o.doc.metadata.name === name));
const argAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('deploy/ manifests', () => {
  it('every manifest validates against the official Kubernetes and KEDA schemas', () => {
    const all = objects();
    expect(all.map((o) => `${o.doc.apiVersion}/${o.doc.kind}`).sort()).toEqual(
      [
        'apps/v1/Deployment',
        'apps/v1/Deployment',
        'apps/v1/Deployment',
        'batch/v1/Job',
        'keda.sh/v1alpha1/ScaledObject',
        'rbac.authorization.k8s.io/v1/Role',
        'rbac.authorization.k8s.io/v1/RoleBinding',
        'v1/Service',
        'v1/ServiceAccount',
      ].sort(),
    );
    for (const { file, doc } of all) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${file}: ${doc.kind}`).toBeDefined();
      expect(() => new Model(doc).validate(), `${file}: ${doc.kind} ${doc.metadata?.name}`).not.toThrow();
    }
  });

  it('the schema check is real: a manifest with a wrong type fails it', () => {
    const [{ doc }] = byKind('Deployment', 'svc-worker');
    expect(() => new Deployment({ ...doc, spec: { ...doc.spec, replicas: 'two' } }).validate()).toThrow(/replicas/);
    const [{ doc: so }] = byKind('ScaledObject');
    expect(() => new ScaledObject({ ...so, spec: { ...so.spec, triggers: 'metrics-api' } }).validate()).toThrow(/triggers/);
  });

  it('every pod runs as a non-root user on a read-only root filesystem with writable volumes, resource requests and probes on the status server', () => {
    const pods = [...byKind('Deployment'), ...byKind('Job')].map(({ file, doc }) => ({ file, spec: doc.spec.template.spec }));
    expect(pods).toHaveLength(4);
    for (const { file, spec } of pods) {
      expect(spec.securityContext, file).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(spec.securityContext.runAsUser, file).not.toBe(0);
      for (const c of spec.containers) {
        expect(c.securityContext, file).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
        expect(c.resources.requests, file).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
        const mounts = c.volumeMounts.map((m: any) => m.mountPath);
        expect(mounts, file).toContain('/tmp');
        for (const m of c.volumeMounts.filter((m: any) => m.mountPath === '/work' || m.mountPath === '/tmp'))
          expect(spec.volumes.find((v: any) => v.name === m.name).emptyDir, file).toBeDefined();
      }
    }
  });

  it('the worker Deployments read the key from a Secret, probe /healthz and /readyz, and give SIGTERM more time than --grace', () => {
    for (const name of ['svc-worker', 'svc-dispatcher']) {
      const [{ doc }] = byKind('Deployment', name);
      const pod = doc.spec.template.spec;
      const [c] = pod.containers;
      expect(c.args.slice(0, 2)).toEqual(['worker', 'run']);
      expect(c.env.find((e: any) => e.name === 'SVC_ENVIRONMENT_KEY').valueFrom.secretKeyRef).toMatchObject({ name: 'svc-worker', key: 'environment-key' });
      expect(JSON.stringify(doc)).not.toMatch(/ek_|sk_/);
      const port = Number(argAfter(c.args, '--metrics-addr').split(':')[1]);
      expect(c.ports.find((p: any) => p.name === 'metrics').containerPort).toBe(port);
      expect(c.livenessProbe.httpGet).toMatchObject({ path: '/healthz', port: 'metrics' });
      expect(c.readinessProbe.httpGet).toMatchObject({ path: '/readyz', port: 'metrics' });
      const graceMs = parseDuration(argAfter(c.args, '--grace'), '--grace');
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(graceMs + 10_000);
    }
  });

  it('the ScaledObject scales the worker Deployment on the demand that the work-stats Service serves', () => {
    const [{ doc: so }] = byKind('ScaledObject');
    expect(so.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'svc-worker' });
    const [trigger] = so.spec.triggers;
    expect(trigger).toMatchObject({ type: 'metrics-api', metadata: { valueLocation: 'demand', format: 'json' } });
    const [{ doc: service }] = byKind('Service', 'svc-work-stats');
    const url = new URL(trigger.metadata.url);
    expect(url.hostname.split('.')[0]).toBe(service.metadata.name);
    expect(Number(url.port)).toBe(service.spec.ports[0].port);
    const [{ doc: stats }] = byKind('Deployment', 'svc-work-stats');
    const [c] = stats.spec.template.spec.containers;
    expect(c.args.slice(0, 2)).toEqual(['work', 'stats']);
    expect(Number(argAfter(c.args, '--serve').split(':')[1])).toBe(c.ports[0].containerPort);
    // Target value = each worker's --concurrency: one worker per four rows wanting one.
    const [{ doc: worker }] = byKind('Deployment', 'svc-worker');
    expect(trigger.metadata.targetValue).toBe(argAfter(worker.spec.template.spec.containers[0].args, '--concurrency'));
  });

  it('the Job-per-session recipe: the dispatcher hands each row to a Job running `svc worker serve` on an attached standard input', () => {
    const [{ doc: job }] = byKind('Job');
    const [c] = job.spec.template.spec.containers;
    expect(c.args.slice(0, 2)).toEqual(['worker', 'serve']);
    expect(c).toMatchObject({ stdin: true, stdinOnce: true });
    // The session token travels on standard input only, never in the Job's spec.
    expect(JSON.stringify([c.args, c.env, job.metadata])).not.toMatch(/token|secret/i);
    expect(JSON.stringify(job)).not.toContain('secretKeyRef');
    const [{ doc: dispatcher }] = byKind('Deployment', 'svc-dispatcher');
    expect(argAfter(dispatcher.spec.template.spec.containers[0].args, '--on-work')).toBe('/etc/svc-dispatch/run-as-job.sh');
    const script = join(deploy, 'kubernetes', 'job-per-session', 'run-as-job.sh');
    expect(statSync(script).mode & 0o111).not.toBe(0);
    expect(spawnSync('sh', ['-n', script]).status).toBe(0);
    for (const placeholder of Object.keys(JOB_VALUES)) expect(readFileSync(script, 'utf8')).toContain(placeholder);
    const [{ doc: role }] = byKind('Role', 'svc-dispatcher');
    expect(role.rules.flatMap((r: any) => r.resources)).toEqual(expect.arrayContaining(['jobs', 'pods', 'pods/attach']));
  });

  it('the Dockerfile builds from a slim Node base with the packed tarball and runs as a non-root user', () => {
    const text = readFileSync(join(deploy, 'Dockerfile'), 'utf8');
    expect(text).toMatch(/^FROM node:\d+-slim AS svc$/m);
    expect(text).toMatch(/^COPY hosted-agent-svc-\*\.tgz /m);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/^ENTRYPOINT \["svc"\]$/m);
    expect(text).not.toMatch(/^USER root$/m);
  });
});
