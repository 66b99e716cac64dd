import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configDir, type Env } from '../config/paths';
import { ConfigError, UsageError } from '../runtime/errors';
import { atomicWriteSync } from '../fs/atomic-write';
import { cannotRead, readInputFile } from '../input/read';
import type { Io } from '../runtime/io';
import { addSecret } from '../text/redact';

/** Where the generated signing secret lives, beside the config file. */
export const SECRET_FILE_NAME = 'listen-secret';
/** A secret file holds one line; anything longer is not one (svc's own limit). */
const MAX_SECRET_BYTES = 4096;
const MIN_SECRET_LENGTH = 16;

export interface Secret {
  value: string;
  /** The file it came from. */
  path: string;
  /** Made by this run (the receiver needs it: `--print-secret`). */
  generated: boolean;
}

export const generatedSecretPath = (env: Env): string => join(configDir(env), SECRET_FILE_NAME);

/**
 * The signing secret: `--secret-file`, else the one svc generated in the config folder (made on first use, 0600,
 * created exclusively so two listeners starting at once agree on one). Registered with the redaction at once, so no
 * output, log or error of this run can show it.
 */
export async function loadSecret(io: Pick<Io, 'env' | 'cwd' | 'signal'>, secretFile?: string): Promise<Secret> {
  if (secretFile !== undefined) {
    const what = `--secret-file ${secretFile}`;
    let st: Stats;
    try {
      st = await stat(resolve(io.cwd, secretFile));
    } catch (e) {
      throw cannotRead(secretFile, e);
    }
    // A pipe (`<(vault read …)`) is the user's own; a file others can read is not a secret any more.
    if (st.isFile()) privateOnly(st, what, secretFile, UsageError);
    const text = (
      await readInputFile(secretFile, io.cwd, { what: secretFile, limit: MAX_SECRET_BYTES, signal: io.signal, localLimitOf: 'a signing secret' })
    ).toString('utf8');
    const value = secretOf(text, what, UsageError);
    addSecret(value);
    return { value, path: secretFile, generated: false };
  }
  const path = generatedSecretPath(io.env);
  const { ensureFolder } = await import('../config/folder');
  ensureFolder(configDir(io.env));
  const made = 'svcwh_' + randomBytes(32).toString('base64url');
  addSecret(made);
  // Created exclusively, whole: a second listener starting at once never reads a half-written file, and takes the
  // first one's secret.
  try {
    atomicWriteSync(path, made + '\n', { exclusive: true, fsync: true });
    return { value: made, path, generated: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotUse(path, e);
  }
  return { value: readGenerated(path), path, generated: false };
}

function readGenerated(path: string): string {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new ConfigError(`signing secret ${path} is not a regular file; remove it to generate a new one`);
      privateOnly(st, `signing secret ${path}`, path, ConfigError);
      if (st.size > MAX_SECRET_BYTES)
        throw new ConfigError(
          `signing secret ${path} is larger than ${MAX_SECRET_BYTES} bytes, svc's own limit for a signing secret; remove it to generate a new one`,
        );
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw cannotUse(path, e);
  }
  const value = secretOf(text, `signing secret ${path}`, ConfigError);
  addSecret(value);
  return value;
}

type Refusal = new (message: string) => Error;

/** One rule for every secret file: no one but its owner may read it (the mode of a file `chmod 600` gives). */
function privateOnly(st: Stats, what: string, path: string, Err: Refusal): void {
  if ((st.mode & 0o077) !== 0) throw new Err(`${what} is readable by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 ${path}`);
}

/**
 * The key a secret file holds: its one line, without the line's end (one `\n` or `\r\n`), which is not part of the
 * key. Anything else that a receiver might read differently is refused: more lines, white space around the key.
 */
export function secretOf(text: string, what: string, Err: Refusal): string {
  const value = text.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(value)) throw new Err(`${what} holds more than one line; a secret file holds the secret alone, on one line`);
  if (value !== value.trim()) throw new Err(`${what} has white space around the secret; a receiver may read it differently, so remove it`);
  if (value.length < MIN_SECRET_LENGTH) throw new Err(`${what} holds ${value ? `a secret shorter than ${MIN_SECRET_LENGTH} characters` : 'no secret'}`);
  return value;
}

const cannotUse = (path: string, e: unknown) =>
  new ConfigError(`cannot use signing secret ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
