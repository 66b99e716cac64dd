import type { Command } from 'commander';
import { examples, type Kit } from '../../cli/action';
import { addSelectorFlags } from '../sessions/selectors';
import { DEFAULT_INTERVAL, DEFAULT_MAX_STREAMS, parseListen } from './options';

/** `svc listen`: session events to a webhook or a command, as `stripe listen --forward-to` does. */
export default function build(cmd: Command, kit: Kit): void {
  cmd
    .argument('[sessions...]', 'session IDs, or - to read them from standard input; none and no selector: every session')
    .option('--forward-to <url>', 'POST each event to this URL, signed (Svc-Signature: t=UNIX,v1=HEX)')
    .option('--exec <cmd>', 'run this shell command once per event, the JSON on its standard input')
    .option('--otlp-endpoint <url>', "fold the events into spans and post each settled turn's spans (OTLP/HTTP JSON) to this collector's base URL + /v1/traces")
    .option('--events <types>', 'only these event types, comma-separated (agent.* for a family); session.requires_action is derived by svc')
    .option('--secret-file <file>', 'sign with the secret in this file, mode 600, one line (default: one generated in the config folder)')
    .option('--print-secret', 'print the signing secret (for the receiver) and exit')
    .option('--max-streams <n>', `streams open at once; sessions beyond are polled (default ${DEFAULT_MAX_STREAMS})`)
    .option('--interval <duration>', `how often the fleet and the sessions without a stream are polled (default ${DEFAULT_INTERVAL})`)
    .option('--state <file>', "keep each session's last settled event in FILE (one listener per file); a restart resumes after it, sending nothing again")
    .option('--timeout <duration>', 'stop after this long (exit 0); default: until Ctrl-C');
  addSelectorFlags(cmd);
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
