/**
 * How svc reaches the network: the proxy a URL goes through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, as curl reads them)
 * and the certificates it trusts beside Node's own (SVC_CA_FILE or a profile's ca_file). Pure but for reading the CA
 * file; the connections themselves are http.ts's. The decisions: docs/decisions/network.md.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, UsageError } from '../runtime/errors';
import { addSecret, maskUrlPassword } from '../text/redact';

type Env = Record<string, string | undefined>;

/** What every request of a run shares: the proxy variables, and the extra certificates, if any. */
export interface Network {
  /** The environment the proxy variables are read from (a test's own, or the process's). */
  readonly env: Env;
  /** PEM certificates trusted beside Node's default ones (which hold NODE_EXTRA_CA_CERTS). */
  readonly ca?: { readonly file: string; readonly pems: readonly string[] };
}

let fromProcess: Network | undefined;

/** The network given, or the process's environment alone (no extra certificates). */
export const networkOr = (network: Network | undefined): Network => network ?? (fromProcess ??= { env: process.env });

/** A proxy chosen for a URL: its URL, and the variable it came from (for messages). */
export interface Proxy {
  url: URL;
  variable: string;
}

/** The variable that names the proxy of a URL's scheme: the lower-case one when set, as curl reads them. */
function proxyVariable(protocol: string, env: Env): { variable: string; value: string } | undefined {
  const upper = protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  for (const variable of [upper.toLowerCase(), upper]) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

/**
 * The proxy `url` goes through, or undefined for a direct connection: HTTPS_PROXY for https: URLs, HTTP_PROXY for
 * http: URLs (never one for the other), unless NO_PROXY names the host. Loopback is proxied like any host unless
 * NO_PROXY names it (curl does the same). A proxy URL svc cannot use is exit 2, naming the variable.
 */
export function proxyFor(url: URL, env: Env): Proxy | undefined {
  const named = proxyVariable(url.protocol, env);
  if (!named || bypassed(url, env.no_proxy?.trim() || env.NO_PROXY?.trim() || '')) return undefined;
  // A proxy without a scheme is an HTTP proxy (curl's reading).
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(named.value) ? named.value : `http://${named.value}`;
  let proxy: URL;
  try {
    proxy = new URL(text);
  } catch {
    throw new UsageError(`${named.variable} ${JSON.stringify(maskUrlPassword(text))} is not a valid proxy URL`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:')
    throw new UsageError(`${named.variable} ${JSON.stringify(shownProxy(proxy))} is not an http(s) proxy: svc speaks to HTTP proxies only`);
  addSecret(decodeURIComponent(proxy.password));
  return { url: proxy, variable: named.variable };
}

/** ` via proxy URL` (password masked) for a debug line of a request to `url`, or nothing for a direct one. */
export function viaProxy(url: string, network: Network | undefined): string {
  const proxy = proxyFor(new URL(url), networkOr(network).env);
  return proxy ? ` via proxy ${shownProxy(proxy.url)}` : '';
}

/** Whether NO_PROXY (comma- or space-separated hosts, `.domain`, `*.domain`, `host:port`, or `*`) names the URL's host. */
function bypassed(url: URL, noProxy: string): boolean {
  if (!noProxy) return false;
  const host = bare(url.hostname.toLowerCase());
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  for (const raw of noProxy.split(/[\s,]+/)) {
    if (!raw) continue;
    if (raw === '*') return true;
    const { host: named, port: only } = noProxyEntry(raw);
    if (only !== undefined && only !== port) continue;
    const entry = named.toLowerCase().replace(/^\*?\./, '');
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/** A NO_PROXY entry's host and port: `host`, `host:port`, `[v6]`, `[v6]:port` or a bare `v6` (no port). */
function noProxyEntry(raw: string): { host: string; port?: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (v6) return { host: v6[1], port: v6[2] === undefined ? undefined : Number(v6[2]) };
  const m = /^([^:]+):(\d+)$/.exec(raw);
  return m ? { host: m[1], port: Number(m[2]) } : { host: raw };
}

/** An IPv6 literal without its brackets. */
const bare = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** A proxy as messages show it: scheme, host and port, with the password masked. */
export function shownProxy(proxy: URL): string {
  return maskUrlPassword(proxy.href.replace(/\/$/, ''));
}

/** Where Node's default certificates are, so a CA file adds to them rather than replaces them. */
function defaultCertificates(env: Env): string[] {
  const tls = process.getBuiltinModule('node:tls') as typeof import('node:tls') & { getCACertificates?: (kind: string) => string[] };
  // Node 22.15+: the default store, NODE_EXTRA_CA_CERTS (and the system's, with --use-system-ca) included.
  if (tls.getCACertificates) return tls.getCACertificates('default');
  const extra = env.NODE_EXTRA_CA_CERTS ? pemsIn(readQuietly(env.NODE_EXTRA_CA_CERTS)) : [];
  return [...tls.rootCertificates, ...extra];
}

function readQuietly(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Node itself warned at start-up that it could not read NODE_EXTRA_CA_CERTS.
    return '';
  }
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const pemsIn = (text: string): string[] => text.match(PEM) ?? [];

/**
 * The certificates of a CA file (PEM, one or more), each checked: an unreadable file, one with no certificate or a
 * certificate that does not parse is exit 2, naming where the file was set. `where`: `SVC_CA_FILE`, `ca_file of …`.
 */
export function readCaFile(file: string, where: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${where} ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const pems = pemsIn(text);
  if (pems.length === 0) throw new ConfigError(`${where} ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  const { X509Certificate } = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  pems.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch (e) {
      throw new ConfigError(`${where} ${file}: certificate ${i + 1} cannot be parsed (${(e as Error).message})`);
    }
  });
  return pems;
}

/** The `ca` of TLS connections when a CA file is set: Node's defaults and the file's; undefined leaves Node's alone. */
export function trustedCertificates(network: Network): string[] | undefined {
  return network.ca && [...defaultCertificates(network.env), ...network.ca.pems];
}
