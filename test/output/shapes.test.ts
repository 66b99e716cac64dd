import { describe, expect, it } from 'vitest';
import { AGENT_COLUMNS } from '../../src/commands/agents/columns';
import { EVENT_COLUMNS, SESSION_COLUMNS } from '../../src/commands/sessions/columns';
import { THREAD_COLUMNS } from '../../src/commands/threads/columns';
import { OutputWriter } from '../../src/output/writer';
import { buildTranscript } from '../../src/output/transcript';
import { renderHtml } from '../../src/output/transcript-html';
import { renderMarkdown } from '../../src/output/transcript-md';
import type { SessionEvent } from '../../src/wire/events';
import { Capture } from '../helpers/cli';

const writer = (format: 'table' | 'json') => {
  const out = new Capture();
  return { out, w: new OutputWriter(out, { format, color: false }) };
};

/** Shapes the official SDK of the public API shows where our spec says "not shown" (docs/service.md "tolerate"). */
const at = (n: number) => `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`;
const REAL: SessionEvent[] = [
  { id: 'e1', type: 'user.message', processed_at: at(1), data: { content: [{ type: 'text', text: 'look it up' }] } },
  { id: 'e2', type: 'agent.mcp_tool_use', processed_at: at(2), data: { name: 'search', input: { q: 'svc' }, mcp_server_name: 'docs' } },
  {
    id: 'e3',
    type: 'agent.mcp_tool_result',
    processed_at: at(3),
    data: { mcp_tool_use_id: 'e2', content: [{ type: 'text', text: 'found 3 pages' }], is_error: false },
  },
  { id: 'e4', type: 'session.status_running', processed_at: at(4) },
  // A thread announced by session_thread_id + agent_name, its events, and its status in the type.
  { id: 'e5', type: 'session.thread_created', processed_at: at(5), session_thread_id: 'th_1', agent_name: 'researcher' } as SessionEvent,
  {
    id: 'e6',
    type: 'agent.message',
    processed_at: at(6),
    session_thread_id: 'th_1',
    agent_name: 'researcher',
    data: { content: [{ type: 'text', text: 'child says hi' }] },
  } as SessionEvent,
  { id: 'e7', type: 'session.thread_status_canceled', processed_at: at(7), session_thread_id: 'th_1', agent_name: 'researcher' } as SessionEvent,
  // A thread never announced still gets its name from its events.
  {
    id: 'e8',
    type: 'agent.message',
    processed_at: at(8),
    session_thread_id: 'th_2',
    agent_name: 'writer',
    data: { content: [{ type: 'text', text: 'unannounced' }] },
  } as SessionEvent,
  { id: 'e9', type: 'session.status_idle', processed_at: at(9), stop_reason: { type: 'retries_exhausted' } } as SessionEvent,
];

describe("the service's real shapes in output (docs/service.md: tolerate them)", () => {
  it('a NAME column falls back to display_name', async () => {
    const { out, w } = writer('table');
    await w.list(
      [
        { id: 'agent_1', display_name: 'Shown Name', model: 'm', version: 1 },
        { id: 'agent_2', name: 'plain', display_name: 'ignored' },
      ],
      AGENT_COLUMNS,
    );
    const [, first, second] = out.text.split('\n');
    expect(first).toMatch(/^agent_1\s+Shown Name\s+m\s+1$/);
    expect(second).toMatch(/^agent_2\s+plain\s*$/);
  });

  it('statuses spelled canceled show as given in session and thread tables (a status the spec does not list is never shown as idle)', async () => {
    const s = writer('table');
    await s.w.list([{ id: 'sesn_1', status: 'canceled', agent_id: 'agent_1' }], SESSION_COLUMNS);
    expect(s.out.text).toMatch(/sesn_1\s+canceled\s+agent_1/);
    const t = writer('table');
    await t.w.list([{ id: 'th_1', agent_name: 'researcher', status: 'canceled', interrupted: true }], THREAD_COLUMNS);
    expect(t.out.text).toMatch(/th_1\s+researcher\s+canceled \(interrupted\)/);
  });

  it('the events table summarises MCP tool calls and results and statuses named in the type', async () => {
    const { out, w } = writer('table');
    await w.list(REAL, EVENT_COLUMNS);
    const row = (id: string) => out.text.split('\n').find((l) => l.startsWith(id + ' '))!;
    expect(row('e2')).toMatch(/agent\.mcp_tool_use\s+search via docs \{/);
    expect(row('e3')).toMatch(/agent\.mcp_tool_result\s+found 3 pages$/);
    expect(row('e4')).toMatch(/session\.status_running\s+running$/);
    expect(row('e7')).toMatch(/th_1\s+session\.thread_status_canceled\s+canceled \(researcher\)$/);
    expect(row('e9')).toMatch(/session\.status_idle\s+idle \(retries_exhausted\)$/);
  });

  it('json output keeps every event as received', async () => {
    const { out, w } = writer('json');
    await w.list(REAL, EVENT_COLUMNS);
    expect(JSON.parse(out.text)).toEqual(REAL);
  });

  it('the transcript nests the thread under its agent name and reads every shape (md and html)', () => {
    const root = buildTranscript(REAL);
    const header = { title: 'Real shapes', facts: [['Session', 'sesn_1']] as Array<[string, string]> };
    const md = renderMarkdown(header, root);
    expect(md).toContain('**MCP tool call**');
    expect(md).toContain('search via docs');
    expect(md).toContain('**MCP tool result**');
    expect(md).toContain('found 3 pages');
    expect(md).toContain('_Status: running_');
    expect(md).toContain('_Status: idle (retries_exhausted)_');
    expect(md).toMatch(/### Thread researcher \(`th_1`\)\n>\n> \*\*Agent\*\*.*\n>\n> child says hi\n>\n> _Thread status: canceled \(researcher\)_/);
    expect(md).toMatch(/### Thread writer \(`th_2`\)/);
    const html = renderHtml(header, root);
    expect(html).toContain('<span class="label">MCP tool result</span>');
    expect(html).toContain('Thread researcher <code>th_1</code>');
    expect(html).toContain('canceled (researcher)');
  });
});
