/** What a tail follows and how (`sessions tail`, `threads tail`): parsed from the command line by the command. */
export interface TailOptions {
  sessionId: string;
  threadId?: string;
  deltas: boolean;
  /** As FollowOptions.cursor: undefined (history, then live), 'now', or an opaque frame id. */
  cursor?: string;
  untilIdle: boolean;
  /** NDJSON even on a TTY. */
  noLive: boolean;
}
