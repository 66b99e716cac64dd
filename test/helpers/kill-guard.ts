/**
 * A setup file: in every test process, process.kill refuses a pid that would reach beyond one process or one group
 * of the test's own making. 0 signals the caller's whole process group (vitest, npm, .ci/run), -1 every process the
 * user may signal, and NaN or a fraction is a misread pid file. A bug in a test then fails that test, not the run.
 */
const kill = process.kill.bind(process);
process.kill = (pid: number, signal?: string | number): true => {
  if (!Number.isInteger(pid) || Math.abs(pid) <= 1)
    throw new Error(`refused by test/helpers/kill-guard.ts: process.kill(${pid}) would signal more than the test's own processes`);
  return kill(pid, signal);
};
