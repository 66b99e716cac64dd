/** Starting the daily check as its own process, detached: the command that started it exits without waiting. */
import { spawn } from 'node:child_process';
import type { Env } from '../config/paths';

/** Whether svc runs as the single executable (Node's SEA) rather than from the npm package. */
export function isExecutable(): boolean {
  try {
    return (process.getBuiltinModule('node:sea') as { isSea?: () => boolean } | undefined)?.isSea?.() ?? false;
  } catch {
    return false;
  }
}

/** `svc __update-check` in the background: no terminal, no credentials in its environment. */
export function startDetachedCheck(env: Env): void {
  const childEnv = { ...env };
  delete childEnv.SVC_API_KEY;
  delete childEnv.SVC_ENVIRONMENT_KEY;
  const args = isExecutable() ? ['__update-check'] : [process.argv[1], '__update-check'];
  spawn(process.execPath, args, { detached: true, stdio: 'ignore', env: childEnv }).unref();
}
