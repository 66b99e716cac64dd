/** `svc approve serve --policy FILE [selectors]`: the headless approver (src/approve/serve.ts). */
import { flagTable, oneOf, type FlagsOf } from '../../cli/flags';
import { parseCount } from '../../config/settings';
import type { Ctx } from '../../runtime/context';
import { InterruptedError, UsageError } from '../../runtime/errors';
import { parseHostPort, type HostPort } from '../../net/host-port';
import { write } from '../../runtime/io';
import type { Destination } from '../../listen/destination';
import { ListenState } from '../../listen/state';
import { redact } from '../../text/redact';
import { parseDuration } from '../../text/duration';
import { USER_AGENT } from '../../version';
import { approveSelectors, type SessionSelectors } from '../../approve/selection';
import type { AuditLine } from '../../approve/serve';
import { FLEET_READER_FLAGS } from '../listen/options';
import { SELECTOR_FLAGS } from '../sessions/selectors';
import { loadPolicy } from './policy-file';
import type { APPROVE_FLAGS } from './queue';

export interface ServeCommand {
  policyFile: string;
  selectors: SessionSelectors;
  state?: string;
  audit?: string;
  metricsAddr?: HostPort;
  escalation?: { kind: 'forward'; url: string; secretFile?: string } | { kind: 'exec'; command: string };
  denyAfterMs?: number;
  maxStreams: number;
  intervalMs: number;
  timeoutMs?: number;
}

/** `svc approve serve`'s flags: its own, then the selectors. */
export const APPROVE_SERVE_FLAGS = flagTable({
  policy: { flags: '--policy <file>', description: 'the policy file (YAML; checked first: one that does not check is exit 2)' },
  state: {
    flags: '--state <file>',
    description: 'where each session stands (one approver per file); a restart answers nothing twice and misses nothing',
  },
  audit: { flags: '--audit <file>', description: 'append one NDJSON line per decision to FILE (default: standard output)' },
  metricsAddr: { flags: '--metrics-addr <host:port>', description: 'serve /metrics (svc_approve_decisions_total{decision,rule}) and /healthz' },
  escalateTo: { flags: '--escalate-to <url>', description: 'POST what the policy leaves to a human to URL, signed as svc listen signs' },
  secretFile: { flags: '--secret-file <file>', description: 'with --escalate-to: the signing secret (default: the one svc listen uses)' },
  escalateExec: { flags: '--escalate-exec <cmd>', description: 'run CMD once for each call left to a human, the JSON on its standard input' },
  denyAfter: { flags: '--deny-after <duration>', description: 'deny, with a message, a call left to a human that no one answered in this long' },
  ...FLEET_READER_FLAGS,
  ...SELECTOR_FLAGS,
});

/** Serve's flags, and those of `svc approve` given after `serve` (commander hands them to the group). */
export type ServeFlags = FlagsOf<typeof APPROVE_SERVE_FLAGS> & FlagsOf<typeof APPROVE_FLAGS>;

export function parseServe(args: string[], f: ServeFlags): ServeCommand {
  if (args.length) throw new UsageError(`svc approve serve takes no arguments (got "${args[0]}"); select sessions with --agent, -l, …`);
  if (f.list || f.readonly) throw new UsageError(`${f.list ? '--list' : '--readonly'} is for the terminal queue (svc approve), not serve`);
  if (f.policy === undefined || String(f.policy).trim() === '')
    throw new UsageError('svc approve serve needs --policy FILE (check it with svc approve lint FILE)');
  oneOf(f, { '--escalate-to': 'escalateTo', '--escalate-exec': 'escalateExec' }, false);
  if (f.secretFile !== undefined && f.escalateTo === undefined)
    throw new UsageError('--secret-file signs --escalate-to deliveries: give it with --escalate-to');
  let escalation: ServeCommand['escalation'];
  if (f.escalateTo !== undefined) escalation = { kind: 'forward', url: httpUrl(String(f.escalateTo)), secretFile: str(f.secretFile) };
  else if (f.escalateExec !== undefined) {
    if (String(f.escalateExec).trim() === '') throw new UsageError('--escalate-exec must not be empty');
    escalation = { kind: 'exec', command: String(f.escalateExec) };
  }
  return {
    policyFile: String(f.policy),
    selectors: approveSelectors(f),
    state: str(f.state),
    audit: str(f.audit),
    metricsAddr: f.metricsAddr === undefined ? undefined : parseHostPort(String(f.metricsAddr), '--metrics-addr'),
    escalation,
    denyAfterMs: f.denyAfter === undefined ? undefined : parseDuration(String(f.denyAfter), '--deny-after'),
    maxStreams: parseCount(String(f.maxStreams ?? 64), '--max-streams', 1, 10_000),
    intervalMs: parseDuration(String(f.interval ?? '2s'), '--interval'),
    timeoutMs: f.timeout === undefined ? undefined : parseDuration(String(f.timeout), '--timeout'),
  };
}

function httpUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw new UsageError(`--escalate-to takes an http:// or https:// URL (got "${text}")`);
  return url.href;
}

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));

export async function runServe(ctx: Ctx, o: ServeCommand): Promise<void> {
  // The policy is checked before anything else: one that does not check answers nothing (exit 2).
  const policy = await loadPolicy(ctx, o.policyFile);
  const client = await ctx.api();
  const notice = (line: string) => void ctx.msg(redact(line));
  const [{ serveApprover }, { approverMetrics, serveApproverMetrics }, { openAuditFile }] = await Promise.all([
    import('../../approve/serve'),
    import('../../approve/metrics'),
    import('../../approve/audit'),
  ]);
  const audit = o.audit === undefined ? undefined : openAuditFile(ctx.io.cwd, o.audit);
  const escalation = await escalationOf(ctx, o);
  const metrics = approverMetrics();
  const server = o.metricsAddr ? await serveApproverMetrics(o.metricsAddr, metrics.registry) : undefined;
  const state = o.state === undefined ? ListenState.memory(ctx.now()) : await ListenState.open(ctx.io, o.state, ctx.now(), notice);
  let chain: Promise<void> = Promise.resolve();
  const record = (line: AuditLine) => {
    if (audit) return audit.write(line);
    chain = chain.then(() => write(ctx.io.stdout, JSON.stringify(line) + '\n'));
  };
  const stop = new AbortController();
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort(), o.timeoutMs);
  const signal = AbortSignal.any([stop.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  try {
    await ctx.msg(
      `approving with ${o.policyFile} (${policy.rules.length} rule${policy.rules.length === 1 ? '' : 's'})${server ? `, metrics on ${server.url}/metrics` : ''} (Ctrl-C to stop)`,
    );
    const summary = await serveApprover(
      { policy, selectors: o.selectors, maxStreams: o.maxStreams, intervalMs: o.intervalMs, denyAfterMs: o.denyAfterMs },
      { client, state, signal, sleep: ctx.sleep, now: ctx.now, random: Math.random, notice, audit: record, metrics, escalation },
    );
    await chain;
    if (summary.pending) await ctx.msg(`${summary.pending} call(s) not settled${o.state ? ' (looked at again after a restart with this --state)' : ''}`);
  } finally {
    clearTimeout(timer);
    await state.close();
    audit?.close();
    await server?.close();
  }
  if (ctx.io.signal?.aborted && ctx.io.signal.reason !== 'SIGTERM') throw new InterruptedError();
}

/** Listen's own destinations, so an escalation is exactly what `svc listen --events session.requires_action` sends. */
async function escalationOf(ctx: Ctx, o: ServeCommand): Promise<Destination | undefined> {
  const e = o.escalation;
  if (!e) return undefined;
  if (e.kind === 'exec') {
    const { execCommand } = await import('../../listen/exec');
    return execCommand({ command: e.command, env: ctx.io.env, cwd: ctx.io.cwd, concurrency: 4, stderr: ctx.io.stderr });
  }
  const [{ loadSecret }, { forwardTo }] = await Promise.all([import('../../listen/secret'), import('../../listen/forward')]);
  const secret = await loadSecret(ctx.io, e.secretFile);
  if (secret.generated) await ctx.msg(`a signing secret was generated in ${secret.path}; give it to the receiver: svc listen --print-secret`);
  return forwardTo({ url: e.url, secret: secret.value, userAgent: USER_AGENT, concurrency: 8, now: ctx.now });
}
