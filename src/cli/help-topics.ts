import type { HELP_TOPICS } from './program';

/** `svc help TOPIC`: what gh keeps as help topics, from the command-line contract. */
/** `reference` is built from the command tree (./reference.ts), not written here. */
export const TOPIC_TEXT: Record<Exclude<(typeof HELP_TOPICS)[number], 'reference'>, string> = {
  environment: `Environment variables svc reads (a flag wins over a variable, a variable over the profile):

  SVC_API_KEY          the API key; never asks the keychain (else the profile's, from the keychain or the file; see svc auth login)
  SVC_BASE_URL         the service's base URL (default http://127.0.0.1:4010, the emulator)
  SVC_PROFILE          the config profile to use (default: the current one, else "default")
  SVC_ENVIRONMENT_KEY  an environment's work key, for svc work and svc worker
  SVC_API_VERSION      the svc-api-version header (default 2026-09-01-beta)
  SVC_CONFIG_DIR       the config directory (else $XDG_CONFIG_HOME/svc, else ~/.config/svc)
  SVC_DEBUG            1: log each request and response line to stderr; api: with headers and bodies (secrets masked)
  SVC_MAX_RETRIES      retries of a failed request (default 3)
  SVC_NO_UPDATE_NOTIFIER  1: never check for a newer svc nor say so
  SVC_UPDATE_URL       where the daily check asks for the newest version (default: the npm registry's document)
  SVC_CA_FILE          a PEM file of CA certificates svc trusts beside Node's own (as the profile's ca_file)
  HTTPS_PROXY          the proxy of https: URLs (https_proxy wins when both are set, as curl reads them)
  HTTP_PROXY           the proxy of http: URLs (http_proxy wins); user:password in its URL answer a 407
  NO_PROXY             hosts reached without the proxy: a.example,.b.example,host:port,* (no_proxy wins);
                       loopback is proxied unless named here
  NODE_EXTRA_CA_CERTS  Node's own: more CA certificates, kept beside SVC_CA_FILE's
  OTEL_EXPORTER_OTLP_ENDPOINT  the OpenTelemetry collector's base URL for --otlp-endpoint's spans (svc adds /v1/traces)
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT  the full URL spans are posted to (wins over the base URL)
  OTEL_EXPORTER_OTLP_HEADERS  headers sent with spans: key=value,key2=value2 (URL-encoded values)
  OTEL_EXPORTER_OTLP_TRACES_HEADERS  the same, for traces only (wins key by key)
  SVC_ACCESSIBLE       1: accessible mode (as the profile's accessible): numbered questions answered with Enter, and
                       plain appended lines for the live view, top and progress (no redrawn screen); 0: off
  NO_COLOR             set (not empty): no colour, whatever else says (as --no-color)
  FORCE_COLOR          not 0: colour even when the output is not a terminal
  CLICOLOR_FORCE       not 0: the same as FORCE_COLOR
  CLICOLOR             0: no colour (any other value: colour on a terminal, the default)
  CI                   never prompt (as --no-input): no confirmation and no picker for a missing ID; no update notice; no pager
  SVC_PAGER            the pager for long output on a terminal (else PAGER, else less -FRX); empty: no pager (as --no-pager)
  PAGER                the pager when SVC_PAGER is unset; empty: no pager
  LESS                 options of less as the pager (when unset svc sets FRX: quit on a short text, keep colour)
  LV                   options of lv as the pager (when unset svc sets -c: keep colour)
  PATH                 where extensions (executables named svc-NAME) are found
  COLUMNS              the width of sessions trace's waterfall when the terminal does not say its own
  HOME                 the home directory, for ~/.config/svc and ~/.cache/svc
  XDG_CONFIG_HOME      the config root (config in $XDG_CONFIG_HOME/svc)
  XDG_CACHE_HOME       the cache root: compiled code, stats, the update check's state (else ~/.cache)
  NODE_DISABLE_COMPILE_CACHE  set: svc keeps no compiled-code cache
  SNAP                 read only to keep config writes atomic when svc is started from a snap
  DBUS_SESSION_BUS_ADDRESS  the D-Bus session: without one there is no Secret Service, so keys go to the 0600 file
  (apply)              a config file's secret may name a variable to read its value from (svc apply)

Set for programs svc starts: SVC_BIN (how to run this svc again) for extensions and ! aliases, with
--profile, --base-url, --debug and --no-color given before their name as SVC_PROFILE, SVC_BASE_URL,
SVC_DEBUG and NO_COLOR; the API key is never added. svc listen --exec and svc worker set their own
(see their --help).

svc sends no telemetry: it talks only to the service's base URL, once a day on a terminal to
SVC_UPDATE_URL for the newest version (SVC_NO_UPDATE_NOTIFIER=1 or CI turns that off), and to an
OpenTelemetry collector only when asked (--otlp-endpoint or OTEL_EXPORTER_OTLP_*).
`,
  'exit-codes': `Exit codes:

  0    success
  1    unexpected failure (a bug)
  2    usage: unknown command or flag, missing or invalid argument, unreadable input file, bad config;
       checked before any request is sent
  3    invalid_parameter_error, invalid_request_error
  4    authentication_error, no credential configured, or the system keychain holding it did not answer (3 s);
       a proxy that asked for credentials (407)
  5    permission_denied_error
  6    resource_not_found_error
  7    conflict_error, failed_precondition_error
  8    rate_limit_reached_error after retries, exceeded_current_quota_error
  9    server_error, any other status >= 500, a response body of another shape
  10   network failure or timeout: no response; a proxy that cannot be reached or refused the connection
  11   run, sessions wait, sessions tail --until: the turn ended in session.error or stopped unfinished,
       or the session was terminated or archived
  12   the same commands: the turn was interrupted, or the input waits behind an interrupt
       (svc sessions continue S moves it on)
  13   the same commands: the turn stopped waiting on a human: a tool confirmation or a custom tool result
       (the line names the svc sessions confirm or tool-result command)
  14   svc worker serve: the session token was refused or the worker went away
  124  --timeout of run / sessions wait elapsed
  130  interrupted by Ctrl-C, or SIGTERM on run (--interrupt-on-exit interrupts the session first)

Waiting on many (sessions wait A B, run --parallel) exits with the worst of their codes, in this order:
11, then 13, then 12, then 124.

Every failure prints one line on stderr: error: MESSAGE (type=… status=… param=… request_id=…);
with an explicit -o json|ndjson that line is the service's error object as JSON (for 11, 12 and 13:
type session_failed, session_interrupted or session_waiting, with session_id).
`,
  formatting: `Output formats (-o, --output FORMAT; data on stdout, messages on stderr):

  table    aligned columns (the default on a terminal); times shown as ages (3m ago)
  wide     the table with the columns that did not fit it (a session's environment, labels, created, archived)
  custom-columns=HEADER:.path,…
           a table of your own columns (kubectl's syntax): each a header and a dotted path into the
           service's object, [n] for an array's item; <none> where the path leads nowhere
  json     the object, or a list as a JSON array (the default when stdout is not a terminal)
  ndjson   one JSON object per line (alias jsonl); lists stream item by item
  yaml     YAML
  id       only the IDs, one per line (also -q)

json, ndjson and yaml keep every field the service sent, in its order, with times as it sent them.

--jq EXPR filters the JSON output with jq:
  $ svc agents list --jq '.[].name'
  $ svc sessions get SESSION_ID --jq .status

Lists: --limit N, --page-size N (1..1000), --page-token T, --all. A list cut by --limit or a page says so
on stderr ("3 more: use --all"). --sort-by .path sorts what was fetched (one page, or everything with --all),
in any format: numbers by size, text by character, a missing value last.

--no-headers prints a table (wide, custom-columns too) without its header line, a table even when piped:
  $ svc sessions list -o custom-columns=ID:.id,ENV:.environment_id --no-headers | while read -r id env; do …; done
-w rows honour -o wide, -o custom-columns (the EVENT column, then yours) and --no-headers.

Long tables and YAML on a terminal go through a pager (SVC_PAGER, else PAGER, else less -FRX), as do
svc sessions export and svc help reference; --no-pager or an empty SVC_PAGER turn it off. Never off a
terminal, with CI set, nor for the live view or svc top.

A table shows the agent's name beside its ID where a row names an agent: reviewer (agent_…@3).
Commands that print text (downloads, memories cat, auth token, config get, completion, demo, the
emulator, the worker) refuse -o, -q and --jq; svc api prints the body as received and takes --jq.

A session's STATUS in tables, -w rows, pickers, svc top, the live view and exports is its derived
state: running, idle, failed (the error type), interrupted (input held), waiting (on a confirmation or a
tool result), rescheduling, terminated; json, ndjson and yaml keep the service's status and stop_reason.
--status takes those words, comma-separated (idle also matches failed, interrupted and waiting sessions,
whose status is idle); any other word is exit 2.

A missing ID on a terminal (svc sessions tail, svc agents get, …) offers the recent ones to pick from:
arrows or j/k, Enter, Esc. Never with --no-input, CI set, or input or output not a terminal.
`,
};
