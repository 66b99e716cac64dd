import { createHash } from 'node:crypto';
import { LIMITS } from '../../wire/limits';
import { fail, invalidParam, notFound, precondition } from '../errors';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import { listReply, nowIso, publicView, type Rec } from '../store';
import { listNewest, newestFirst } from '../listing';
import { validate, type Schema } from '../validate';
import { mergeMetadata } from '../metadata';

type Store = Rec & { name: string; description: string; archived_at: string | null };
type Memory = Rec & {
  memory_store_id: string;
  path: string;
  content_sha256: string;
  content_size_bytes: number;
  current_version_id: string;
  _body: string;
  _sequence: number;
  _deleted: boolean;
};
type Operation = 'created' | 'modified' | 'deleted' | 'renamed';
/** Who made a change: the API, or a session (then `session_id` names it). */
type Source = { source: 'api' } | { source: 'session'; session_id: string };
type Version = Rec & { memory_store_id: string; memory_id: string; path: string; operation: Operation; content_base64?: string; redacted_at?: string };

/**
 * Assumption (docs/service.md common shapes: `metadata` is a string→string map): stores carry `metadata` as the
 * other resources do, though the spec's store table names only name and description (`svc apply` labels by it).
 */
const STORE_SCHEMA: Schema = { name: { type: 'string', required: true, maxLength: 255 }, description: { type: 'string' }, metadata: { type: 'map' } };
const PATH = { type: 'string' as const, pattern: /^[^\0]{1,1024}$/ };
const WRITE_SCHEMA: Schema = {
  path: { ...PATH, required: true },
  content: { type: 'string' },
  content_base64: { type: 'string' },
  /**
   * Emulator assumption: the version the write was based on. When it is no longer the current one the
   * write arrived out of order: it is recorded as a version (without `sequence`) and never becomes current.
   */
  base_version_id: { type: 'string' },
};
const writeOpts = { bodyLimit: LIMITS.memoryWriteBody, idempotent: true };

/** The body of a write: `content` (UTF-8 text) or `content_base64`, not both. */
function bodyOf(b: Record<string, any>, required: boolean): Buffer | undefined {
  if (b.content !== undefined && b.content_base64 !== undefined) invalidParam('body.content_base64', 'send content or content_base64, not both');
  if (b.content !== undefined) return Buffer.from(b.content, 'utf8');
  if (b.content_base64 !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b.content_base64) || b.content_base64.length % 4 !== 0)
      invalidParam('body.content_base64', 'content_base64 is not base64');
    return Buffer.from(b.content_base64, 'base64');
  }
  return required ? invalidParam('body.content', 'content or content_base64 is required') : undefined;
}

function memoryView(m: Memory, withBody: boolean): Record<string, unknown> {
  const { _body, ...rest } = m;
  if (!withBody) return publicView(rest);
  const bytes = Buffer.from(_body, 'base64');
  const text = bytes.toString('utf8');
  // `content` only when the bytes are text; `content_base64` always.
  return { ...publicView(rest), ...(Buffer.from(text, 'utf8').equals(bytes) ? { content: text } : {}), content_base64: _body };
}

/** A version as the API shows it: no `updated_at` (versions are immutable records). */
const versionView = (v: Version): Record<string, unknown> => {
  const { updated_at: _, ...rest } = publicView(v);
  return rest;
};

/** The memory module's state and the one write path shared by the API and by sessions. */
class Memories {
  readonly stores;
  readonly memories;
  readonly versions;

  constructor(emu: Emulator) {
    this.stores = emu.collection<Store>('memory_stores', 'memstore', 'memory store');
    this.memories = emu.collection<Memory>('memories', 'mem', 'memory');
    this.versions = emu.collection<Version>('memory_versions', 'memver', 'memory version');
  }

  writableStore(id: string): Store {
    const s = this.stores.must(id);
    return s.archived_at ? precondition(`memory store ${id} is archived`) : s;
  }

  memory(storeId: string, id: string): Memory {
    const m = this.memories.get(id);
    return m && !m._deleted && m.memory_store_id === storeId ? m : notFound('memory', id);
  }

  /** Any memory of the store, deleted ones included, for its version history. */
  history(storeId: string, id: string): Memory {
    const m = this.memories.get(id);
    return m && m.memory_store_id === storeId ? m : notFound('memory', id);
  }

