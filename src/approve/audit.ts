/** The audit log of `svc approve serve`: one NDJSON line per decision, appended and written through at once. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../runtime/errors';
import type { AuditLine } from './serve';

export interface AuditLog {
  write(line: AuditLine): void;
  close(): void;
}

/**
 * `--audit FILE`, opened for appending (created private, mode 600) before anything is answered: a path that cannot
 * be written is exit 2. Each line is written with one write(2), so a kill leaves whole lines.
 */
export function openAuditFile(cwd: string, name: string): AuditLog {
  let fd: number;
  try {
    fd = openSync(resolve(cwd, name), 'a', 0o600);
  } catch (e) {
    throw new UsageError(`cannot open --audit ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return {
    write: (line) => void writeSync(fd, JSON.stringify(line) + '\n'),
    close: () => closeSync(fd),
  };
}
