import type { Command } from 'commander';
import { KIND_NAMES, type Kind } from '../../apply/names';
import { examples, type Kit } from '../../cli/action';
import { addFlags, flagTable, type FlagsOf } from '../../cli/flags';
import type { ApplyOneOptions } from './one';
import { idempotencyFlags } from '../../cli/verbs/idempotency';
import { article } from '../../cli/verbs/resource';

export { plan } from '../../apply/diff';

/** `svc <group> apply`'s flags. */
export const APPLY_ONE_FLAGS = flagTable({
  dryRun: { flags: '--dry-run', description: 'print the difference and send no write' },
  updateSecrets: { flags: '--update-secrets', description: 'send write-only values (MCP headers) again' },
  ...idempotencyFlags('Idempotency-Key of the create (default: a fresh UUID)'),
});

/**
 * `svc <group> apply FILE [--dry-run]` (docs/behaviour.md "Commands"): the `svc apply` engine restricted to one kind and
 * one document, found by name alone (no set label, so it adopts what it finds), printed as one result.
 */
export function addApply(group: Command, kit: Kit, kind: Kind, extra: { examples?: string[] } = {}): Command {
  const spec = KIND_NAMES[kind];
  const cmd = group
    .command('apply')
    .argument('<file>', `${spec.noun} as JSON or YAML, or - for standard input`)
    .description(`Create or update ${article(spec.noun)} from a file, found by name; PATCHes only what differs`);
  addFlags(cmd, APPLY_ONE_FLAGS);
  examples(cmd, extra.examples ?? [`svc ${spec.group} apply ${spec.noun}.yaml --dry-run`, `svc ${spec.group} apply ${spec.noun}.yaml -o json`]);
  // The engine (planning, skill packaging with node:zlib and node:crypto) loads when apply runs, not with the group.
  const parse = ([file]: string[], flags: FlagsOf<typeof APPLY_ONE_FLAGS>): ApplyOneOptions => ({
    kind,
    file,
    dryRun: Boolean(flags.dryRun),
    updateSecrets: Boolean(flags.updateSecrets),
    idempotencyKey: flags.idempotencyKey,
  });
  return cmd.action(kit.verb(parse, async (ctx, o) => (await import('./one')).runApply(ctx, o)));
}
