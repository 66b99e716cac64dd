/** What the live view asks of the outside world; open.ts gives the real one, tests a recording fake. */
import type { InputMode } from '../wire/events';

export interface ActionSink {
  /** `user.interrupt` with the known epoch, then the outcome read back from the session. */
  interrupt(knownEpoch: string | undefined): void;
  /** Continue, then poll until `continue_pending` clears on the returned epoch. */
  continue(): void;
  send(text: string, mode: InputMode): void;
  /** Answers an awaited `agent.tool_use` (docs/service.md: user.tool_confirmation payload). */
  confirm(eventId: string, result: 'allow' | 'deny'): void;
  /** Leave the view (q); the session keeps running. */
  quit(): void;
  /** Leave the view as interrupted (Ctrl-C: exit 130); the session keeps running. */
  abort(): void;
}
