import { escapeControls } from './controls';
import type { Entry, ThreadNode, TranscriptItem } from './transcript';
import type { TranscriptHeader } from './transcript-md';

/** Every character that could open markup or break out of an attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1d1d1f;--bg:#fff;--muted:#6e6e73;--line:#d2d2d7;--user:#0a64d8;--agent:#1d7f3a;--tool:#8a5a00;--error:#c4291c}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8ed;--bg:#161617;--muted:#98989d;--line:#3a3a3c;--user:#5aa2ff;--agent:#4cc36b;--tool:#e0a43a;--error:#ff6b5e}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.4rem;margin:0 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;color:var(--muted);margin:0 0 1.5rem}
dd{margin:0}
.ev{margin:.6rem 0;padding:.4rem .7rem;border-left:3px solid var(--line)}
.meta{font-size:.8rem;color:var(--muted)}
.label{font-weight:600;margin-right:.5rem}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
pre{background:rgba(127,127,127,.12);padding:.5rem;overflow-x:auto;margin:.3rem 0 0}
.user{border-color:var(--user)}.user .label{color:var(--user)}
.agent{border-color:var(--agent)}.agent .label{color:var(--agent)}
.tool,.result{border-color:var(--tool)}.tool .label{color:var(--tool)}
.error{border-color:var(--error)}.error .label,.error .text{color:var(--error)}
.thinking .text{color:var(--muted);font-style:italic}
.status{border-color:transparent;padding-top:0;padding-bottom:0}.status .text{color:var(--muted);font-size:.85rem}
details.thread{margin:.8rem 0 .8rem .5rem;padding-left:.8rem;border-left:2px dashed var(--line)}
summary{cursor:pointer;font-weight:600}
`;

/**
 * One self-contained page: inline CSS, no script, no external resource, every piece of content escaped.
 * The Content-Security-Policy forbids scripts even if a browser found one.
 */
export function renderHtml(header: TranscriptHeader, root: ThreadNode): string {
  const facts = header.facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('');
  // Control characters are not HTML: shown as `\xHH`, never carried raw to a browser or a terminal.
  return escapeControls(
    [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${escapeHtml(header.title)}</title>`,
      `<style>${STYLE}</style></head><body>`,
      `<header><h1>${escapeHtml(header.title)}</h1><dl>${facts}</dl></header>`,
      `<main>${items(root.items)}</main>`,
      '</body></html>',
      '',
    ].join('\n'),
  );
}

function items(list: TranscriptItem[]): string {
  return list.map((i) => (i.kind === 'entry' ? entry(i.entry) : thread(i.thread))).join('\n');
}

function thread(t: ThreadNode): string {
  const name = t.agentName ? `${escapeHtml(t.agentName)} ` : '';
  return `<details class="thread" open><summary>Thread ${name}<code>${escapeHtml(t.id ?? '')}</code></summary>\n${items(t.items)}\n</details>`;
}

function entry(e: Entry): string {
  const time = e.time ? `<time datetime="${escapeHtml(e.time)}">${escapeHtml(e.time)}</time>` : '';
  const text = e.text ? `<div class="text">${escapeHtml(e.text)}</div>` : '';
  const code = e.code ? `<pre><code>${escapeHtml(e.code)}</code></pre>` : '';
  const id = e.id ? ` id="${escapeHtml(e.id)}"` : '';
  return `<article class="ev ${e.tone}"${id}><div class="meta"><span class="label">${escapeHtml(e.label)}</span>${time}</div>${text}${code}</article>`;
}
