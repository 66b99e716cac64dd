/** `svc approve lint FILE`: checks a policy; every problem with its line and column, exit 2; exit 0 when it checks. */
import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { loadPolicy } from './policy-file';

export interface LintOptions {
  file: string;
}

export function parseLint(args: string[]): LintOptions {
  if (args.length !== 1) throw new UsageError('svc approve lint takes one policy file');
  return { file: args[0] };
}

export async function runLint(ctx: Ctx, o: LintOptions): Promise<void> {
  const policy = await loadPolicy(ctx, o.file);
  const counts = new Map<string, number>();
  for (const r of policy.rules) counts.set(r.decision, (counts.get(r.decision) ?? 0) + 1);
  const by = [...counts].map(([d, n]) => `${n} ${d}`).join(', ');
  await ctx.msg(`${o.file}: ${policy.rules.length} rule${policy.rules.length === 1 ? '' : 's'}${by ? ` (${by})` : ''}, no problem found`);
}
