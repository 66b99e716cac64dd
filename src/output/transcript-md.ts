import { escapeControls } from './controls';
import type { Entry, ThreadNode, TranscriptItem } from './transcript';

export interface TranscriptHeader {
  title: string;
  /** Label → value lines under the title (session ID, agent, status…). */
  facts: Array<[string, string]>;
}

/** Markdown: entries in order; each child thread is a block quote, nested one level deeper per generation. */
export function renderMarkdown(header: TranscriptHeader, root: ThreadNode): string {
  const out: string[] = [`# ${oneLine(header.title)}`, '', ...header.facts.map(([k, v]) => `- ${k}: ${v}`), ''];
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
      const inner: string[] = [`### Thread ${item.thread.agentName ? `${oneLine(item.thread.agentName)} ` : ''}(\`${item.thread.id}\`)`, ''];
      renderItems(item.thread.items, inner);
      while (inner.length && inner[inner.length - 1] === '') inner.pop();
      out.push(...inner.map((l) => (l === '' ? '>' : `> ${l}`)), '');
    }
  }
}

function entryLines(e: Entry): string[] {
  const time = e.time ? ` · ${e.time}` : '';
  // Status changes are one quiet line; what was said gets a heading line and its own paragraph.
  if (e.tone === 'status' && !e.code) return [`_${e.label}: ${oneLine(e.text ?? '')}_${time}`];
  const lines = [`**${e.label}**${time}`];
  if (e.text) lines.push('', ...(e.tone === 'thinking' ? e.text.split('\n').map((l) => `_${l}_`) : e.text.split('\n')));
  if (e.code) {
    const fence = fenceFor(e.code);
    lines.push('', `${fence}json`, ...e.code.split('\n'), fence);
  }
  return lines;
}

/** A fence longer than any run of backticks inside the code, so content cannot close it. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
