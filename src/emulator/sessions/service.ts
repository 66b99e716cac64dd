// The sessions' service: records, runtimes and the rules of create, update, delete and send, apart from the HTTP
// routes (resources/sessions.ts) so triggers, the work queue and tests use the same code.
import { isDeepStrictEqual } from 'node:util';
import { LIMITS } from '../../wire/limits';
import { fail, invalidParam, notFound, precondition } from '../errors';
import type { Agent } from '../resources/agents';
import type { Environment } from '../resources/environments';
import { checkHeaderNames, splitHeaders, type StoredHeaders } from '../resources/mcp-headers';
import { checkPluginRefs } from '../resources/plugins';
import { checkSkillRefs } from '../resources/skills';
import type { Emulator } from '../server';
import type { SessionsService } from '../services';
import { newId, publicView, type Collection, type Rec } from '../store';
import { validate } from '../validate';
import { checkSystemTemplate, CREATE_SCHEMA, parseSendBody, UPDATE_SCHEMA, type UserEvent } from './input';
import { EventLog } from './log';
import type { EgressLookup } from './platform';
import { SessionRuntime, type PendingInput, type SessionRec, type ThreadRec } from './runtime';
import { mergeMetadata } from '../metadata';

const DEFAULT_STEP_MS = 10;

type Binding = SessionRec['resources'][number];
/** The members of a vault credential (vaults.ts) that say how an MCP server's OAuth traffic leaves. */
type CredentialRoute = Rec & { vault_id: string; name: string; type: string; egress_environment_id: string | null };

export interface SessionService {
  readonly sessions: Collection<SessionRec>;
  readonly threads: Collection<ThreadRec>;
  /** The runtime of a session, rebuilt from the --state snapshot on first use after a restart. */
  runtime(s: SessionRec): SessionRuntime;
  create(raw: unknown): SessionRec;
  update(s: SessionRec, raw: unknown): void;
  remove(s: SessionRec): void;
  sendEvents(s: SessionRec, raw: unknown): { control_epoch: string } | { event_id?: string };
  /** The session's thread `tid`, 404 otherwise. */
  threadOf(s: SessionRec, tid: string): ThreadRec;
}

