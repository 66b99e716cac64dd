import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addFlags } from '../../cli/flags';
import { LISTEN_FLAGS, parseListen } from './options';

/** `svc listen`: session events to a webhook or a command, as `stripe listen --forward-to` does. */
export default function build(cmd: Command, kit: Kit): void {
  addFlags(cmd.argument('[sessions...]', 'session IDs, or - to read them from standard input; none and no selector: every session'), LISTEN_FLAGS);
  cmd.addHelpText(
    'after',
    `
Delivery:
  --forward-to: POST {"session_id","event"} with Content-Type application/json, Svc-Delivery-Id (the same for an
  event across retries and restarts: drop one you already took), Svc-Event-Type and Svc-Signature
  t=UNIX,v1=HEX, HEX the HMAC-SHA256 of "UNIX.BODY" keyed with the secret (the file's one line, without its
  newline). A 2xx accepts it; network errors, 408, 429 (after its Retry-After, at most 60 s) and 5xx are
  retried with back-off until accepted; any other status is reported on stderr and the event dropped.
  --exec: CMD runs through /bin/sh once per event with the same JSON on standard input and SVC_SESSION_ID,
  SVC_EVENT_TYPE, SVC_EVENT_ID, SVC_DELIVERY_ID, SVC_DELIVERY_ATTEMPT in its environment, and no other SVC_* variable (never the API
  key). Exit 0 accepts the event; any other exit, a signal or 30 s without exiting is retried with back-off like
  a 5xx (exit 0 to drop an event you cannot handle). Its output goes to stderr; what it leaves running is
  ended when svc stops.
  Each session's events are delivered in order, one at a time; stdout gets one line per settled delivery.
  session.requires_action (data: kind, event_id, name, input) follows an agent.tool_use that asks for
  confirmation or an agent.custom_tool_use: the session waits on a human.
  Ctrl-C stops reading, lets deliveries in flight finish for 5 s, saves --state, and exits 130; SIGTERM does the
  same and exits 0 (a clean stop for a service manager).
`,
  );
  cmd.action(
    kit.verb(parseListen, async (ctx, o) => {
      const { runListen } = await import('./run');
      return runListen(ctx, o);
    }),
  );
  examples(cmd, [
    'svc listen --forward-to http://localhost:8080/hooks --events session.requires_action,session.error',
    'svc listen --forward-to https://hooks.example.com/svc --state ~/.svc-listen.json',
    "svc listen sesn_123 --exec 'jq -r .event.type >> events.log'",
    'svc listen --print-secret',
    'svc listen --status running --otlp-endpoint http://localhost:4318',
  ]);
}
