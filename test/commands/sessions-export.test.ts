// Rules proved here: R-THREAD-3, R-HIST-6
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTranscript } from '../../src/output/transcript';
import { emuEnv, svc, tempConfigDir, type SvcOptions } from '../helpers/cli';
import { useEmulator, requestCount } from '../helpers/emulator';
import { createSession, history, send, waitIdleEvents } from '../helpers/sse';

const t = useEmulator();
const run = (args: string[], o: SvcOptions = {}) => svc(args, { env: emuEnv(t.emu), ...o });
const requests = (): Promise<number> => requestCount(t.emu);

const XSS = '<script>alert("x")</script> & more';

/** One finished session: a message carrying markup, then a delegation to two child threads. */
let sid: string;
let events: any[];
beforeAll(async () => {
  sid = (await createSession(t.emu, { title: 'Export <b>me</b>' })).id;
  await send(t.emu, sid, `/echo ${XSS}`);
  await waitIdleEvents(t.emu, sid, 1);
  await send(t.emu, sid, '/delegate 2');
  events = await waitIdleEvents(t.emu, sid, 2);
});

describe('svc sessions export', () => {
  it('R-THREAD-3 md (the default): the transcript in order, each child thread quoted under the delegation that started it', async () => {
    const r = await run(['sessions', 'export', sid]);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md.startsWith('# Export &lt;b&gt;me&lt;/b&gt;\n\n- Session: ' + sid + '\n')).toBe(true);
    expect(md).toContain(`- Events: ${events.length}\n`);
    const at = (s: string) => {
      const i = md.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = [
      at(`**User**`),
      at('\n/delegate 2\n'),
      at('\nDelegating to 2 threads.\n'),
      at('> ### Thread worker-1 (`'),
      at('\n> Thread 1 finished its part.\n'),
      at('> ### Thread worker-2 (`'),
      at('\n> Thread 2 finished its part.\n'),
      at('\nAll 2 threads finished.\n'),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md).toContain('\n&lt;script&gt;alert("x")&lt;/script&gt; &amp; more\n');
    expect(md).toContain('_Status: idle (end_turn)_ · ');
    expect(md).not.toContain('agent.model_started');
  });

  it('R-HIST-6 json: the events array exactly as the history holds it, oldest first', async () => {
    const r = await run(['sessions', 'export', sid, '--format', 'json']);
    expect(JSON.parse(r.stdout)).toEqual(await history(t.emu, `/v1/sessions/${sid}`));
  });

  it('html: one self-contained page with inline CSS, no script, markup from messages escaped, threads nested', async () => {
    const r = await run(['sessions', 'export', sid, '--format', 'html']);
    expect(r.code).toBe(0);
    const html = r.stdout;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(html).toContain('<title>Export &lt;b&gt;me&lt;/b&gt;</title>');
    const child = events.find((e) => e.type === 'session.thread_created' && e.data.agent_name === 'worker-1');
    const open = html.indexOf(`<details class="thread" open><summary>Thread worker-1 <code>${child.data.thread_id}</code></summary>`);
    const close = html.indexOf('</details>', open);
    const reply = html.indexOf('Thread 1 finished its part.');
    expect(open).toBeGreaterThan(html.indexOf('Delegating to 2 threads.'));
    expect(reply).toBeGreaterThan(open);
    expect(reply).toBeLessThan(close);
    expect(html.indexOf('All 2 threads finished.')).toBeGreaterThan(html.lastIndexOf('</details>'));
  });

  it('-O writes the file atomically (no temp file left), nothing on stdout, a note on stderr', async () => {
    const dir = tempConfigDir();
    const r = await run(['sessions', 'export', sid, '--format', 'html', '-O', 'out.html'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`wrote ${events.length} events of ${sid} to out.html\n`);
    const direct = (await run(['sessions', 'export', sid, '--format', 'html'])).stdout;
    expect(readFileSync(join(dir, 'out.html'), 'utf8')).toBe(direct);
    const again = await run(['sessions', 'export', sid, '-O', 'out.html'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'out.html'), 'utf8')).toMatch(/^# Export/);
    expect(readdirSync(dir).filter((f) => f.includes('out.html'))).toEqual(['out.html']);
    const dash = await run(['sessions', 'export', sid, '--format', 'json', '-O', '-'], { cwd: dir });
    expect(JSON.parse(dash.stdout)).toHaveLength(events.length);
  });

  it('-O onto a symlink replaces its target atomically and keeps the link; onto a FIFO writes into it', async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'real'));
    symlinkSync('real/t.md', join(dir, 'link.md'));
    const r = await run(['sessions', 'export', sid, '-O', 'link.md'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(lstatSync(join(dir, 'link.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real', 't.md'), 'utf8')).toMatch(/^# Export/);
    expect(readdirSync(join(dir, 'real'))).toEqual(['t.md']);
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    reader.stdout.on('data', (c: Buffer) => (text += c));
    const read = new Promise((done) => reader.on('close', done));
    try {
      const f = await run(['sessions', 'export', sid, '--format', 'json', '-O', fifo], { cwd: dir });
      expect(f.code).toBe(0);
      await read;
      expect(JSON.parse(text)).toHaveLength(events.length);
      expect(statSync(fifo).isFIFO()).toBe(true);
    } finally {
      reader.kill();
    }
  });

  it('md and html carry no raw control character from the service (each shown as \\xHH), json none either (C1 as \\u009b)', async () => {
    const s = (await createSession(t.emu, { title: 'bell\u0007 title' })).id;
    await send(t.emu, s, '/echo \u001b]0;pwned\u0007 and \u009b2J');
    await waitIdleEvents(t.emu, s, 1);
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    for (const format of ['md', 'html']) {
      const r = await run(['sessions', 'export', s, '--format', format]);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(raw);
      expect(r.stdout).toContain('\\x1b]0;pwned\\x07 and \\x9b2J');
      expect(r.stdout).toContain('bell\\x07 title');
    }
    // JSON escapes them by its own rules (C1 too, which JSON.stringify leaves raw): the events' values as the service sent them.
    const json = await run(['sessions', 'export', s, '--format', 'json']);
    expect(json.stdout).not.toMatch(raw);
    expect(JSON.parse(json.stdout).some((e: any) => e.data?.content?.[0]?.text === '\u001b]0;pwned\u0007 and \u009b2J')).toBe(true);
  });

  it('md makes markup and links from the service inert: no <script>, <img onerror>, javascript: link nor unclosed <!-- survives', async () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(2)>',
      '[click](javascript:alert(3)) ![pic]( JaVaScript:alert(4)) [ent](&#106;avascript:alert(5)) [auto](<javascript:alert(6)>)',
      '[ref]: javascript:alert(7)',
      '[data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.com/a) [mail](mailto:a@example.com) [rel](notes.md#top)',
      '<!-- the rest is hidden',
    ];
    const s = (await createSession(t.emu, { title: '<img src=x onerror=alert(0)>' })).id;
    await send(t.emu, s, `/echo ${hostile.join('\n')}`);
    await waitIdleEvents(t.emu, s, 1);
    const r = await run(['sessions', 'export', s, '--format', 'md']);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md).not.toMatch(/<(script|img|!--)/i);
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md).toContain('&lt;!-- the rest is hidden');
    expect(md).toContain('# &lt;img src=x onerror=alert(0)&gt;');
    // Every destination that is not http(s) or mailto has lost its link syntax: `](` or `]:` followed by it is escaped.
    expect(md).not.toMatch(/\]\(\s*(?!https?:\/\/|mailto:|notes\.md)/i);
    expect(md).not.toMatch(/\]:\s*javascript/i);
    expect(md).toContain('[click]\\(javascript:alert(3))');
    expect(md).toContain('[ref]\\: javascript:alert(7)');
    expect(md).toContain('[ok](https://example.com/a) [mail](mailto:a@example.com) [rel](notes.md#top)');
  });

  it('6 for an unknown session, and no file is written', async () => {
    const dir = tempConfigDir();
    const r = await run(['sessions', 'export', 'sesn_missing', '-O', 'x.md'], { cwd: dir });
    expect(r.code).toBe(6);
    expect(existsSync(join(dir, 'x.md'))).toBe(false);
  });

  it('2 for an unknown --format or an -O into a missing directory, before any request', async () => {
    const before = await requests();
    const fmt = await run(['sessions', 'export', sid, '--format', 'pdf']);
    expect([fmt.code, fmt.stdout]).toEqual([2, '']);
    expect(fmt.stderr.trim().split('\n')).toHaveLength(1);
    expect(fmt.stderr).toContain('md, json, html');
    const dir = await run(['sessions', 'export', sid, '-O', '/nonexistent/dir/t.md']);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toBe('error: cannot write /nonexistent/dir/t.md: no such directory /nonexistent/dir\n');
    expect(await requests()).toBe(before);
  });
});

