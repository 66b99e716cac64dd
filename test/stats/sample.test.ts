import { describe, expect, it } from 'vitest';
import { percentiles, Sample } from '../../src/stats/sample';

describe('stats sample', () => {
  it('is exact (nearest rank) up to 256 values, and within 1 % after, in a bounded number of buckets', () => {
    const few = new Sample();
    for (const v of [5, 1, 4, 2, 3]) few.add(v);
    expect(percentiles(few)).toEqual({ p50: 3, p95: 5 });
    const many = new Sample();
    for (let i = 1; i <= 100_000; i++) many.add(i);
    const p = percentiles(many)!;
    expect(Math.abs(p.p50 - 50_000) / 50_000).toBeLessThan(0.01);
    expect(Math.abs(p.p95 - 95_000) / 95_000).toBeLessThan(0.01);
    expect(Object.keys(many.data().b!).length).toBeLessThan(600);
  });

  it('merges across sessions as if the values had come in one sample', () => {
    const a = new Sample();
    const b = new Sample();
    for (let i = 1; i <= 200; i++) a.add(i);
    for (let i = 201; i <= 400; i++) b.add(i);
    const m = Sample.from(a.data());
    m.merge(b.data());
    expect(m.count).toBe(400);
    const p = percentiles(m)!;
    expect(Math.abs(p.p50 - 200) / 200).toBeLessThan(0.01);
    expect(percentiles(new Sample())).toBeNull();
  });
});
