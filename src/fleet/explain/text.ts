import type { Explained } from './causes';
import type { Group } from './group';

/** One session explained, for a human: the state, then each cause's why, advice and next commands. */
export function sessionText(e: Explained): string {
  const lines = [`${e.id}  ${e.state}${e.title ? `  "${e.title}"` : ''}`];
  for (const c of e.causes) {
    lines.push(`  why (${c.code}): ${c.summary}`);
    if (c.advice) lines.push(`  advice: ${c.advice}`);
    for (const cmd of c.commands) lines.push(`  next: ${cmd}`);
  }
  return lines.join('\n') + '\n';
}

/** Many sessions, grouped by cause for a human: largest group first, each with an example and the group's command. */
export function groupsText(groups: Group[], total: number): string {
  const lines = [`${total} session${total === 1 ? '' : 's'}, ${groups.length} cause${groups.length === 1 ? '' : 's'}`];
  for (const g of groups) {
    const by = g.error_type ?? g.stop_reason ?? g.environment_id;
    lines.push('', `${String(g.count).padStart(5)}  ${g.code}${by === undefined ? '' : ` ${by}`}`);
    lines.push(`       e.g. ${g.example.id}: ${g.example.summary}`);
    if (g.advice) lines.push(`       advice: ${g.advice}`);
    lines.push(g.command ? `       run: ${g.command}` : '       run: (nothing moves this group on as a whole; see -o json for each session)');
  }
  return lines.join('\n') + '\n';
}
