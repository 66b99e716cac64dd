/** What every sandbox tool runs with. */
export interface ToolContext {
  /** Real path of the folder the tools are confined to. */
  workdir: string;
  /** Aborted when the call is cancelled (shutdown, lease lost, answered elsewhere). */
  signal: AbortSignal;
  /** Environment of `bash` commands, the worker's own credentials already removed. */
  env: Record<string, string | undefined>;
  /** Default `bash` timeout when the call gives none. */
  bashTimeoutMs: number;
  /** Longest text a tool returns before it is truncated and marked so. */
  maxOutputChars: number;
}
