import { CONTROL_EPOCH_PATTERN } from '../../wire/limits';
import { INPUT_MODES, type InputMode } from '../../wire/events';
import { invalidParam } from '../errors';
import { checkValue, validate, type Field, type Schema } from '../validate';
import { PLUGIN_REF, SKILL_REF } from '../resources/agents';
import { MCP_SERVER } from '../resources/mcp-headers';

const listOfObjects: Field = { type: 'array', items: { type: 'object' } };

/** `agent_overrides` members (spec: configuration rule 1); `skills`/`plugins` take null for "none". */
const OVERRIDES: Field = {
  type: 'object',
  fields: {
    mcp_servers: { type: 'array', items: MCP_SERVER },
    skills: { type: 'array', items: SKILL_REF, nullable: true },
    plugins: { type: 'array', items: PLUGIN_REF, nullable: true },
    tools: listOfObjects,
    model: { type: ['string', 'object'] },
    system: { type: 'string' },
    roster: { type: 'array', items: { type: 'any' } },
  },
};

const RESOURCE: Field = { type: 'object', fields: { type: { type: 'string', required: true }, file_id: { type: 'string' }, id: { type: 'string' } } };

/** Session create body (docs/service.md: Sessions). */
export const CREATE_SCHEMA: Schema = {
  agent_id: { type: 'string', required: true },
  agent_version: { type: 'integer', min: 1 },
  environment_id: { type: 'string' },
  title: { type: 'string' },
  resources: { type: 'array', items: RESOURCE },
  agent_overrides: OVERRIDES,
  vault_ids: { type: 'array', items: { type: 'string' } },
  metadata: { type: 'map' },
};

/** Session PATCH body: `title`, `metadata`, `agent_overrides` (not `roster`, checked apart for its own message). */
export const UPDATE_SCHEMA: Schema = {
  title: { type: 'string' },
  metadata: { type: 'map' },
  agent_overrides: OVERRIDES,
};

/**
 * What "invalid template" means here (spec: configuration rule 2): `{{` and `}}` must pair up, without
 * nesting, and each placeholder must name a variable (`{{ name }}` or `{{ a.b }}`).
 */
export function checkSystemTemplate(system: unknown, param: string): void {
  if (typeof system !== 'string') return;
  const re = /\{\{|\}\}/g;
  let open = -1;
  for (let m = re.exec(system); m; m = re.exec(system)) {
    if (m[0] === '{{') {
      if (open >= 0) invalidParam(param, 'the system template nests "{{" inside a placeholder');
      open = m.index;
    } else {
      if (open < 0) invalidParam(param, 'the system template has "}}" without an opening "{{"');
      const name = system.slice(open + 2, m.index).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(name))
        invalidParam(param, `the system template placeholder "{{${name}}}" does not name a variable`);
      open = -1;
    }
  }
  if (open >= 0) invalidParam(param, 'the system template has "{{" without a closing "}}"');
}

export type Block = { type: string; text?: string; file_id?: string };
export type UserEvent =
  | { type: 'user.message'; data: { content: Block[] } }
  | { type: 'user.interrupt'; data?: { expected_control_epoch?: string } }
  | { type: 'user.tool_confirmation'; data: { event_id: string; result: 'allow' | 'deny'; deny_message?: string } }
  | { type: 'user.custom_tool_result' | 'user.tool_result'; data: { event_id: string; content: unknown[]; is_error?: boolean } };

export type MessageEvent = Extract<UserEvent, { type: 'user.message' }>;
export type ReplyEvent = Extract<UserEvent, { data: { event_id: string } }>;

const BLOCK: Field = {
  type: 'object',
  fields: { type: { type: 'string', required: true, enum: ['text', 'file', 'image'] }, text: { type: 'string' }, file_id: { type: 'string' } },
};
const RESULT_DATA: Schema = {
  event_id: { type: 'string', required: true },
  content: { type: 'array', required: true, items: { type: 'object' } },
  is_error: { type: 'boolean' },
};

// docs/service.md: event payloads (the `data` member) of user events; `session_thread_id` is not declared.
const DATA: Record<UserEvent['type'], Field> = {
  'user.message': { type: 'object', required: true, fields: { content: { type: 'array', required: true, items: BLOCK } } },
  'user.interrupt': { type: 'object', fields: { expected_control_epoch: { type: 'string', pattern: CONTROL_EPOCH_PATTERN } } },
  'user.tool_confirmation': {
    type: 'object',
    required: true,
    fields: {
      event_id: { type: 'string', required: true },
      result: { type: 'string', required: true, enum: ['allow', 'deny'] },
      deny_message: { type: 'string' },
    },
  },
  'user.custom_tool_result': { type: 'object', required: true, fields: RESULT_DATA },
  'user.tool_result': { type: 'object', required: true, fields: RESULT_DATA },
};

/** Validates `POST /v1/sessions/{id}/events`: mode, event types and payloads, blocks, the lone interrupt. */
export function parseSendBody(body: unknown): { mode: InputMode; events: UserEvent[] } {
  const b = validate(body, {
    type: { type: 'string', enum: INPUT_MODES },
    events: {
      type: 'array',
      required: true,
      items: { type: 'object', fields: { type: { type: 'string', required: true, enum: Object.keys(DATA) }, data: { type: 'any' } } },
    },
  });
  const events = b.events as UserEvent[];
  if (events.length === 0) invalidParam('body.events', 'events must hold at least one event');
  events.forEach((e, i) => {
    const field = DATA[e.type];
    const p = `body.events[${i}].data`;
    if (e.data === undefined) {
      if (field.required) invalidParam(p, `${e.type} requires data`);
      return;
    }
    checkValue(e.data, field, p);
    if (e.type === 'user.message') {
      e.data.content.forEach((blk, j) => {
        if (blk.type === 'text' && typeof blk.text !== 'string') invalidParam(`${p}.content[${j}].text`, 'a text block needs text');
        if (blk.type !== 'text' && typeof blk.file_id !== 'string') invalidParam(`${p}.content[${j}].file_id`, `a ${blk.type} block needs file_id`);
      });
    }
  });
  if (events.some((e) => e.type === 'user.interrupt') && events.length > 1) invalidParam('body.events', 'user.interrupt must be the only event in its request');
  return { mode: (b.type as InputMode | undefined) ?? 'next_turn', events };
}

/** The prompt text of a message: its text blocks joined (empty when it has none). */
export const messageText = (e: MessageEvent): string =>
  e.data.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n')
    .trim();
