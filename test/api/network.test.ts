// Which proxy a URL goes through (src/api/network.ts, docs/decisions/network.md): the variables as curl reads them.
import { describe, expect, it } from 'vitest';
import { proxyFor, readCaFile } from '../../src/api/network';
import { TEST_CA_FILE } from '../helpers/tls-front';

const via = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.url.href;

describe('proxyFor', () => {
  it('each scheme has its own variable, the lower-case one winning; an empty one counts as unset', () => {
    const env = { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://plain:3' };
    expect(via('https://api.example.com/v1', env)).toBe('http://lower:2/');
    expect(via('http://api.example.com/v1', env)).toBe('http://plain:3/');
    expect(via('https://api.example.com/v1', { HTTP_PROXY: 'http://plain:3' })).toBeUndefined();
    expect(via('https://api.example.com/v1', { https_proxy: '', HTTPS_PROXY: 'http://upper:1' })).toBe('http://upper:1/');
    expect(proxyFor(new URL('https://a.example'), env)?.variable).toBe('https_proxy');
  });

  it('a proxy without a scheme is an HTTP proxy', () => {
    expect(via('https://a.example', { HTTPS_PROXY: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
  });

  it('NO_PROXY: hosts and their subdomains, leading dots and stars, ports, IPv6, `*`; no_proxy wins', () => {
    const p = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    const direct = (url: string, noProxy: string, key = 'NO_PROXY') => via(url, { ...p, [key]: noProxy }) === undefined;
    expect(direct('https://api.example.com', 'example.com')).toBe(true);
    expect(direct('https://api.example.com', '.example.com')).toBe(true);
    expect(direct('https://api.example.com', '*.example.com')).toBe(true);
    expect(direct('https://example.com', 'other.com, example.com')).toBe(true);
    expect(direct('https://notexample.com', 'example.com')).toBe(false);
    expect(direct('http://127.0.0.1:4010', '127.0.0.1:4010')).toBe(true);
    expect(direct('http://127.0.0.1:4011', '127.0.0.1:4010')).toBe(false);
    expect(direct('https://a.example', 'a.example:443')).toBe(true);
    expect(direct('http://[::1]:4010', '::1')).toBe(true);
    expect(direct('http://[::1]:4010', '[::1]:4010')).toBe(true);
    expect(direct('http://anything', '*')).toBe(true);
    expect(direct('http://API.Example.com', 'api.example.COM')).toBe(true);
    expect(via('http://a.example', { ...p, no_proxy: 'b.example', NO_PROXY: 'a.example' })).toBe('http://p:1/');
  });

  it('loopback is proxied unless NO_PROXY names it', () => {
    expect(via('http://127.0.0.1:4010', { HTTP_PROXY: 'http://p:1' })).toBe('http://p:1/');
    expect(via('http://localhost:4010', { HTTP_PROXY: 'http://p:1' })).toBe('http://p:1/');
  });

  it('a proxy URL svc cannot use is exit 2 naming the variable, its password masked', () => {
    expect(() => via('https://a.example', { HTTPS_PROXY: 'http://u:pw-secret@[bad' })).toThrow(
      /^HTTPS_PROXY "http:\/\/u:\*\*\*@\[bad" is not a valid proxy URL$/,
    );
  });
});

describe('readCaFile', () => {
  it('returns each certificate of a PEM file', () => {
    expect(readCaFile(TEST_CA_FILE, 'SVC_CA_FILE')).toHaveLength(1);
  });
});
