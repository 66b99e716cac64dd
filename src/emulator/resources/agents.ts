import { isDeepStrictEqual } from 'node:util';
import { fail, invalidParam, precondition } from '../errors';
import type { Emulator } from '../server';
import { paginate, publicView, type Rec } from '../store';
import { listNewest } from '../listing';
import { queryBool, validate, type Field, type Schema } from '../validate';
import { checkPluginRefs } from './plugins';
import { checkSkillRefs } from './skills';
import { checkHeaderNames, MCP_SERVER, splitHeaders, type StoredHeaders } from './mcp-headers';
import { isObject } from '../../wire/is-object';
import { mergeMetadata } from '../metadata';

const TOOL_TYPES = ['default_toolset_20260901', 'mcp_toolset', 'custom'] as const;

/** A skill reference: `version` omitted, "latest" or an exact version (config rule 3). */
export const SKILL_REF: Field = { type: 'object', fields: { skill_id: { type: 'string', required: true }, version: { type: ['string', 'integer'] } } };
/** A plugin reference: `version` omitted, "latest" or an exact published version (config rule 4). */
export const PLUGIN_REF: Field = { type: 'object', fields: { plugin_id: { type: 'string', required: true }, version: { type: 'string' } } };

/** Agent body (docs/service.md: Agents). */
export const AGENT_SCHEMA: Schema = {
  name: { type: 'string', required: true },
  model: { type: ['string', 'object'], required: true, fields: { id: { type: 'string', required: true }, reasoning_effort: { type: 'string' } } },
  description: { type: 'string' },
  system: { type: 'string' },
  tools: { type: 'array', items: { type: 'object', fields: undefined } },
  mcp_servers: { type: 'array', items: MCP_SERVER },
  skills: { type: 'array', items: SKILL_REF },
  plugins: { type: 'array', items: PLUGIN_REF },
  roster: { type: 'array', items: { type: 'any' } },
  metadata: { type: 'map' },
};

const CONFIG_FIELDS = Object.keys(AGENT_SCHEMA);

export type Agent = Rec & { name: string; version: number; archived_at: string | null; _versions: Record<string, unknown>[]; _mcp_headers: StoredHeaders };

/** Checks tool entries and MCP header names, the parts a field schema cannot say; resolves skill and plugin references. */
function checkAgentBody(emu: Emulator, body: Record<string, any>): void {
  // Config rules 3 and 4: references are validated, and stored as pinned (or "latest") at write time.
  if (body.skills) body.skills = checkSkillRefs(emu, body.skills, 'body.skills');
  if (body.plugins) body.plugins = checkPluginRefs(emu, body.plugins, 'body.plugins');
  (body.tools ?? []).forEach((t: any, i: number) => {
    if (!TOOL_TYPES.includes(t?.type)) invalidParam(`body.tools[${i}].type`, `type must be one of ${TOOL_TYPES.join(', ')}`);
  });
  checkHeaderNames(body.mcp_servers, 'body.mcp_servers');
}

export function registerAgents(emu: Emulator): void {
  const agents = emu.collection<Agent>('agents', 'agent', 'agent');

  /** POST /v1/agents after the body is parsed; also the seed path of benchmarks. */
  function create(raw: unknown): Agent {
    const body = validate(raw, AGENT_SCHEMA);
    checkAgentBody(emu, body);
    const { servers, headers } = splitHeaders(body.mcp_servers ?? [], {});
    const a = agents.insert({
      description: '',
      system: '',
      tools: [],
      skills: [],
      plugins: [],
      roster: [],
      metadata: {},
      ...body,
      mcp_servers: servers,
      version: 1,
      archived_at: null,
      _versions: [],
      _mcp_headers: headers,
    } as unknown as Agent);
    a._versions.push(publicView(a));
    return a;
  }
  emu.services.agents = { create: (body) => ({ id: create(body).id }) };

  emu.router.post('/v1/agents', (r) => ({ status: 201, body: publicView(create(r.body)) }), { idempotent: true });

  emu.router.get('/v1/agents', (r) => {
    const officialOnly = queryBool(r.query, 'official_only');
    return listNewest(agents, r.query, { timeFilters: true, keep: (a) => !officialOnly || a.official === true });
  });

  emu.router.get('/v1/agents/:id', (r) => {
    const a = agents.must(r.params.id);
    const v = r.query.get('version');
    if (v === null) return { status: 200, body: publicView(a) };
    if (!/^[1-9]\d*$/.test(v)) invalidParam('query.version', 'version must be a positive integer');
    const snap = a._versions[Number(v) - 1];
    if (!snap) fail('resource_not_found_error', `agent ${r.params.id} has no version ${v}`);
    return { status: 200, body: snap };
  });

  emu.router.get('/v1/agents/:id/versions', (r) => {
    const a = agents.must(r.params.id);
    const newestFirst = [...a._versions].reverse();
    return { status: 200, body: paginate(newestFirst, r.query, (s) => String(s.version)) };
  });

  emu.router.patch('/v1/agents/:id', (r) => {
    const a = agents.must(r.params.id);
    if (a.archived_at) precondition('the agent is archived');
    // docs/service.md Agents: a PATCH may carry the version it read; another is a concurrent change, refused (409).
    const { version, ...rest } = (isObject(r.body) ? r.body : {}) as Record<string, unknown>;
    if (version !== undefined) {
      if (!Number.isInteger(version) || (version as number) < 1) invalidParam('body.version', 'version must be a positive integer');
      if (version !== a.version) fail('conflict_error', `agent ${a.id} is at version ${a.version}, not ${version}: read it again and retry`);
    }
    const body = validate(isObject(r.body) ? rest : r.body, AGENT_SCHEMA, { patch: true });
    checkAgentBody(emu, body);
    mergeMetadata(body, a.metadata);
    // Omitted mcp_servers keep the servers and their headers.
    const { servers, headers } = body.mcp_servers ? splitHeaders(body.mcp_servers, a._mcp_headers) : { servers: undefined, headers: a._mcp_headers };
    const next: Record<string, unknown> = { ...body, ...(servers ? { mcp_servers: servers } : {}) };
    const changed = CONFIG_FIELDS.some((k) => k in next && !isDeepStrictEqual(next[k], a[k])) || !isDeepStrictEqual(headers, a._mcp_headers);
    if (!changed) return { status: 200, body: publicView(a) };
    agents.touch(a, { ...next, version: a.version + 1, _mcp_headers: headers } as Partial<Agent>);
    a._versions.push(publicView(a));
    return { status: 200, body: publicView(a) };
  });

  emu.router.delete('/v1/agents/:id', (r) => {
    agents.must(r.params.id);
    agents.delete(r.params.id);
    return { status: 204 };
  });

  emu.router.post(
    '/v1/agents/:id/archive',
    (r) => {
      return { status: 200, body: publicView(agents.archive(agents.must(r.params.id))) };
    },
    { body: 'none' },
  );
}
