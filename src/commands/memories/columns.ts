import type { Column } from '../../output/table';
import type { Memory, MemoryVersion } from '../../wire/resources';
import { age } from '../../output/age';

export const MEMORY_COLUMNS: Column<Memory>[] = [
  { header: 'ID', get: (m) => m.id },
  { header: 'PATH', get: (m) => m.path },
  { header: 'SIZE', get: (m) => m.content_size_bytes },
  { header: 'VERSION', get: (m) => m.current_version_id },
  { header: 'UPDATED', get: (m) => age(m.updated_at) },
  { header: 'SHA256', get: (m) => m.content_sha256, wide: true },
  { header: 'CREATED', get: (m) => age(m.created_at), wide: true },
];

export const VERSION_COLUMNS: Column<MemoryVersion>[] = [
  { header: 'ID', get: (v) => v.id },
  { header: 'OPERATION', get: (v) => v.operation },
  { header: 'SEQUENCE', get: (v) => v.sequence },
  { header: 'SOURCE', get: (v) => v.source },
  { header: 'SIZE', get: (v) => v.content_size_bytes },
  { header: 'CREATED', get: (v) => age(v.created_at) },
  { header: 'REDACTED', get: (v) => age(v.redacted_at) },
  { header: 'PATH', get: (v) => v.path },
];

/** A table shows a memory or version without its body (`svc memories cat` prints that); other formats keep every member. */
export function forDisplay(format: string, jq: string | undefined, obj: Record<string, unknown>): Record<string, unknown> {
  if (format !== 'table' || jq) return obj;
  const { content: _c, content_base64: _b, ...rest } = obj;
  return rest;
}
