# bash completion for svc. Generated from the command tree by `svc completion bash`; do not edit.
# Uses bash-completion when it is loaded, plain bash otherwise. Install: see "Shell completion" in svc's README.

__svc_table() {
  case "$1" in
    'C|') REPLY='agents artifacts dreams environments files memories memory-stores plugins skills triggers vaults approve listen run sessions stats threads top work worker alias apply auth completion config diff extension api demo doctor emulator version help' ;;
    'O|') REPLY='--profile --base-url --api-key -o --output --no-headers -q --quiet --jq --debug --no-color --no-pager --request-timeout --max-retries --no-input -h --help' ;;
    'V|') REPLY='--profile --base-url --api-key -o --output --jq --request-timeout --max-retries' ;;
    'E||-o'|'E||--output') REPLY='table wide custom-columns= json ndjson jsonl yaml id' ;;
    'C|agents') REPLY='list get create update delete archive apply versions' ;;
    'O|agents') REPLY='-h --help' ;;
    'O|agents list') REPLY='--official-only --created-after --created-before --updated-after --updated-before --older-than --newer-than -l --selector --limit --page-size --page-token --all --sort-by -w --watch --interval --timeout -h --help' ;;
    'V|agents list') REPLY='--created-after --created-before --updated-after --updated-before --older-than --newer-than -l --selector --limit --page-size --page-token --sort-by --interval --timeout' ;;
    'O|agents get') REPLY='--version -h --help' ;;
    'V|agents get') REPLY='--version' ;;
    'A|agents get') REPLY='1' ;;
    'O|agents create') REPLY='--data --name --model --description --system --idempotency-key --metadata -h --help' ;;
    'V|agents create') REPLY='--data --name --model --description --system --idempotency-key --metadata' ;;
    'F|agents create|--data') REPLY='@file' ;;
    'O|agents update') REPLY='--data --name --model --description --system --metadata -h --help' ;;
    'V|agents update') REPLY='--data --name --model --description --system --metadata' ;;
    'F|agents update|--data') REPLY='@file' ;;
    'A|agents update') REPLY='1' ;;
    'O|agents delete') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|agents delete') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|agents delete') REPLY='1' ;;
    'O|agents archive') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|agents archive') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|agents archive') REPLY='1' ;;
    'O|agents apply') REPLY='--dry-run --update-secrets --idempotency-key -h --help' ;;
    'V|agents apply') REPLY='--idempotency-key' ;;
    'F|agents apply|#0') REPLY='file' ;;
    'A|agents apply') REPLY='1' ;;
    'O|agents versions') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|agents versions') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|agents versions') REPLY='1' ;;
    'C|artifacts') REPLY='list get versions download' ;;
    'O|artifacts') REPLY='-h --help' ;;
    'O|artifacts list') REPLY='--session --limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|artifacts list') REPLY='--session --limit --page-size --page-token --sort-by' ;;
    'O|artifacts get') REPLY='-h --help' ;;
    'A|artifacts get') REPLY='1' ;;
    'O|artifacts versions') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|artifacts versions') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|artifacts versions') REPLY='1' ;;
    'O|artifacts download') REPLY='--version -O --output-file -h --help' ;;
    'V|artifacts download') REPLY='--version -O --output-file' ;;
    'F|artifacts download|-O'|'F|artifacts download|--output-file') REPLY='file' ;;
    'A|artifacts download') REPLY='1' ;;
    'C|dreams') REPLY='list get create cancel' ;;
    'O|dreams') REPLY='-h --help' ;;
    'O|dreams list') REPLY='--memory-store --limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|dreams list') REPLY='--memory-store --limit --page-size --page-token --sort-by' ;;
    'O|dreams get') REPLY='-h --help' ;;
    'A|dreams get') REPLY='1' ;;
    'O|dreams create') REPLY='--data --memory-store --instructions --idempotency-key -h --help' ;;
    'V|dreams create') REPLY='--data --memory-store --instructions --idempotency-key' ;;
    'F|dreams create|--data') REPLY='@file' ;;
    'O|dreams cancel') REPLY='-h --help' ;;
    'A|dreams cancel') REPLY='1' ;;
    'C|environments') REPLY='list get create update delete archive apply' ;;
    'O|environments') REPLY='-h --help' ;;
    'O|environments list') REPLY='--official-only --older-than --newer-than -l --selector --limit --page-size --page-token --all --sort-by -w --watch --interval --timeout -h --help' ;;
    'V|environments list') REPLY='--older-than --newer-than -l --selector --limit --page-size --page-token --sort-by --interval --timeout' ;;
    'O|environments get') REPLY='-h --help' ;;
    'A|environments get') REPLY='1' ;;
    'O|environments create') REPLY='--data --name --description --self-hosted --cloud --proxy-mode --proxy-host --idempotency-key --metadata -h --help' ;;
    'V|environments create') REPLY='--data --name --description --proxy-mode --proxy-host --idempotency-key --metadata' ;;
    'E|environments create|--proxy-mode') REPLY='route_all limited' ;;
    'F|environments create|--data') REPLY='@file' ;;
    'O|environments update') REPLY='--data --name --description --self-hosted --cloud --proxy-mode --proxy-host --metadata -h --help' ;;
    'V|environments update') REPLY='--data --name --description --proxy-mode --proxy-host --metadata' ;;
    'E|environments update|--proxy-mode') REPLY='route_all limited' ;;
    'F|environments update|--data') REPLY='@file' ;;
    'A|environments update') REPLY='1' ;;
    'O|environments delete') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|environments delete') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|environments delete') REPLY='1' ;;
    'O|environments archive') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|environments archive') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|environments archive') REPLY='1' ;;
    'O|environments apply') REPLY='--dry-run --update-secrets --idempotency-key -h --help' ;;
    'V|environments apply') REPLY='--idempotency-key' ;;
    'F|environments apply|#0') REPLY='file' ;;
    'A|environments apply') REPLY='1' ;;
    'C|files') REPLY='list get upload download delete' ;;
    'O|files') REPLY='-h --help' ;;
    'O|files list') REPLY='--limit --page-size --page-token --all --sort-by --no-version-header -h --help' ;;
    'V|files list') REPLY='--limit --page-size --page-token --sort-by' ;;
    'O|files get') REPLY='--no-version-header -h --help' ;;
    'A|files get') REPLY='1' ;;
    'O|files upload') REPLY='--purpose --idempotency-key --no-version-header -h --help' ;;
    'V|files upload') REPLY='--purpose --idempotency-key' ;;
    'E|files upload|--purpose') REPLY='user_data batch' ;;
    'F|files upload|#0') REPLY='file' ;;
    'A|files upload') REPLY='1' ;;
    'O|files download') REPLY='-O --output-file --no-version-header -h --help' ;;
    'V|files download') REPLY='-O --output-file' ;;
    'F|files download|-O'|'F|files download|--output-file') REPLY='file' ;;
    'A|files download') REPLY='1' ;;
    'O|files delete') REPLY='--no-version-header -h --help' ;;
    'A|files delete') REPLY='1' ;;
    'C|memories') REPLY='list get cat write rename delete versions redact' ;;
    'O|memories') REPLY='-h --help' ;;
    'O|memories list') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|memories list') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|memories list') REPLY='1' ;;
    'O|memories get') REPLY='-h --help' ;;
    'A|memories get') REPLY='1' ;;
    'O|memories cat') REPLY='--version -O --output-file -h --help' ;;
    'V|memories cat') REPLY='--version -O --output-file' ;;
    'F|memories cat|-O'|'F|memories cat|--output-file') REPLY='file' ;;
    'A|memories cat') REPLY='1' ;;
    'O|memories write') REPLY='--file --text --base-version --idempotency-key -h --help' ;;
    'V|memories write') REPLY='--file --text --base-version --idempotency-key' ;;
    'F|memories write|--file') REPLY='file' ;;
    'A|memories write') REPLY='1' ;;
    'O|memories rename') REPLY='-h --help' ;;
    'A|memories rename') REPLY='1' ;;
    'O|memories delete') REPLY='-h --help' ;;
    'A|memories delete') REPLY='1' ;;
    'O|memories versions') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|memories versions') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|memories versions') REPLY='1' ;;
    'O|memories redact') REPLY='-y --yes -h --help' ;;
    'A|memories redact') REPLY='1' ;;
    'C|memory-stores') REPLY='list get create update delete archive' ;;
    'O|memory-stores') REPLY='-h --help' ;;
    'O|memory-stores list') REPLY='--include-archived --older-than --newer-than -l --selector --limit --page-size --page-token --all --sort-by -w --watch --interval --timeout -h --help' ;;
    'V|memory-stores list') REPLY='--older-than --newer-than -l --selector --limit --page-size --page-token --sort-by --interval --timeout' ;;
    'O|memory-stores get') REPLY='-h --help' ;;
    'A|memory-stores get') REPLY='1' ;;
    'O|memory-stores create') REPLY='--data --name --description --idempotency-key --metadata -h --help' ;;
    'V|memory-stores create') REPLY='--data --name --description --idempotency-key --metadata' ;;
    'F|memory-stores create|--data') REPLY='@file' ;;
    'O|memory-stores update') REPLY='--data --name --description --metadata -h --help' ;;
    'V|memory-stores update') REPLY='--data --name --description --metadata' ;;
    'F|memory-stores update|--data') REPLY='@file' ;;
    'A|memory-stores update') REPLY='1' ;;
    'O|memory-stores delete') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|memory-stores delete') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|memory-stores delete') REPLY='1' ;;
    'O|memory-stores archive') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|memory-stores archive') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|memory-stores archive') REPLY='1' ;;
    'C|plugins') REPLY='list get publish validate versions download archive' ;;
    'O|plugins') REPLY='-h --help' ;;
    'O|plugins list') REPLY='--query --category --scope --limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|plugins list') REPLY='--query --category --scope --limit --page-size --page-token --sort-by' ;;
    'E|plugins list|--category') REPLY='finance productivity creative_3d dev_tools learning featured' ;;
    'E|plugins list|--scope') REPLY='official project' ;;
    'O|plugins get') REPLY='-h --help' ;;
    'A|plugins get') REPLY='1' ;;
    'O|plugins publish') REPLY='--plugin --idempotency-key -h --help' ;;
    'V|plugins publish') REPLY='--plugin --idempotency-key' ;;
    'F|plugins publish|#0') REPLY='file' ;;
    'A|plugins publish') REPLY='1' ;;
    'O|plugins validate') REPLY='--idempotency-key -h --help' ;;
    'V|plugins validate') REPLY='--idempotency-key' ;;
    'F|plugins validate|#0') REPLY='file' ;;
    'A|plugins validate') REPLY='1' ;;
    'O|plugins versions') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|plugins versions') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|plugins versions') REPLY='1' ;;
    'O|plugins download') REPLY='--version -O --output-file -h --help' ;;
    'V|plugins download') REPLY='--version -O --output-file' ;;
    'F|plugins download|-O'|'F|plugins download|--output-file') REPLY='file' ;;
    'A|plugins download') REPLY='1' ;;
    'O|plugins archive') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|plugins archive') REPLY='--concurrency' ;;
    'A|plugins archive') REPLY='1' ;;
    'C|skills') REPLY='list get create create-version versions download archive delete' ;;
    'O|skills') REPLY='-h --help' ;;
    'O|skills list') REPLY='--category --include-archived --limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|skills list') REPLY='--category --limit --page-size --page-token --sort-by' ;;
    'O|skills get') REPLY='-h --help' ;;
    'A|skills get') REPLY='1' ;;
    'O|skills create') REPLY='--file --name --description --categories --idempotency-key -h --help' ;;
    'V|skills create') REPLY='--file --name --description --categories --idempotency-key' ;;
    'F|skills create|--file') REPLY='file' ;;
    'F|skills create|#0') REPLY='file' ;;
    'A|skills create') REPLY='1' ;;
    'O|skills create-version') REPLY='--idempotency-key -h --help' ;;
    'V|skills create-version') REPLY='--idempotency-key' ;;
    'F|skills create-version|#1') REPLY='file' ;;
    'A|skills create-version') REPLY='1' ;;
    'O|skills versions') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|skills versions') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|skills versions') REPLY='1' ;;
    'O|skills download') REPLY='--version -O --output-file -h --help' ;;
    'V|skills download') REPLY='--version -O --output-file' ;;
    'F|skills download|-O'|'F|skills download|--output-file') REPLY='file' ;;
    'A|skills download') REPLY='1' ;;
    'O|skills archive') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|skills archive') REPLY='--concurrency' ;;
    'A|skills archive') REPLY='1' ;;
    'O|skills delete') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|skills delete') REPLY='--concurrency' ;;
    'A|skills delete') REPLY='1' ;;
    'C|triggers') REPLY='list get create update delete apply runs run pause resume' ;;
    'O|triggers') REPLY='-h --help' ;;
    'O|triggers list') REPLY='--agent --older-than --newer-than -l --selector --limit --page-size --page-token --all --sort-by -w --watch --interval --timeout -h --help' ;;
    'V|triggers list') REPLY='--agent --older-than --newer-than -l --selector --limit --page-size --page-token --sort-by --interval --timeout' ;;
    'O|triggers get') REPLY='-h --help' ;;
    'A|triggers get') REPLY='1' ;;
    'O|triggers create') REPLY='--data --name --agent --agent-version --environment --session-mode --cron --timezone --message --idempotency-key --metadata -h --help' ;;
    'V|triggers create') REPLY='--data --name --agent --agent-version --environment --session-mode --cron --timezone --message --idempotency-key --metadata' ;;
    'E|triggers create|--session-mode') REPLY='new_session reuse_session' ;;
    'F|triggers create|--data') REPLY='@file' ;;
    'O|triggers update') REPLY='--data --name --agent --agent-version --environment --session-mode --cron --timezone --message --metadata -h --help' ;;
    'V|triggers update') REPLY='--data --name --agent --agent-version --environment --session-mode --cron --timezone --message --metadata' ;;
    'E|triggers update|--session-mode') REPLY='new_session reuse_session' ;;
    'F|triggers update|--data') REPLY='@file' ;;
    'A|triggers update') REPLY='1' ;;
    'O|triggers delete') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found --older-than --newer-than -l --selector -h --help' ;;
    'V|triggers delete') REPLY='--concurrency --older-than --newer-than -l --selector' ;;
    'A|triggers delete') REPLY='1' ;;
    'O|triggers apply') REPLY='--dry-run --update-secrets --idempotency-key -h --help' ;;
    'V|triggers apply') REPLY='--idempotency-key' ;;
    'F|triggers apply|#0') REPLY='file' ;;
    'A|triggers apply') REPLY='1' ;;
    'O|triggers runs') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|triggers runs') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|triggers runs') REPLY='1' ;;
    'O|triggers run') REPLY='-h --help' ;;
    'A|triggers run') REPLY='1' ;;
    'O|triggers pause') REPLY='-h --help' ;;
    'A|triggers pause') REPLY='1' ;;
    'O|triggers resume') REPLY='-h --help' ;;
    'A|triggers resume') REPLY='1' ;;
    'C|vaults') REPLY='list get create update delete archive credentials' ;;
    'O|vaults') REPLY='-h --help' ;;
    'O|vaults list') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|vaults list') REPLY='--limit --page-size --page-token --sort-by' ;;
    'O|vaults get') REPLY='-h --help' ;;
    'A|vaults get') REPLY='1' ;;
    'O|vaults create') REPLY='--data --name --description --idempotency-key --metadata -h --help' ;;
    'V|vaults create') REPLY='--data --name --description --idempotency-key --metadata' ;;
    'F|vaults create|--data') REPLY='@file' ;;
    'O|vaults update') REPLY='--data --name --description --metadata -h --help' ;;
    'V|vaults update') REPLY='--data --name --description --metadata' ;;
    'F|vaults update|--data') REPLY='@file' ;;
    'A|vaults update') REPLY='1' ;;
    'O|vaults delete') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|vaults delete') REPLY='--concurrency' ;;
    'A|vaults delete') REPLY='1' ;;
    'O|vaults archive') REPLY='-y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|vaults archive') REPLY='--concurrency' ;;
    'A|vaults archive') REPLY='1' ;;
    'C|vaults credentials') REPLY='list get create update delete' ;;
    'O|vaults credentials') REPLY='-h --help' ;;
    'O|vaults credentials list') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|vaults credentials list') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|vaults credentials list') REPLY='1' ;;
    'O|vaults credentials get') REPLY='-h --help' ;;
    'A|vaults credentials get') REPLY='1' ;;
    'O|vaults credentials create') REPLY='--data --name --type --egress-environment --idempotency-key --value-stdin --value-file --value -h --help' ;;
    'V|vaults credentials create') REPLY='--data --name --type --egress-environment --idempotency-key --value-file --value' ;;
    'E|vaults credentials create|--type') REPLY='static_bearer environment_variable mcp_oauth' ;;
    'F|vaults credentials create|--data') REPLY='@file' ;;
    'F|vaults credentials create|--value-file') REPLY='file' ;;
    'A|vaults credentials create') REPLY='1' ;;
    'O|vaults credentials update') REPLY='--data --name --egress-environment --value-stdin --value-file --value -h --help' ;;
    'V|vaults credentials update') REPLY='--data --name --egress-environment --value-file --value' ;;
    'F|vaults credentials update|--data') REPLY='@file' ;;
    'F|vaults credentials update|--value-file') REPLY='file' ;;
    'A|vaults credentials update') REPLY='1' ;;
    'O|vaults credentials delete') REPLY='-h --help' ;;
    'A|vaults credentials delete') REPLY='1' ;;
    'C|approve') REPLY='lint test serve' ;;
    'O|approve') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type --list --readonly --interval -h --help' ;;
    'V|approve') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --interval' ;;
    'E|approve|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'O|approve lint') REPLY='-h --help' ;;
    'F|approve lint|#0') REPLY='file' ;;
    'A|approve lint') REPLY='1' ;;
    'O|approve test') REPLY='-h --help' ;;
    'F|approve test|#0') REPLY='file' ;;
    'A|approve test') REPLY='1' ;;
    'O|approve serve') REPLY='--policy --state --audit --metrics-addr --escalate-to --secret-file --escalate-exec --deny-after --max-streams --interval --timeout --status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -h --help' ;;
    'V|approve serve') REPLY='--policy --state --audit --metrics-addr --escalate-to --secret-file --escalate-exec --deny-after --max-streams --interval --timeout --status --agent --older-than --newer-than --idle-for -l --selector --error-type' ;;
    'E|approve serve|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'F|approve serve|--policy') REPLY='file' ;;
    'F|approve serve|--state') REPLY='file' ;;
    'F|approve serve|--audit') REPLY='file' ;;
    'F|approve serve|--secret-file') REPLY='file' ;;
    'O|listen') REPLY='--forward-to --exec --otlp-endpoint --events --secret-file --print-secret --max-streams --interval --state --timeout --status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -h --help' ;;
    'V|listen') REPLY='--forward-to --exec --otlp-endpoint --events --secret-file --max-streams --interval --state --timeout --status --agent --older-than --newer-than --idle-for -l --selector --error-type' ;;
    'E|listen|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'F|listen|--secret-file') REPLY='file' ;;
    'F|listen|--state') REPLY='file' ;;
    'A|listen') REPLY='1' ;;
    'O|run') REPLY='--agent --environment --session --message --message-file --timeout --deltas --no-live --continue --interrupt-on-exit --title --idempotency-key --parallel --metadata -h --help' ;;
    'V|run') REPLY='--agent --environment --session --message --message-file --timeout --title --idempotency-key --parallel --metadata' ;;
    'F|run|--message-file') REPLY='file' ;;
    'A|run') REPLY='1' ;;
    'C|sessions') REPLY='list get create update delete archive send interrupt continue confirm tool-result pending resources events export tail wait stats trace grep diff explain rerun' ;;
    'O|sessions') REPLY='-h --help' ;;
    'O|sessions list') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type --include-archived --created-after --created-before --updated-after --updated-before --limit --page-size --page-token --all --sort-by -w --watch --interval --timeout -h --help' ;;
    'V|sessions list') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --created-after --created-before --updated-after --updated-before --limit --page-size --page-token --sort-by --interval --timeout' ;;
    'E|sessions list|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'O|sessions get') REPLY='-h --help' ;;
    'A|sessions get') REPLY='1' ;;
    'O|sessions create') REPLY='--data --agent --agent-id --agent-version --environment --title --vault --resource-file --idempotency-key --metadata -h --help' ;;
    'V|sessions create') REPLY='--data --agent --agent-id --agent-version --environment --title --vault --resource-file --idempotency-key --metadata' ;;
    'F|sessions create|--data') REPLY='@file' ;;
    'O|sessions update') REPLY='--data --title --metadata -h --help' ;;
    'V|sessions update') REPLY='--data --title --metadata' ;;
    'F|sessions update|--data') REPLY='@file' ;;
    'A|sessions update') REPLY='1' ;;
    'O|sessions delete') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|sessions delete') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --concurrency' ;;
    'E|sessions delete|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions delete') REPLY='1' ;;
    'O|sessions archive') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|sessions archive') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --concurrency' ;;
    'E|sessions archive|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions archive') REPLY='1' ;;
    'O|sessions send') REPLY='--text --data --steer --file --idempotency-key -h --help' ;;
    'V|sessions send') REPLY='--text --data --file --idempotency-key' ;;
    'F|sessions send|--data') REPLY='@file' ;;
    'A|sessions send') REPLY='1' ;;
    'O|sessions interrupt') REPLY='--expected-epoch --wait --status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -y --yes --dry-run --concurrency --fail-fast -h --help' ;;
    'V|sessions interrupt') REPLY='--expected-epoch --status --agent --older-than --newer-than --idle-for -l --selector --error-type --concurrency' ;;
    'E|sessions interrupt|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions interrupt') REPLY='1' ;;
    'O|sessions continue') REPLY='--wait --status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -y --yes --dry-run --concurrency --fail-fast -h --help' ;;
    'V|sessions continue') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --concurrency' ;;
    'E|sessions continue|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions continue') REPLY='1' ;;
    'O|sessions confirm') REPLY='--allow --deny --message -h --help' ;;
    'V|sessions confirm') REPLY='--message' ;;
    'A|sessions confirm') REPLY='1' ;;
    'O|sessions tool-result') REPLY='--text --data --error -h --help' ;;
    'V|sessions tool-result') REPLY='--text --data' ;;
    'F|sessions tool-result|--data') REPLY='@file' ;;
    'A|sessions tool-result') REPLY='1' ;;
    'O|sessions pending') REPLY='-h --help' ;;
    'A|sessions pending') REPLY='1' ;;
    'C|sessions resources') REPLY='list get' ;;
    'O|sessions resources') REPLY='-h --help' ;;
    'O|sessions resources list') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|sessions resources list') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|sessions resources list') REPLY='1' ;;
    'O|sessions resources get') REPLY='-h --help' ;;
    'A|sessions resources get') REPLY='1' ;;
    'O|sessions events') REPLY='--thread --order --limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|sessions events') REPLY='--thread --order --limit --page-size --page-token --sort-by' ;;
    'E|sessions events|--order') REPLY='asc desc' ;;
    'A|sessions events') REPLY='1' ;;
    'O|sessions export') REPLY='--format -O --output-file -h --help' ;;
    'V|sessions export') REPLY='--format -O --output-file' ;;
    'E|sessions export|--format') REPLY='md json html' ;;
    'F|sessions export|-O'|'F|sessions export|--output-file') REPLY='file' ;;
    'A|sessions export') REPLY='1' ;;
    'O|sessions tail') REPLY='--thread --deltas --cursor --until --no-live -h --help' ;;
    'V|sessions tail') REPLY='--thread --cursor --until' ;;
    'E|sessions tail|--until') REPLY='idle' ;;
    'A|sessions tail') REPLY='1' ;;
    'O|sessions wait') REPLY='--timeout --fail-fast --status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type -h --help' ;;
    'V|sessions wait') REPLY='--timeout --status --agent --older-than --newer-than --idle-for -l --selector --error-type' ;;
    'E|sessions wait|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions wait') REPLY='1' ;;
    'O|sessions stats') REPLY='--thread --no-cache -h --help' ;;
    'V|sessions stats') REPLY='--thread' ;;
    'A|sessions stats') REPLY='1' ;;
    'O|sessions trace') REPLY='--thread --otlp-endpoint -h --help' ;;
    'V|sessions trace') REPLY='--thread --otlp-endpoint' ;;
    'A|sessions trace') REPLY='1' ;;
    'O|sessions grep') REPLY='-i --ignore-case -E --extended-regexp --type -l --files-with-matches -f --follow --concurrency --no-cache --status --agent --requires-action --older-than --newer-than --idle-for --selector --error-type --include-archived -h --help' ;;
    'V|sessions grep') REPLY='--type --concurrency --status --agent --older-than --newer-than --idle-for --selector --error-type' ;;
    'E|sessions grep|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions grep') REPLY='1' ;;
    'O|sessions diff') REPLY='--ignore -h --help' ;;
    'V|sessions diff') REPLY='--ignore' ;;
    'A|sessions diff') REPLY='1' ;;
    'O|sessions explain') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type --include-archived -h --help' ;;
    'V|sessions explain') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type' ;;
    'E|sessions explain|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions explain') REPLY='1' ;;
    'O|sessions rerun') REPLY='--turns --agent-version --latest --force --max -y --yes --dry-run --concurrency --fail-fast --wait --timeout --status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type --include-archived -h --help' ;;
    'V|sessions rerun') REPLY='--turns --agent-version --max --concurrency --timeout --status --agent --older-than --newer-than --idle-for -l --selector --error-type' ;;
    'E|sessions rerun|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'A|sessions rerun') REPLY='1' ;;
    'O|stats') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type --include-archived --since --by --concurrency --no-cache -h --help' ;;
    'V|stats') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --since --by --concurrency' ;;
    'E|stats|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'C|threads') REPLY='list get archive tail' ;;
    'O|threads') REPLY='-h --help' ;;
    'O|threads list') REPLY='--limit --page-size --page-token --all --sort-by -h --help' ;;
    'V|threads list') REPLY='--limit --page-size --page-token --sort-by' ;;
    'A|threads list') REPLY='1' ;;
    'O|threads get') REPLY='-h --help' ;;
    'A|threads get') REPLY='1' ;;
    'O|threads archive') REPLY='--status -y --yes --dry-run --concurrency --fail-fast --ignore-not-found -h --help' ;;
    'V|threads archive') REPLY='--status --concurrency' ;;
    'E|threads archive|--status') REPLY='idle running rescheduling terminated cancelled interrupted' ;;
    'A|threads archive') REPLY='1' ;;
    'O|threads tail') REPLY='--deltas --cursor --until --no-live -h --help' ;;
    'V|threads tail') REPLY='--cursor --until' ;;
    'E|threads tail|--until') REPLY='idle' ;;
    'A|threads tail') REPLY='1' ;;
    'O|top') REPLY='--status --agent --requires-action --older-than --newer-than --idle-for -l --selector --error-type --include-archived --environment --interval --readonly -h --help' ;;
    'V|top') REPLY='--status --agent --older-than --newer-than --idle-for -l --selector --error-type --environment --interval' ;;
    'E|top|--status') REPLY='idle running rescheduling terminated failed interrupted waiting' ;;
    'C|work') REPLY='list get stats poll ack heartbeat stop' ;;
    'O|work') REPLY='-h --help' ;;
    'O|work list') REPLY='--environment --limit --page-size --page-token --all --sort-by -w --watch --interval --timeout -h --help' ;;
    'V|work list') REPLY='--environment --limit --page-size --page-token --sort-by --interval --timeout' ;;
    'A|work list') REPLY='1' ;;
    'O|work get') REPLY='-h --help' ;;
    'A|work get') REPLY='1' ;;
    'O|work stats') REPLY='-w --watch --interval --timeout --serve -h --help' ;;
    'V|work stats') REPLY='--interval --timeout --serve' ;;
    'A|work stats') REPLY='1' ;;
    'O|work poll') REPLY='--block-ms --worker-id --show-secret -h --help' ;;
    'V|work poll') REPLY='--block-ms --worker-id' ;;
    'A|work poll') REPLY='1' ;;
    'O|work ack') REPLY='--generation -h --help' ;;
    'V|work ack') REPLY='--generation' ;;
    'A|work ack') REPLY='1' ;;
    'O|work heartbeat') REPLY='--generation -h --help' ;;
    'V|work heartbeat') REPLY='--generation' ;;
    'A|work heartbeat') REPLY='1' ;;
    'O|work stop') REPLY='--generation --final-status -h --help' ;;
    'V|work stop') REPLY='--generation --final-status' ;;
    'E|work stop|--final-status') REPLY='completed' ;;
    'A|work stop') REPLY='1' ;;
    'C|worker') REPLY='run serve' ;;
    'O|worker') REPLY='-h --help' ;;
    'O|worker run') REPLY='--environment --concurrency --once --on-work --worker-id --heartbeat-interval --metrics-addr --grace --otlp-endpoint --workdir --max-idle --unrestricted-paths --log-format -h --help' ;;
    'V|worker run') REPLY='--environment --concurrency --on-work --worker-id --heartbeat-interval --metrics-addr --grace --otlp-endpoint --workdir --max-idle --log-format' ;;
    'E|worker run|--log-format') REPLY='text json' ;;
    'F|worker run|--workdir') REPLY='file' ;;
    'O|worker serve') REPLY='--workdir --max-idle --unrestricted-paths --log-format -h --help' ;;
    'V|worker serve') REPLY='--workdir --max-idle --log-format' ;;
    'E|worker serve|--log-format') REPLY='text json' ;;
    'F|worker serve|--workdir') REPLY='file' ;;
    'C|alias') REPLY='set list delete' ;;
    'O|alias') REPLY='-h --help' ;;
    'O|alias set') REPLY='--clobber -h --help' ;;
    'A|alias set') REPLY='1' ;;
    'O|alias list') REPLY='-h --help' ;;
    'O|alias delete') REPLY='-h --help' ;;
    'A|alias delete') REPLY='1' ;;
    'O|apply') REPLY='-f --file --set --prune --dry-run -y --yes --update-secrets -h --help' ;;
    'V|apply') REPLY='-f --file --set' ;;
    'F|apply|-f'|'F|apply|--file') REPLY='file' ;;
    'C|auth') REPLY='login status logout token' ;;
    'O|auth') REPLY='-h --help' ;;
    'O|auth login') REPLY='--with-token --insecure-storage -h --help' ;;
    'O|auth status') REPLY='-h --help' ;;
    'O|auth logout') REPLY='-h --help' ;;
    'O|auth token') REPLY='-h --help' ;;
    'O|completion') REPLY='-h --help' ;;
    'A|completion') REPLY='1' ;;
    'C|config') REPLY='get set unset list use profiles' ;;
    'O|config') REPLY='-h --help' ;;
    'O|config get') REPLY='-h --help' ;;
    'A|config get') REPLY='1' ;;
    'O|config set') REPLY='--insecure-storage -h --help' ;;
    'A|config set') REPLY='1' ;;
    'O|config unset') REPLY='-h --help' ;;
    'A|config unset') REPLY='1' ;;
    'O|config list') REPLY='-h --help' ;;
    'O|config use') REPLY='-h --help' ;;
    'A|config use') REPLY='1' ;;
    'O|config profiles') REPLY='-h --help' ;;
    'O|diff') REPLY='-f --file --set --prune -h --help' ;;
    'V|diff') REPLY='-f --file --set' ;;
    'F|diff|-f'|'F|diff|--file') REPLY='file' ;;
    'C|extension') REPLY='list' ;;
    'O|extension') REPLY='-h --help' ;;
    'O|extension list') REPLY='-h --help' ;;
    'O|api') REPLY='-X --method --data -F --field -H --header --paginate -h --help' ;;
    'V|api') REPLY='-X --method --data -F --field -H --header' ;;
    'F|api|--data') REPLY='@file' ;;
    'A|api') REPLY='1' ;;
    'O|demo') REPLY='--fleet -h --help' ;;
    'O|doctor') REPLY='-h --help' ;;
    'C|emulator') REPLY='keys outage' ;;
    'O|emulator') REPLY='--port --host --faults --state --heartbeat-ms --log --quiet --webhook-url --exports-file -h --help' ;;
    'V|emulator') REPLY='--port --host --faults --state --heartbeat-ms --log --webhook-url --exports-file' ;;
    'F|emulator|--state') REPLY='file' ;;
    'F|emulator|--log') REPLY='file' ;;
    'F|emulator|--exports-file') REPLY='file' ;;
    'O|emulator keys') REPLY='-h --help' ;;
    'A|emulator keys') REPLY='1' ;;
    'O|emulator outage') REPLY='--sessions --error-type --turns -h --help' ;;
    'V|emulator outage') REPLY='--sessions --error-type --turns' ;;
    'O|version') REPLY='-h --help' ;;
    'A|help') REPLY='1' ;;
    *) REPLY='' ;;
  esac
}

