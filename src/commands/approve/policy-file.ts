import type { Ctx } from '../../runtime/context';
import { UsageError } from '../../runtime/errors';
import { readInputFile } from '../../input/read';
import type { Policy } from '../../approve/policy';

/** A policy is a short file a person reads; more than this is not one. */
const MAX_POLICY_BYTES = 1024 * 1024;

/**
 * Reads and checks a policy file. Every problem is one stderr line `FILE:LINE:COL: message`, then exit 2: nothing is
 * answered with a policy that does not check.
 */
export async function loadPolicy(ctx: Ctx, file: string): Promise<Policy> {
  const { parsePolicy, PolicyError } = await import('../../approve/policy');
  const bytes = await readInputFile(file, ctx.io.cwd, { what: file, limit: MAX_POLICY_BYTES, signal: ctx.io.signal, localLimitOf: 'a policy file' });
  try {
    return await parsePolicy(bytes.toString('utf8'), file);
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    for (const line of e.message.split('\n')) await ctx.msg(line);
    throw new UsageError(`${file}: ${e.issues.length} problem${e.issues.length === 1 ? '' : 's'}; fix the policy (svc approve lint ${file})`);
  }
}