describe('buildTranscript', () => {
  const ev = (id: string, type: string, data?: any, thread?: string) => ({
    id,
    type,
    processed_at: `2026-01-01T00:00:0${id}Z`,
    ...(thread ? { session_thread_id: thread } : {}),
    ...(data ? { data } : {}),
  });

  it('nests a grandchild under its parent thread and keeps events of an unannounced thread', () => {
    const root = buildTranscript([
      ev('1', 'session.thread_created', { thread_id: 'a', parent_thread_id: 'coord', agent_name: 'A' }, 'a'),
      ev('2', 'session.thread_created', { thread_id: 'b', parent_thread_id: 'a', agent_name: 'B' }, 'b'),
      ev('3', 'agent.message', { content: [{ type: 'text', text: 'from b' }] }, 'b'),
      ev('4', 'agent.message', { content: [{ type: 'text', text: 'from z' }] }, 'z'),
      ev('5', 'future.event_type', { x: 1 }),
    ]);
    const [a, z, unknown] = root.items;
    expect(a).toMatchObject({ kind: 'thread', thread: { id: 'a', agentName: 'A' } });
    const b = (a as any).thread.items[0];
    expect(b).toMatchObject({ kind: 'thread', thread: { id: 'b', agentName: 'B', items: [{ kind: 'entry', entry: { label: 'Agent', text: 'from b' } }] } });
    expect(z).toMatchObject({ kind: 'thread', thread: { id: 'z', items: [{ kind: 'entry', entry: { text: 'from z' } }] } });
    expect(unknown).toMatchObject({ kind: 'entry', entry: { label: 'future.event_type', tone: 'other', code: '{\n  "x": 1\n}' } });
  });
});