  assertPathFree(storeId: string, path: string, except?: string): void {
    const taken = this.memories.values().some((m) => m.memory_store_id === storeId && !m._deleted && m.path === path && m.id !== except);
    if (taken) fail('conflict_error', `a memory at ${path} exists in this store`);
  }

  create(store: Store, path: string, body: Buffer, src: Source): Memory {
    this.assertPathFree(store.id, path);
    const m = this.memories.insert({
      memory_store_id: store.id,
      path,
      content_sha256: '',
      content_size_bytes: 0,
      current_version_id: '',
      _body: '',
      _sequence: 0,
      _deleted: false,
    });
    this.apply(m, 'created', path, body, src);
    return m;
  }

  /** A change to an existing memory; `body` undefined keeps the content, `null` deletes the file. */
  change(m: Memory, path: string, body: Buffer | null | undefined, src: Source, baseVersionId?: string): void {
    const current = Buffer.from(m._body, 'base64');
    const moved = path !== m.path && (body === undefined || (body !== null && current.equals(body)));
    const operation: Operation = body === null ? 'deleted' : moved ? 'renamed' : 'modified';
    const next = body === undefined ? current : body;
    if (baseVersionId !== undefined && baseVersionId !== m.current_version_id) {
      this.record(m, operation, path, next ?? undefined, src, false);
      return;
    }
    if (path !== m.path && body !== null) this.assertPathFree(m.memory_store_id, path, m.id);
    this.apply(m, operation, path, next ?? undefined, src);
  }

  private apply(m: Memory, operation: Operation, path: string, body: Buffer | undefined, src: Source): void {
    const v = this.record(m, operation, path, body, src, true);
    const content = body ? { _body: body.toString('base64'), content_sha256: sha256(body), content_size_bytes: body.length } : {};
    this.memories.touch(m, { path, current_version_id: v.id, _deleted: operation === 'deleted', ...content } as Partial<Memory>);
  }

  private record(m: Memory, operation: Operation, path: string, body: Buffer | undefined, src: Source, current: boolean): Version {
    return this.versions.insert({
      memory_store_id: m.memory_store_id,
      memory_id: m.id,
      path,
      operation,
      ...src,
      // The historical body, hash and size are absent on deletion (Memory version).
      ...(operation !== 'deleted' && body ? { content_base64: body.toString('base64'), content_sha256: sha256(body), content_size_bytes: body.length } : {}),
      // `sequence` counts the versions that were ever current; an out-of-order write has none.
      ...(current ? { sequence: ++m._sequence } : {}),
    });
  }

