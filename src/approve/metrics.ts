/** `svc approve serve --metrics-addr`: the approver's counters on /metrics (Prometheus text), as the worker serves its own. */
import { serveHttp, type HostPort, type HttpStatusServer } from '../net/serve-http';
import { PROMETHEUS_CONTENT_TYPE, Registry } from '../worker/prom-text';
import type { ApproverMetrics } from './serve';

export function approverMetrics(): ApproverMetrics & { registry: Registry } {
  const registry = new Registry();
  const decisions = registry.counter(
    'svc_approve_decisions_total',
    'Calls decided by this approver: decision allow, deny, ask, ignore or none (no rule), and the rule',
    ['decision', 'rule'],
  );
  const elsewhere = registry.counter('svc_approve_answered_elsewhere_total', 'Calls another approver or a human answered first');
  return {
    registry,
    decided: (decision, rule) => decisions.inc({ decision, rule: rule ?? '' }),
    answeredElsewhere: () => elsewhere.inc(),
  };
}

export function serveApproverMetrics(at: HostPort, registry: Registry): Promise<HttpStatusServer> {
  return serveHttp(at, (path) => {
    if (path === '/metrics') return { status: 200, type: PROMETHEUS_CONTENT_TYPE, body: registry.text() };
    if (path === '/healthz') return { status: 200, type: 'text/plain; charset=utf-8', body: 'ok\n' };
    return undefined;
  });
}
