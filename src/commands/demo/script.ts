/** What the demo asks of the scripted model (docs/behaviour.md "The emulator"): one directive per message, run in queue order. */
export const DEMO_MESSAGES = ['/delegate 2', '/confirm bash {"command":"ls -la"}'] as const;

/** Model step on a terminal: slow enough to watch the deltas stream. */
export const TTY_STEP_MS = 60;
/** The non-interactive demo gives up after this long (a stuck emulator must not hang a script). */
export const TRANSCRIPT_LIMIT_MS = 60_000;
