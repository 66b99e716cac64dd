# fish completion for svc. Generated from the command tree by `svc completion fish`; do not edit.
# Install: see "Shell completion" in svc's README.

function __svc_table
    switch $argv[1]
        case 'C|'
            printf '%s\n' 'agents	Manage agents and their versions' 'api	Make a raw API request' 'artifacts	List, show and download artifacts' 'auth	Log in, check and print credentials' 'completion	Print the shell completion script (bash, zsh or fish)' 'config	Read and write settings and profiles' 'demo	A first look: the emulator, an agent and a session, no account needed' 'doctor	Check config, credentials, connectivity, version header and clock' 'dreams	Manage dreams' 'emulator	Run the local emulator of the service' 'environments	Manage environments (cloud or self-hosted)' 'files	Upload, list, show, download and delete files' 'memories	Read, write, version and redact memories of a store' 'memory-stores	Manage memory stores' 'plugins	Find, publish, validate and download plugins' 'run	Send a message to an agent and follow the session until idle (for CI)' 'sessions	Manage sessions: send, interrupt, continue, confirm, tail, wait, export' 'skills	Manage skills and their versions' 'threads	List, show, archive and tail the threads of a session' 'triggers	Manage triggers, their runs, pause and resume' 'vaults	Manage vaults and their credentials' 'work	Inspect and drive work rows of a self-hosted environment' 'worker	Run a self-hosted worker for an environment'
        case 'O|'
            printf '%s\n' '--profile	config profile to use' '--base-url	service base URL' '--api-key	API key (prefer SVC_API_KEY or svc auth login)' '-o	output format: table, json, ndjson (jsonl), yaml, id' '--output	output format: table, json, ndjson (jsonl), yaml, id' '-q	print only IDs (same as -o id)' '--quiet	print only IDs (same as -o id)' '--jq	filter JSON output with a jq expression' '--debug	log requests and responses to stderr (secrets redacted)' '--no-color	disable colour' '--timeout	per-request timeout' '--max-retries	retries for failed requests (default 3)' '--no-input	never prompt' '-h	display help for command' '--help	display help for command'
        case 'V|'
            printf '%s\n' '--profile' '--base-url' '--api-key' '-o' '--output' '--jq' '--timeout' '--max-retries'
        case 'E||-o' 'E||--output'
            printf '%s\n' 'table' 'json' 'ndjson' 'jsonl' 'yaml' 'id'
        case 'C|agents'
            printf '%s\n' 'list	List agents' 'get	Show one agent' 'create	Create an agent' 'update	Update an agent (PATCH: only the fields given change)' 'delete	Delete an agent' 'archive	Archive an agent' 'versions	List the versions of an agent, newest first'
        case 'O|agents'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|agents list'
            printf '%s\n' '--official-only	only official agents' '--created-after	created after this RFC 3339 time' '--created-before	created before this RFC 3339 time' '--updated-after	updated after this RFC 3339 time' '--updated-before	updated before this RFC 3339 time' '--limit	stop after N items' '--page-size	items per request (1..1000)' '--page-token	start from this page token' '--all	follow next_page_token to the end' '-h	display help for command' '--help	display help for command'
        case 'V|agents list'
            printf '%s\n' '--created-after' '--created-before' '--updated-after' '--updated-before' '--limit' '--page-size' '--page-token'
        case 'O|agents get'
            printf '%s\n' '--version	read this version' '-h	display help for command' '--help	display help for command'
        case 'V|agents get'
            printf '%s\n' '--version'
        case 'A|agents get'
            printf '%s\n' '1'
        case 'O|agents create'
            printf '%s\n' '--data	request body as JSON or YAML, inline, from a file, or - for stdin' '--name	agent name' '--model	model ID' '--description	description' '--system	system prompt' '--idempotency-key	Idempotency-Key to send (default: a fresh UUID)' '-h	display help for command' '--help	display help for command'
        case 'V|agents create'
            printf '%s\n' '--data' '--name' '--model' '--description' '--system' '--idempotency-key'
        case 'O|agents update'
            printf '%s\n' '--data	request body as JSON or YAML, inline, from a file, or - for stdin' '--name	agent name' '--model	model ID' '--description	description' '--system	system prompt' '-h	display help for command' '--help	display help for command'
        case 'V|agents update'
            printf '%s\n' '--data' '--name' '--model' '--description' '--system'
        case 'A|agents update'
            printf '%s\n' '1'
        case 'O|agents delete'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|agents delete'
            printf '%s\n' '1'
        case 'O|agents archive'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|agents archive'
            printf '%s\n' '1'
        case 'O|agents versions'
            printf '%s\n' '--limit	stop after N items' '--page-size	items per request (1..1000)' '--page-token	start from this page token' '--all	follow next_page_token to the end' '-h	display help for command' '--help	display help for command'
        case 'V|agents versions'
            printf '%s\n' '--limit' '--page-size' '--page-token'
        case 'A|agents versions'
            printf '%s\n' '1'
        case 'O|api'
            printf '%s\n' '--data	request body' '-F	a body field (query parameter for GET); repeatable' '--field	a body field (query parameter for GET); repeatable' '-H	an extra header \'Name: value\'; repeatable' '--header	an extra header \'Name: value\'; repeatable' '--paginate	follow next_page_token and print every page' '-h	display help for command' '--help	display help for command'
        case 'V|api'
            printf '%s\n' '--data' '-F' '--field' '-H' '--header'
        case 'A|api'
            printf '%s\n' '1'
        case 'O|artifacts'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'C|auth'
            printf '%s\n' 'login	Verify an API key and store it in the profile (file mode 0600)' 'status	Show the profile, base URL, where the key comes from, and whether it works' 'logout	Remove the profile\'s stored API key' 'token	Print the resolved API key (for scripts)'
        case 'O|auth'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|auth login'
            printf '%s\n' '--with-token	read the key from standard input' '-h	display help for command' '--help	display help for command'
        case 'O|auth status'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|auth logout'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|auth token'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|completion'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|completion'
            printf '%s\n' '1'
        case 'C|config'
            printf '%s\n' 'get	Print a setting of the current profile (secrets masked)' 'set	Set a setting of the current profile' 'unset	Remove a setting from the current profile' 'list	Show the settings of the current profile (secrets masked)' 'use	Make a profile the current one' 'profiles	List the profiles'
        case 'O|config'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|config get'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|config get'
            printf '%s\n' '1'
        case 'O|config set'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|config set'
            printf '%s\n' '1'
        case 'O|config unset'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|config unset'
            printf '%s\n' '1'
        case 'O|config list'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|config use'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'A|config use'
            printf '%s\n' '1'
        case 'O|config profiles'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|demo'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|doctor'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|dreams'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|emulator'
            printf '%s\n' '--port	port to listen on (0 picks a free one)' '--host	address to listen on' '--faults	faults to inject, e.g. rate_limit_every=5,retry_after=1,fail_write_every=3,drop_stream_after=20' '--state	keep state in this JSON snapshot (written atomically)' '--heartbeat-ms	interval of stream keep-alives (default 30000)' '-h	display help for command' '--help	display help for command'
        case 'V|emulator'
            printf '%s\n' '--port' '--host' '--faults' '--state' '--heartbeat-ms'
        case 'O|environments'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|files'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|memories'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|memory-stores'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|plugins'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|run'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|sessions'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|skills'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|threads'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|triggers'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|vaults'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|work'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
        case 'O|worker'
            printf '%s\n' '-h	display help for command' '--help	display help for command'
    end
