/** What every sandbox tool runs with. */
export interface ToolContext {
  /** Real path of the folder the file tools are confined to (`bash` only starts there). */
  workdir: string;
  /** `--unrestricted-paths`: the file tools may reach outside the workdir. */
  unrestrictedPaths?: boolean;
  /** Aborted when the call is cancelled (shutdown, lease lost, answered elsewhere). */
  signal: AbortSignal;
  /** Environment of `bash` commands, the worker's own credentials already removed. */
  env: Record<string, string | undefined>;
  /** Deadline of every other tool call: past it the call ends in an error result and the tool is stopped. */
  toolTimeoutMs: number;
  /** Default `bash` timeout when the call gives none. */
  bashTimeoutMs: number;
  /** Longest text a tool returns before it is truncated and marked so. */
  maxOutputChars: number;
}
