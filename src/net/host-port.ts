import { UsageError } from '../runtime/errors';

/** Where a small status server listens (`--metrics-addr`, `work stats --serve`). */
export interface HostPort {
  host: string;
  port: number;
}

/** `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (every interface); port 0 picks a free one. Exit 2 otherwise. */
export function parseHostPort(raw: string, flag: string): HostPort {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(raw.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`${flag} takes HOST:PORT (e.g. 127.0.0.1:9090, :9090, [::1]:9090; port 0 picks a free one), got "${raw}"`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}