  redact(m: Memory, versionId: string): Version {
    const found = this.versions.get(versionId);
    const v = found && found.memory_id === m.id ? found : notFound('memory version', versionId);
    if (v.id === m.current_version_id) precondition('the current version of a memory cannot be redacted');
    if (!v.redacted_at) {
      delete v.content_base64;
      v.redacted_at = nowIso();
    }
    return v;
  }
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

const modules = new WeakMap<Emulator, Memories>();

/** A session's write to a memory file (source `session`), for the sessions module. */
export function writeMemoryFromSession(
  emu: Emulator,
  storeId: string,
  path: string,
  body: Buffer | null,
  sessionId: string,
  baseVersionId?: string,
): Record<string, unknown> {
  const mem = modules.get(emu)!;
  const store = mem.writableStore(storeId);
  const src: Source = { source: 'session', session_id: sessionId };
  const existing = mem.memories.values().find((m) => m.memory_store_id === storeId && !m._deleted && m.path === path);
  if (!existing) return memoryView(mem.create(store, path, body ?? invalidParam('body', 'no memory to delete'), src), false);
  mem.change(existing, path, body, src, baseVersionId);
  return memoryView(existing, false);
}

export function registerMemory(emu: Emulator): void {
  const mem = new Memories(emu);
  modules.set(emu, mem);
  const { stores, memories, versions } = mem;
  const storeOf = (r: EmuRequest) => stores.must(r.params.id);
  const nameTaken = (name: string, except?: string) => {
    // Unique across active and archived stores (Memory store; docs/service.md: duplicate name on create is 409).
    if (stores.values().some((s) => s.name === name && s.id !== except)) fail('conflict_error', `a memory store named ${name} exists`);
  };

  emu.router.post(
    '/v1/memory-stores',
    (r) => {
      const body = validate(r.body, STORE_SCHEMA);
      nameTaken(body.name);
      return { status: 201, body: publicView(stores.insert({ description: '', metadata: {}, ...body, name: body.name, archived_at: null })) };
    },
    { idempotent: true },
  );

  emu.router.get('/v1/memory-stores', (r) => listNewest(stores, r.query, { timeFilters: true }));
  emu.router.get('/v1/memory-stores/:id', (r) => ({ status: 200, body: publicView(storeOf(r)) }));

  emu.router.patch('/v1/memory-stores/:id', (r) => {
    const s = storeOf(r);
    const body = validate(r.body, STORE_SCHEMA, { patch: true });
    mergeMetadata(body, s.metadata);
    if (Object.keys(body).length === 0) fail('invalid_request_error', 'an update needs name, description or metadata');
    if (s.archived_at) precondition(`memory store ${s.id} is archived`);
    if (body.name !== undefined) nameTaken(body.name, s.id);
    return { status: 200, body: publicView(stores.touch(s, body as Partial<Store>)) };
  });

  emu.router.post(
    '/v1/memory-stores/:id/archive',
    (r) => {
      return { status: 200, body: publicView(stores.archive(storeOf(r))) };
    },
    { body: 'none' },
  );

  emu.router.delete('/v1/memory-stores/:id', (r) => {
    const s = storeOf(r);
    for (const m of memories.values()) if (m.memory_store_id === s.id) memories.delete(m.id);
    for (const v of versions.values()) if (v.memory_store_id === s.id) versions.delete(v.id);
    stores.delete(s.id);
    return { status: 204 };
  });

  emu.router.post(
    '/v1/memory-stores/:id/memories',
    (r) => {
      const store = mem.writableStore(r.params.id);
      const body = validate(r.body, WRITE_SCHEMA);
      if (body.base_version_id !== undefined) invalidParam('body.base_version_id', 'a new memory has no base version');
      return { status: 201, body: memoryView(mem.create(store, body.path, bodyOf(body, true)!, { source: 'api' }), true) };
    },
    writeOpts,
  );

  emu.router.get('/v1/memory-stores/:id/memories', (r) => {
    storeOf(r);
    const items = memories.values().filter((m) => m.memory_store_id === r.params.id && !m._deleted);
    return listReply(newestFirst(items), r.query, (m) => memoryView(m, false));
  });

  emu.router.get('/v1/memory-stores/:id/memories/:memory_id', (r) => ({ status: 200, body: memoryView(mem.memory(r.params.id, r.params.memory_id), true) }));

  emu.router.patch(
    '/v1/memory-stores/:id/memories/:memory_id',
    (r) => {
      mem.writableStore(r.params.id);
      const m = mem.memory(r.params.id, r.params.memory_id);
      const body = validate(r.body, WRITE_SCHEMA, { patch: true });
      const content = bodyOf(body, false);
      if (body.path === undefined && content === undefined) fail('invalid_request_error', 'an update needs path, content or content_base64');
      mem.change(m, body.path ?? m.path, content, { source: 'api' }, body.base_version_id);
      return { status: 200, body: memoryView(m, true) };
    },
    { bodyLimit: LIMITS.memoryWriteBody },
  );

  emu.router.delete('/v1/memory-stores/:id/memories/:memory_id', (r) => {
    mem.writableStore(r.params.id);
    const m = mem.memory(r.params.id, r.params.memory_id);
    mem.change(m, m.path, null, { source: 'api' });
    return { status: 204 };
  });

  emu.router.get('/v1/memory-stores/:id/memories/:memory_id/versions', (r) => {
    const m = mem.history(r.params.id, r.params.memory_id);
    return listReply(newestFirst(versions.values().filter((v) => v.memory_id === m.id)), r.query, versionView);
  });

  emu.router.get('/v1/memory-stores/:id/memories/:memory_id/versions/:version_id', (r) => {
    const m = mem.history(r.params.id, r.params.memory_id);
    const v = versions.get(r.params.version_id);
    return { status: 200, body: versionView(v && v.memory_id === m.id ? v : notFound('memory version', r.params.version_id)) };
  });

  emu.router.post(
    '/v1/memory-stores/:id/memories/:memory_id/versions/:version_id/redact',
    (r) => {
      const m = mem.history(r.params.id, r.params.memory_id);
      return { status: 200, body: versionView(mem.redact(m, r.params.version_id)) };
    },
    { body: 'none' },
  );
}
