import { serveHttp, type HostPort, type HttpStatusServer } from '../net/serve-http';
import { PROMETHEUS_CONTENT_TYPE } from './prom-text';
import type { WorkerStatus } from './status';

const TEXT = 'text/plain; charset=utf-8';

/** `--metrics-addr`: `/metrics` (Prometheus text), `/healthz` (the event loop answers), `/readyz` (polling works). */
export function serveWorkerStatus(at: HostPort, status: WorkerStatus): Promise<HttpStatusServer> {
  return serveHttp(at, (path) => {
    switch (path) {
      case '/metrics':
        return { status: 200, type: PROMETHEUS_CONTENT_TYPE, body: status.registry.text() };
      case '/healthz':
        // Answering at all proves the event loop turns.
        return { status: 200, type: TEXT, body: 'ok\n' };
      case '/readyz': {
        const r = status.readiness();
        return { status: r.ready ? 200 : 503, type: TEXT, body: `${r.reason}\n` };
      }
    }
  });
}
