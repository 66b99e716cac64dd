/** What the board asks of the outside world; the command gives the real one (bulk executor, live view), tests a recording fake. */
export type WriteAction = 'interrupt' | 'continue' | 'archive';

export interface BoardSink {
  /** A write on these sessions through the bulk executor; the outcome comes back as a footer line. */
  act(action: WriteAction, ids: readonly string[]): void;
  /** Answers the session's oldest awaited tool confirmation. */
  answer(sessionId: string, result: 'allow' | 'deny'): void;
  /** Opens the session's live view in place of the board; its `q` comes back. */
  open(sessionId: string): void;
  quit(): void;
  /** Ctrl-C: leave as interrupted (exit 130). */
  abort(): void;
}
