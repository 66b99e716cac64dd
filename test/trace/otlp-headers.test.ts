import { describe, expect, it } from 'vitest';
import { parseOtlpHeaders } from '../../src/trace/export';

describe('OTEL_EXPORTER_OTLP_HEADERS', () => {
  it('reads k=v pairs, URL-decoded and trimmed, names lower-cased, a malformed pair skipped', () => {
    expect(parseOtlpHeaders(' Authorization = Basic%20abc ,x-team=infra,broken,=v')).toEqual({ authorization: 'Basic abc', 'x-team': 'infra' });
  });

  it('keeps a header named __proto__ or constructor as an own member, like any other name', () => {
    const h = parseOtlpHeaders('__proto__=a,constructor=b');
    expect(Object.keys(h)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(h)).toBe(Object.prototype);
  });
});