# True when flag $2 takes a value at command path $1 (or is a global option that does).
__svc_takes_value() {
  __svc_table "V|$1"
  [[ " $REPLY " == *" $2 "* ]] && return 0
  __svc_table "V|"
  [[ " $REPLY " == *" $2 "* ]]
}

# File names for a value of kind $1: file, or @file (a body given as @path).
__svc_files() {
  local IFS=$'\n'
  compopt -o filenames 2>/dev/null
  if [[ $1 == @file ]]; then
    [[ -z $cur || $cur == @* ]] && COMPREPLY=($(compgen -f -P @ -- "${cur#@}"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

# Resource IDs, then names, and other values only the service knows: one "value<TAB>description" per line, newest
# first. Listed as "value  (description)" in that order, cut to the terminal's width (kubectl's way); a lone match is
# inserted as its value alone. A value bash would have to quote (a name with a space) is left out: it is inserted as typed.
__svc_dynamic() {
  local IFS=$'\n' line id desc room quoted longest=0
  local -a found=()
  for line in $(svc __complete -- "${words[@]:1:cword}" 2>/dev/null); do
    id=${line%%$'\t'*}
    [[ $id == "$cur"* ]] || continue
    printf -v quoted '%q' "$id"
    [[ $quoted == "$id" ]] || continue
    found+=("$line")
    ((${#id} > longest)) && longest=${#id}
  done
  compopt -o nosort 2>/dev/null
  if ((${#found[@]} == 1)); then
    COMPREPLY+=("${found[0]%%$'\t'*}")
    return
  fi
  for line in "${found[@]}"; do
    id=${line%%$'\t'*} desc=''
    [[ $line == *$'\t'* ]] && desc=${line#*$'\t'}
    if [[ -n $desc ]]; then
      room=$((${COLUMNS:-80} - longest - 4))
      if ((room > 8)); then printf -v id '%-*s' "$longest" "$id"; else room=$((${COLUMNS:-80} - ${#id} - 4)); fi
      if ((room > 0)); then
        ((${#desc} > room)) && desc="${desc:0:room-1}…"
        id+="  ($desc)"
      fi
    fi
    COMPREPLY+=("$id")
  done
}

# The words up to the cursor: bash-completion's reading (= and : kept inside words) when it is loaded, else bash's own.
__svc_words() {
  if declare -F _init_completion >/dev/null; then
    _init_completion -n =:
  else
    words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  fi
}

_svc() {
  local cur prev words cword
  __svc_words || return
  COMPREPLY=()
  local cmdpath='' opt='' i w npos=0
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    case $w in
      -) ((npos++)) ;;
      -*=*) ;;
      -*) if __svc_takes_value "$cmdpath" "$w"; then ((i++)); ((i == cword)) && opt=$w; fi ;;
      *)
        __svc_table "C|$cmdpath"
        if ((npos == 0)) && [[ " $REPLY " == *" $w "* ]]; then cmdpath=${cmdpath:+$cmdpath }$w; else ((npos++)); fi
        ;;
    esac
  done
  if [[ -n $opt ]]; then
    __svc_table "F|$cmdpath|$opt"
    [[ -z $REPLY ]] && __svc_table "F||$opt"
    if [[ -n $REPLY ]]; then __svc_files "$REPLY"; return; fi
    __svc_table "E|$cmdpath|$opt"
    [[ -z $REPLY ]] && __svc_table "E||$opt"
    if [[ -n $REPLY ]]; then COMPREPLY=($(compgen -W "$REPLY" -- "$cur")); else __svc_dynamic; fi
    return
  fi
  if [[ $cur == -* ]]; then
    __svc_table "O|$cmdpath"
    local flags=$REPLY
    [[ -n $cmdpath ]] && __svc_table "O|" && flags+=" $REPLY"
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    return
  fi
  # At the top, the commands and then the aliases and extensions svc knows; after an alias, the words it expands to.
  if [[ -z $cmdpath ]]; then
    ((npos == 0)) && __svc_table "C|" && COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    __svc_dynamic
    return
  fi
  __svc_table "C|$cmdpath"
  if [[ -n $REPLY ]]; then COMPREPLY=($(compgen -W "$REPLY" -- "$cur")); return; fi
  __svc_table "F|$cmdpath|#$npos"
  if [[ -n $REPLY ]]; then __svc_files "$REPLY"; return; fi
  __svc_table "A|$cmdpath"
  [[ -n $REPLY ]] && __svc_dynamic
}

complete -F _svc svc