end

# True when flag $argv[2] takes a value at command path $argv[1] (or is a global option that does).
function __svc_takes_value
    contains -- $argv[2] (__svc_table "V|$argv[1]") (__svc_table "V|")
end

# Resource IDs and other values only the service knows: one "value<TAB>description" per line.
function __svc_dynamic
    svc __complete -- $argv[2..] (commandline -ct) 2>/dev/null
end

function __svc_candidates
    set -l words (commandline -opc)
    set -l cmdpath ''
    set -l opt ''
    set -l i 2
    while test $i -le (count $words)
        set -l w $words[$i]
        switch $w
            case '-*=*'
            case '-*'
                if __svc_takes_value "$cmdpath" $w
                    set i (math $i + 1)
                    test $i -gt (count $words); and set opt $w
                end
            case '*'
                if contains -- $w (__svc_table "C|$cmdpath" | string replace -r '\t.*' '')
                    set cmdpath (string trim -- "$cmdpath $w")
                end
        end
        set i (math $i + 1)
    end
    if test -n "$opt"
        set -l values (__svc_table "E|$cmdpath|$opt")
        test -z "$values"; and set values (__svc_table "E||$opt")
        if test -n "$values"
            printf '%s\n' $values
        else
            __svc_dynamic $words
        end
        return
    end
    if string match -q -- '-*' (commandline -ct)
        __svc_table "O|$cmdpath"
        test -n "$cmdpath"; and __svc_table "O|"
        return
    end
    set -l commands (__svc_table "C|$cmdpath")
    if test -n "$commands"
        printf '%s\n' $commands
    else if test -n "$(__svc_table "A|$cmdpath")"
        __svc_dynamic $words
    end
end

complete -c svc -f -a '(__svc_candidates)'