/** Builds the sessions' service on `emu`: its collections, runtimes, snapshot part and `emu.services.sessions`. */
export function createSessionService(emu: Emulator): SessionService {
  const sessions = emu.collection<SessionRec>('sessions', 'sesn', 'session');
  const threads = emu.collection<ThreadRec>('session_threads', 'sthr', 'thread');
  const agents = emu.collection<Agent>('agents', 'agent', 'agent');
  const environments = emu.collection<Environment>('environments', 'env', 'environment');
  const credentials = emu.collection<CredentialRoute>('vault_credentials', 'cred', 'credential');
  const runtimes = new Map<string, SessionRuntime>();
  const restored: { logs: Record<string, ReturnType<EventLog['dump']>>; queues: Record<string, PendingInput[]> } = { logs: {}, queues: {} };

  const agentSnapshot = (s: SessionRec): Record<string, any> => agents.get(s.agent_id)?._versions[s.agent_version - 1] ?? {};
  const modelName = (s: SessionRec): string => {
    const m = s.agent_overrides.model ?? agentSnapshot(s).model;
    return typeof m === 'string' ? m : ((m as { id?: string } | undefined)?.id ?? 'emulator-model');
  };

  const rosterOf = (s: SessionRec): unknown[] => {
    const r = s.agent_overrides.roster ?? agentSnapshot(s).roster;
    return Array.isArray(r) ? r : [];
  };

  const mcpServerList = (s: SessionRec): Array<{ name?: unknown; url?: unknown }> => {
    const list = s.agent_overrides.mcp_servers ?? agentSnapshot(s).mcp_servers;
    return Array.isArray(list) ? list : [];
  };
  const mcpServersOf = (s: SessionRec): string[] => mcpServerList(s).map((m) => String(m?.name));

  /**
   * Read at each outbound request. Assumption: the spec does not say which credential an
   * MCP server uses; here it is the first `mcp_oauth` credential named like the server in the session's `vault_ids`, in order.
   */
  const egressLookup = (s: SessionRec): EgressLookup => ({
    environment: () => (s.environment_id ? environments.get(s.environment_id) : undefined),
    environmentById: (id) => environments.get(id),
    mcpServerUrl: (server) => {
      const url = mcpServerList(s).find((m) => m?.name === server)?.url;
      return typeof url === 'string' ? url : undefined;
    },
    oauthCredential: (server) =>
      (s.vault_ids ?? []).flatMap((v) => credentials.values().filter((c) => c.vault_id === v && c.type === 'mcp_oauth' && c.name === server))[0],
  });

  function runtime(s: SessionRec): SessionRuntime {
    let rt = runtimes.get(s.id);
    if (rt) return rt;
    const coordinator = threads.values().find((t) => t.session_id === s.id && t.parent_thread_id === null)!;
    const log = restored.logs[s.id] ? EventLog.load(restored.logs[s.id]) : undefined;
    // A snapshot cannot resume an execution: a turn cut by the restart ends interrupted.
    if (s.status === 'running' || s.stopping)
      sessions.touch(s, {
        status: 'idle',
        stopping: false,
        interrupted: true,
        requires_action: false,
        continue_pending: false,
        stop_reason: { type: 'interrupted' },
      });
    const deps = {
      sessions,
      threads,
      services: emu.services,
      faults: emu.faults,
      heartbeatMs: emu.heartbeatMs,
      stepMs: emu.options.modelStepMs ?? DEFAULT_STEP_MS,
      model: modelName(s),
      // Read at each turn: overrides may change the MCP servers after creation.
      get roster() {
        return rosterOf(s);
      },
      get mcpServers() {
        return mcpServersOf(s);
      },
      get tools() {
        const tools = effectiveAgent(s, s.agent_overrides).tools;
        return Array.isArray(tools) ? tools : [];
      },
      egress: egressLookup(s),
    };
    rt = new SessionRuntime(s, coordinator, deps, log);
    rt.queue.push(...(restored.queues[s.id] ?? []));
    runtimes.set(s.id, rt);
    return rt;
  }

  function threadOf(s: SessionRec, tid: string): ThreadRec {
    const t = threads.get(tid);
    if (!t || t.session_id !== s.id) notFound('thread', tid);
    return t!;
  }

  /** A file may be mounted unless uploaded in the compatibility format or for batch. */
  function checkFile(fileId: string): void {
    const files = emu.services.files;
    if (!files) return;
    const f = files.get(fileId) ?? notFound('file', fileId);
    if (f.compat) precondition(`file ${fileId} was uploaded without the version header and cannot be mounted on a session`);
    if (f.purpose === 'batch') precondition(`file ${fileId} is a batch file and cannot be attached to a session`);
  }

  function bindResource(res: Record<string, any>, param: string): Binding {
    if (res.type !== 'file') return { ...res, type: res.type, id: newId('sesrsc') };
    if (typeof res.file_id !== 'string') invalidParam(`${param}.file_id`, 'a file resource needs file_id');
    checkFile(res.file_id);
    return { type: 'file', id: newId('sesrsc'), file_id: res.file_id };
  }

  /**
   * Config rules 1, 3, 4: `skills`/`plugins` overrides are three-state (docs/service.md) — omitted keeps the
   * agent's set, null means none, an array is exactly that set, validated and pinned like an agent's.
   */
  function resolveOverrides(overrides: Record<string, any> | undefined, param: string): void {
    if (overrides?.skills) overrides.skills = checkSkillRefs(emu, overrides.skills, `${param}.skills`);
    if (overrides?.plugins) overrides.plugins = checkPluginRefs(emu, overrides.plugins, `${param}.plugins`);
    checkHeaderNames(overrides?.mcp_servers, `${param}.mcp_servers`);
  }

  /** Takes the write-only headers out of `mcp_servers` overrides (config rule 7), against those stored. */
  function overrideHeaders(overrides: Record<string, any> | undefined, stored: StoredHeaders): StoredHeaders {
    if (!overrides?.mcp_servers) return {};
    const { servers, headers } = splitHeaders(overrides.mcp_servers, stored);
    overrides.mcp_servers = servers;
    return headers;
  }

  const effectiveAgent = (s: SessionRec, overrides: Record<string, unknown>): Record<string, unknown> => {
    const { roster: _roster, ...config } = overrides;
    // A null skills or plugins override means none (docs/service.md: three states).
    const none = Object.fromEntries((['skills', 'plugins'] as const).filter((k) => config[k] === null).map((k) => [k, []]));
    return { ...agentSnapshot(s), ...config, ...none };
  };

  function create(raw: unknown): SessionRec {
    const body = validate(raw, CREATE_SCHEMA);
    checkSystemTemplate(body.agent_overrides?.system, 'body.agent_overrides.system');
    resolveOverrides(body.agent_overrides, 'body.agent_overrides');
    const agent = agents.must(body.agent_id);
    if (agent.archived_at) precondition(`agent ${agent.id} is archived`);
    const version = body.agent_version ?? agent.version;
    if (version > agent.version) invalidParam('body.agent_version', `agent ${agent.id} has no version ${version}`);
    if (body.environment_id !== undefined && emu.services.environments && !emu.services.environments.get(body.environment_id))
      notFound('environment', body.environment_id);
    const resources = (body.resources ?? []).map((res: Record<string, any>, i: number) => bindResource(res, `body.resources[${i}]`));
    const mcpHeaders = overrideHeaders(body.agent_overrides, {});
    const s = sessions.insert({
      _mcp_headers: mcpHeaders,
      agent_id: agent.id,
      agent_version: version,
      environment_id: body.environment_id ?? null,
      title: body.title ?? '',
      status: 'idle',
      stopping: false,
      interrupted: false,
      control_epoch: '0',
      continue_pending: false,
      requires_action: false,
      stop_reason: null,
      agent_overrides: body.agent_overrides ?? {},
      resources,
      vault_ids: body.vault_ids ?? [],
      metadata: body.metadata ?? {},
      archived_at: null,
    } as unknown as SessionRec);
    threads.insert({
      session_id: s.id,
      parent_thread_id: null,
      agent_name: agent.name,
      status: 'idle',
      interrupted: false,
      control_epoch: '0',
      archived_at: null,
    } as unknown as ThreadRec);
    runtime(s);
    return s;
  }

  /** PATCH: only real changes are applied and announced. */
  function update(s: SessionRec, raw: unknown): void {
    const body = validate(raw, UPDATE_SCHEMA, { patch: true });
    mergeMetadata(body, s.metadata);
    if (body.agent_overrides?.roster !== undefined) invalidParam('body.agent_overrides.roster', 'roster can be set only when the session is created');
    checkSystemTemplate(body.agent_overrides?.system, 'body.agent_overrides.system');
    if (s.archived_at) precondition('the session is archived and cannot be updated');
    resolveOverrides(body.agent_overrides, 'body.agent_overrides');
    const changes: Partial<SessionRec> = {};
    const changed: Record<string, unknown> = {};
    if (body.title !== undefined && body.title !== s.title) changes.title = changed.title = body.title;
    if (body.metadata !== undefined && !isDeepStrictEqual(body.metadata, s.metadata)) changes.metadata = changed.metadata = body.metadata;
    if (body.agent_overrides !== undefined) {
      // The override document is replaced as a whole; the creation-time roster stays.
      const headers = overrideHeaders(body.agent_overrides, s._mcp_headers ?? {});
      const next = { ...body.agent_overrides, ...(s.agent_overrides.roster !== undefined ? { roster: s.agent_overrides.roster } : {}) };
      const newHeaders = !isDeepStrictEqual(headers, s._mcp_headers ?? {});
      if (newHeaders) changes._mcp_headers = headers;
      // A change of write-only headers alone is still a change of the overrides.
      if (newHeaders || !isDeepStrictEqual(next, s.agent_overrides)) {
        changes.agent_overrides = changed.agent_overrides = next;
        changed.agent = effectiveAgent(s, next);
      }
    }
    // session.updated only on a real change, with only the changed members.
    if (Object.keys(changes).length) {
      sessions.touch(s, changes);
      runtime(s).emit('session.updated', changed);
    }
  }

  /** DELETE: refused while anything runs; open streams end with a not-found error. */
  function remove(s: SessionRec): void {
    const rt = runtime(s);
    if (rt.active) fail('conflict_error', 'the session has an active execution or threads; interrupt it and wait for idle first');
    rt.hub.failAll('resource_not_found_error', `session ${s.id} was deleted`);
    rt.close();
    for (const t of threads.values()) if (t.session_id === s.id) threads.delete(t.id);
    runtimes.delete(s.id);
    sessions.delete(s.id);
    emu.services.work?.endRow(s.id);
  }

  /** POST events: an interrupt answers its epoch; other input is checked, queued or delivered, and its files bound. */
  function sendEvents(s: SessionRec, raw: unknown): { control_epoch: string } | { event_id?: string } {
    const { mode, events } = parseSendBody(raw);
    const rt = runtime(s);
    if (events[0].type === 'user.interrupt') return { control_epoch: rt.interrupt(events[0].data?.expected_control_epoch) };
    const fileIds = fileBlocks(events);
    fileIds.forEach(checkFile);
    const accepted = rt.send(mode, events);
    // File blocks in messages are bound to the session as file resources.
    const fresh = [...new Set(fileIds)].filter((id) => !s.resources.some((b) => b.type === 'file' && b.file_id === id));
    if (fresh.length) sessions.touch(s, { resources: [...s.resources, ...fresh.map((file_id) => ({ type: 'file', id: newId('sesrsc'), file_id }))] });
    return accepted;
  }

  const service: SessionsService = {
    exists: (id) => sessions.get(id) !== undefined,
    get: (id) => {
      const s = sessions.get(id);
      return s && publicView(s);
    },
    isBusy: (id) => {
      const s = sessions.get(id);
      return s ? runtime(s).active || runtime(s).queue.length > 0 : false;
    },
    cancel: (id) => {
      const s = sessions.get(id);
      if (s) runtime(s).cancel();
    },
    create: (body) => ({ id: create(body).id }),
    send: (id, type, events) => {
      const s = sessions.must(id);
      const parsed = parseSendBody({ type, events });
      if (parsed.events[0].type === 'user.interrupt') invalidParam('body.events[0].type', 'queued input cannot be an interrupt');
      return runtime(s).send(parsed.mode, parsed.events);
    },
    failedIdle: (id) => {
      const s = sessions.get(id);
      return s?.status === 'idle' && s.stop_reason?.type === 'error';
    },
    queueFull: (id) => {
      const s = sessions.get(id);
      return s ? runtime(s).queue.length >= LIMITS.pendingInputs : false;
    },
    platform: (id) => {
      const s = sessions.get(id);
      return s && runtime(s).platform;
    },
    seedEvents: (id, count) => {
      const rt = runtime(sessions.must(id));
      for (let i = 1; i < count; i++) rt.emit('agent.message', { content: [{ type: 'text', text: `seeded reply ${i} of ${count}` }] });
      rt.emit('session.status', { status: 'idle', stop_reason: { type: 'end_turn' } });
    },
    appendHistory: (id, events, changes = {}) => {
      const s = sessions.must(id);
      const rt = runtime(s);
      for (const e of events) {
        const ev: Record<string, unknown> = { id: newId('sevt'), ...e };
        const thread = typeof ev.session_thread_id === 'string' ? ev.session_thread_id : undefined;
        const json = JSON.stringify(ev);
        rt.hub.publish(rt.log.append(json, String(ev.type), thread), String(ev.type), json);
      }
      const { updated_at: at, ...rest } = changes;
      sessions.touch(s, rest as Partial<SessionRec>, typeof at === 'string' ? new Date(at).toISOString() : undefined);
    },
  };
  emu.services.sessions = service;

  emu.persist('session_runtime', {
    dump: () => ({
      logs: Object.fromEntries([...runtimes].map(([id, rt]) => [id, rt.log.dump()])),
      queues: Object.fromEntries([...runtimes].map(([id, rt]) => [id, rt.queue])),
    }),
    load: (d) => {
      Object.assign(restored, d);
      for (const s of sessions.values()) runtime(s);
    },
  });
  emu.onClose(() => {
    for (const rt of runtimes.values()) rt.close();
  });

  return { sessions, threads, runtime, create, update, remove, sendEvents, threadOf };
}

function fileBlocks(events: UserEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'user.message' ? e.data.content.filter((b) => b.type === 'file').map((b) => b.file_id!) : []));
}
