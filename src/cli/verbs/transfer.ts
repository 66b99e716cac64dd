import { accessSync, constants, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ApiClient, RawBody, StreamResponse } from '../../api/client';
import { multipartBody, uploadSource, type UploadSource } from '../../api/upload';
import type { Ctx } from '../../runtime/context';
import { YoungGc } from '../../startup/young-gc';
import { UsageError } from '../../runtime/errors';
import { downloadTarget, dispositionName, saveBody } from '../../output/download';
import { formatBytes, progressFor, type Progress } from '../../output/progress';
import { addFlags, flagTable, type FlagsOf } from '../flags';
import { printsText } from '../text-output';
import { idempotencyKey, unknownOutcome } from './resource';

/** `-O`: where a download goes (docs/behaviour.md `-O FILE`); `-` is stdout. */
export function addOutputFileOption(cmd: Command): Command {
  printsText(cmd, "it writes the file's bytes as they are");
  return addFlags(cmd, OUTPUT_FILE_FLAGS);
}

/** `-O`, declared by addOutputFileOption. */
export const OUTPUT_FILE_FLAGS = flagTable({
  outputFile: { flags: '-O, --output-file <path>', description: "write to this file, or into this directory under the service's file name; - for stdout" },
});

/** A download of one version of a resource (`ID [--version V] [-O PATH]`): plugins, skills, artifacts. */
export interface VersionedDownloadOptions {
  id: string;
  version?: string;
  outputFile?: string;
}

/** The flags of a versioned download (plugins, skills, artifacts download) besides `-O`. */
export const VERSION_FLAGS = flagTable({ version: { flags: '--version <v>', description: 'the version to download' } });
type VersionedDownloadFlags = typeof VERSION_FLAGS & typeof OUTPUT_FILE_FLAGS;

export const parseVersionedDownload = ([id]: string[], flags: FlagsOf<VersionedDownloadFlags>): VersionedDownloadOptions => ({
  id,
  version: flags.version,
  outputFile: flags.outputFile,
});

/** Checks the file to upload before any request: it is a readable regular file within the service's limit. */
export function uploadFile(ctx: Ctx, file: string | undefined, limit: number, what: string): UploadSource {
  if (file === undefined || file === '') throw new UsageError(`give the ${what} to upload`);
  const path = resolve(ctx.io.cwd, file);
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UsageError(`cannot read ${file}: not a regular file`);
    accessSync(path, constants.R_OK);
    size = st.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? (e as Error).message)}`,
    );
  }
  if (size > limit) throw new UsageError(`${file} is ${formatBytes(size)}; the service accepts a ${what} of at most ${formatBytes(limit)}`);
  return uploadSource(path, size);
}

/**
 * Sends one multipart upload with its Idempotency-Key (`--idempotency-key` or a fresh UUID) and a
 * progress bar on a terminal; `send` receives the re-openable body and the key.
 */
export async function upload<T>(
  ctx: Ctx,
  opts: { idempotencyKey?: unknown },
  src: UploadSource,
  fields: Record<string, string | undefined>,
  send: (c: ApiClient, body: RawBody, key: string) => Promise<T>,
  /** The command that shows whether a failed upload was applied after all (none for what stores nothing). */
  check?: string,
): Promise<T> {
  const meter = new Meter(progressFor(ctx.io.stderr, { label: `upload ${src.filename}`, total: src.size, now: ctx.now, accessible: ctx.settings.accessible }));
  const key = idempotencyKey(opts);
  const c = await ctx.api();
  try {
    const sent = send(c, multipartBody(fields, src, key, meter), key);
    return await (check ? unknownOutcome(sent, check, key) : sent);
  } finally {
    meter.finish();
  }
}

/** Downloads one body per `-O` (target checked before the request) with a progress bar on a terminal. */
export async function download(ctx: Ctx, opts: { outputFile?: string }, fallbackName: string, fetch: (c: ApiClient) => Promise<StreamResponse>): Promise<void> {
  const target = downloadTarget(opts.outputFile, ctx.io.cwd, ctx.io.stdout);
  const res = await fetch(await ctx.api());
  const length = res.headers['content-length'];
  const name = dispositionName(res.headers['content-disposition']) ?? fallbackName;
  const meter = new Meter(
    progressFor(ctx.io.stderr, {
      label: `download ${name}`,
      total: length === undefined ? undefined : Number(length),
      now: ctx.now,
      accessible: ctx.settings.accessible,
    }),
  );
  const saved = await saveBody(res, target, { stdout: ctx.io.stdout, fallbackName, meter });
  if (saved.path) await ctx.msg(`saved ${formatBytes(saved.bytes)} to ${shown(ctx, saved.path)}`);
}

function shown(ctx: Ctx, path: string): string {
  const rel = relative(ctx.io.cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** Counts transfer bytes for the progress bar (terminal only) and the memory relief (always). */
class Meter {
  private readonly relief = new YoungGc();
  constructor(private readonly progress?: Progress) {}
  restart(): void {
    this.progress?.restart();
  }
  bytes(n: number): void {
    this.progress?.bytes(n);
    this.relief.bytes(n);
  }
  finish(): void {
    this.progress?.finish();
  }
}
