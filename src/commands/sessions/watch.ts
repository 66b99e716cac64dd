import type { Query } from '../../api/client';
import type { Obj } from '../../api/resources';
import type { Ctx } from '../../context';
import { InterruptedError } from '../../errors';
import { write } from '../../io';
import { shortAge } from '../../fleet/duration';
import { watch, type WatchType } from '../../fleet/watch';
import { agentNames, showsAgentNames } from '../../cli/verbs/agent-names';
import { agentCell } from '../../output/agent-cell';
import { escapeControls, escapeJsonControls } from '../../output/controls';
import { yamlText } from '../../output/yaml';
import { cellText } from '../../output/table';

/**
 * The watched list: kubectl-style rows with an age column on a terminal, NDJSON `{"type","object"}` off it; with
 * `-o yaml` each change as a YAML document, with `-q` (`-o id`) the ID of each change, as kubectl's `-w -o name`.
 */
export async function runWatch(
  ctx: Ctx,
  o: { list: (q: Query) => AsyncIterable<Obj>; query: Query; match: (s: Obj) => boolean; includeArchived: boolean; intervalMs: number; timeoutMs?: number },
): Promise<void> {
  const timer = new AbortController();
  const t = o.timeoutMs === undefined ? undefined : setTimeout(() => timer.abort(), o.timeoutMs);
  const signal = AbortSignal.any([timer.signal, ...(ctx.io.signal ? [ctx.io.signal] : [])]);
  const rows = showsAgentNames(ctx);
  // Read once per agent for the whole watch, and only for rows: the NDJSON events carry the service's objects.
  const names = rows ? await agentNames(ctx) : undefined;
  if (rows) await write(ctx.io.stdout, row(['EVENT', 'ID', 'STATUS', 'TITLE', 'AGENT', 'AGE']));
  const emit = async (type: WatchType, s: Obj) => {
    if (ctx.settings.jq) return ctx.out.item({ type, object: s });
    if (ctx.format === 'id') return write(ctx.io.stdout, escapeControls(String(s.id ?? '')) + '\n');
    if (ctx.format === 'yaml') return write(ctx.io.stdout, `---\n${await yamlText({ type, object: s })}`);
    if (!names) return write(ctx.io.stdout, escapeJsonControls(JSON.stringify({ type, object: s })) + '\n');
    await names.load([s.agent_id]);
    const age = typeof s.created_at === 'string' ? shortAge(ctx.now() - Date.parse(s.created_at)) : '';
    const agent = cellText(agentCell(s.agent_id, names.nameOf(s.agent_id), s.agent_version));
    await write(ctx.io.stdout, row([type, String(s.id), statusOf(s), String(s.title ?? ''), agent, age].map((x) => escapeControls(x))));
  };
  try {
    await watch({ ...o, signal, sleep: ctx.sleep, now: ctx.now, emit });
  } finally {
    clearTimeout(t);
  }
  if (ctx.io.signal?.aborted) throw new InterruptedError();
}

const WIDTHS = [9, 30, 12, 30, 36];

function row(cells: string[]): string {
  return (
    cells
      .map((c, i) => (i < WIDTHS.length ? c.padEnd(WIDTHS[i]) : c))
      .join(' ')
      .trimEnd() + '\n'
  );
}

function statusOf(s: Obj): string {
  if (s.archived_at) return 'archived';
  return String(s.status ?? '');
}
