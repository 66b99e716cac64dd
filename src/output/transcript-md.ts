import { escapeControls } from './controls';
import type { Entry, ThreadNode, TranscriptItem } from './transcript';

export interface TranscriptHeader {
  title: string;
  /** Label → value lines under the title (session ID, agent, status…). */
  facts: Array<[string, string]>;
}

/**
 * Markdown: entries in order; each child thread is a block quote, nested one level deeper per generation. Text
 * from the service is inert wherever the file is rendered: HTML is escaped (no `<script>`, `<img onerror>`, no
 * unclosed `<!--` swallowing the rest) and links to schemes other than http(s) and mailto are not links.
 */
export function renderMarkdown(header: TranscriptHeader, root: ThreadNode): string {
  const out: string[] = [`# ${inertText(oneLine(header.title))}`, '', ...header.facts.map(([k, v]) => `- ${inertText(k)}: ${inertText(v)}`), ''];
  renderItems(root.items, out);
  // Control characters from the service are shown, never obeyed by the terminal a transcript is read on.
  return escapeControls(
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n',
  );
}

function renderItems(items: TranscriptItem[], out: string[]): void {
  for (const item of items) {
    if (item.kind === 'entry') out.push(...entryLines(item.entry), '');
    else {
      const name = item.thread.agentName ? `${inertText(oneLine(item.thread.agentName))} ` : '';
      const inner: string[] = [`### Thread ${name}(${inlineCode(item.thread.id ?? '')})`, ''];
      renderItems(item.thread.items, inner);
      while (inner.length && inner[inner.length - 1] === '') inner.pop();
      out.push(...inner.map((l) => (l === '' ? '>' : `> ${l}`)), '');
    }
  }
}

function entryLines(e: Entry): string[] {
  // Status changes are one quiet line; what was said gets a heading line and its own paragraph.
  const time = e.time ? ` · ${inertText(e.time)}` : '';
  if (e.tone === 'status' && !e.code) return [`_${inertText(e.label)}: ${inertText(oneLine(e.text ?? ''))}_${time}`];
  const lines = [`**${inertText(e.label)}**${time}`];
  if (e.text) {
    const text = inertText(e.text).split('\n');
    lines.push('', ...(e.tone === 'thinking' ? text.map((l) => `_${l}_`) : text));
  }
  if (e.code) {
    const fence = fenceFor(e.code);
    lines.push('', `${fence}json`, ...e.code.split('\n'), fence);
  }
  return lines;
}

/** A fence longer than any run of backticks inside the code, so content cannot close it. */
function fenceFor(code: string): string {
  return '`'.repeat(Math.max(3, longestBackticks(code) + 1));
}

/** Inline code that its content cannot close. */
function inlineCode(s: string): string {
  const ticks = '`'.repeat(longestBackticks(s) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

function longestBackticks(s: string): number {
  return Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
}

/** Link destinations a reader may follow; anything else with a scheme, an entity or an escape could hide `javascript:`. */
const SAFE_DESTINATION = /^(?:https?:\/\/|mailto:)|^[^:&\\]*$/i;

/**
 * Text from the service as Markdown that renders as that text: `&`, `<` and `>` as entities, so no HTML element or
 * comment and no `<scheme:…>` autolink survives; an inline link `](dest)` or a definition `[x]: dest` whose
 * destination is not http(s)/mailto loses its link syntax by an escape that renders as the same text (`]\(`, `]\:`).
 */
export function inertText(s: string): string {
  const escaped = s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  return escaped
    .replace(/\]\(\s*([^\s)]*)/g, (m, dest: string) => (SAFE_DESTINATION.test(dest) ? m : m.replace('](', ']\\(')))
    .replace(/\]:\s*([^\s]*)/g, (m, dest: string) => (SAFE_DESTINATION.test(dest) ? m : m.replace(']:', ']\\:')));
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
