import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors';
import { isObject } from '../is-object';

/** Where a secret comes from: `{env: NAME}` or `{file: PATH}` (relative to the document's folder). */
export type ValueFrom = { env: string } | { file: string };

/** Checks a `value_from` before any request; returns it typed. */
export function checkValueFrom(v: unknown, where: string): ValueFrom {
  const ok = isObject(v) && Object.keys(v).length === 1 && (typeof v.env === 'string' || typeof v.file === 'string');
  if (!ok) throw new UsageError(`${where}: value_from must be {env: NAME} or {file: PATH}`);
  return v as ValueFrom;
}

/** `env DEPLOY_TOKEN` / `file token.txt`: how the plan names a secret without its value. */
export const sourceOf = (v: ValueFrom): string => ('env' in v ? `env ${v.env}` : `file ${v.file}`);

/** The secret's value, read only when it is to be sent; the value never appears in a message. */
export function readSecret(v: ValueFrom, where: string, env: Record<string, string | undefined>, dir: string): string {
  if ('env' in v) {
    const value = env[v.env];
    if (value === undefined || value === '') throw new UsageError(`${where}: value_from env ${v.env} is not set`);
    return value;
  }
  try {
    // A trailing newline is the editor's, not the secret's.
    return readFileSync(resolve(dir, v.file), 'utf8').replace(/\r?\n$/, '');
  } catch (e) {
    throw new UsageError(`${where}: cannot read value_from file ${v.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** A map whose values may be `{value_from}` (MCP headers): true when any is. */
export const hasValueFrom = (m: unknown): boolean => isObject(m) && Object.values(m).some((v) => isObject(v) && 'value_from' in v);

/** The map with every `{value_from}` value read. */
export function readSecretMap(m: Record<string, unknown>, where: string, env: Record<string, string | undefined>, dir: string): Record<string, unknown> {
  // The member named as `headers["Authorization"]`: `Authorization: …` would read as a quoted header, which error lines redact.
  const at = (k: string) => `${where}[${JSON.stringify(k)}]`;
  return Object.fromEntries(
    Object.entries(m).map(([k, v]) => [k, isObject(v) && 'value_from' in v ? readSecret(checkValueFrom(v.value_from, at(k)), at(k), env, dir) : v]),
  );
}
