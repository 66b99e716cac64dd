import { expect } from 'vitest';
import { svc } from './cli';

/** `svc __complete -- WORDS…` with `env`: the candidates as [value, label] pairs; completion never prints an error. */
export async function complete(words: string[], env: Record<string, string | undefined>): Promise<string[][]> {
  const r = await svc(['__complete', '--', ...words], { env });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout
    ? r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t'))
    : [];
}
