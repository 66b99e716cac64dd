# bash completion for svc. Generated from the command tree by `svc completion bash`; do not edit.
# Needs bash-completion. Install: see "Shell completion" in svc's README.

__svc_table() {
  case "$1" in
    'C|') REPLY='agents api artifacts auth completion config demo doctor dreams emulator environments files memories memory-stores plugins run sessions skills threads triggers vaults work worker' ;;
    'O|') REPLY='--profile --base-url --api-key -o --output -q --quiet --jq --debug --no-color --timeout --max-retries --no-input -h --help' ;;
    'V|') REPLY='--profile --base-url --api-key -o --output --jq --timeout --max-retries' ;;
    'E||-o'|'E||--output') REPLY='table json ndjson jsonl yaml id' ;;
    'C|agents') REPLY='list get create update delete archive versions' ;;
    'O|agents') REPLY='-h --help' ;;
    'O|agents list') REPLY='--official-only --created-after --created-before --updated-after --updated-before --limit --page-size --page-token --all -h --help' ;;
    'V|agents list') REPLY='--created-after --created-before --updated-after --updated-before --limit --page-size --page-token' ;;
    'O|agents get') REPLY='--version -h --help' ;;
    'V|agents get') REPLY='--version' ;;
    'A|agents get') REPLY='1' ;;
    'O|agents create') REPLY='--data --name --model --description --system --idempotency-key -h --help' ;;
    'V|agents create') REPLY='--data --name --model --description --system --idempotency-key' ;;
    'O|agents update') REPLY='--data --name --model --description --system -h --help' ;;
    'V|agents update') REPLY='--data --name --model --description --system' ;;
    'A|agents update') REPLY='1' ;;
    'O|agents delete') REPLY='-h --help' ;;
    'A|agents delete') REPLY='1' ;;
    'O|agents archive') REPLY='-h --help' ;;
    'A|agents archive') REPLY='1' ;;
    'O|agents versions') REPLY='--limit --page-size --page-token --all -h --help' ;;
    'V|agents versions') REPLY='--limit --page-size --page-token' ;;
    'A|agents versions') REPLY='1' ;;
    'O|api') REPLY='--data -F --field -H --header --paginate -h --help' ;;
    'V|api') REPLY='--data -F --field -H --header' ;;
    'A|api') REPLY='1' ;;
    'O|artifacts') REPLY='-h --help' ;;
    'C|auth') REPLY='login status logout token' ;;
    'O|auth') REPLY='-h --help' ;;
    'O|auth login') REPLY='--with-token -h --help' ;;
    'O|auth status') REPLY='-h --help' ;;
    'O|auth logout') REPLY='-h --help' ;;
    'O|auth token') REPLY='-h --help' ;;
    'O|completion') REPLY='-h --help' ;;
    'A|completion') REPLY='1' ;;
    'C|config') REPLY='get set unset list use profiles' ;;
    'O|config') REPLY='-h --help' ;;
    'O|config get') REPLY='-h --help' ;;
    'A|config get') REPLY='1' ;;
    'O|config set') REPLY='-h --help' ;;
    'A|config set') REPLY='1' ;;
    'O|config unset') REPLY='-h --help' ;;
    'A|config unset') REPLY='1' ;;
    'O|config list') REPLY='-h --help' ;;
    'O|config use') REPLY='-h --help' ;;
    'A|config use') REPLY='1' ;;
    'O|config profiles') REPLY='-h --help' ;;
    'O|demo') REPLY='-h --help' ;;
    'O|doctor') REPLY='-h --help' ;;
    'O|dreams') REPLY='-h --help' ;;
    'O|emulator') REPLY='--port --host --faults --state --heartbeat-ms -h --help' ;;
    'V|emulator') REPLY='--port --host --faults --state --heartbeat-ms' ;;
    'O|environments') REPLY='-h --help' ;;
    'O|files') REPLY='-h --help' ;;
    'O|memories') REPLY='-h --help' ;;
    'O|memory-stores') REPLY='-h --help' ;;
    'O|plugins') REPLY='-h --help' ;;
    'O|run') REPLY='-h --help' ;;
    'O|sessions') REPLY='-h --help' ;;
    'O|skills') REPLY='-h --help' ;;
    'O|threads') REPLY='-h --help' ;;
    'O|triggers') REPLY='-h --help' ;;
    'O|vaults') REPLY='-h --help' ;;
    'O|work') REPLY='-h --help' ;;
    'O|worker') REPLY='-h --help' ;;
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

# Resource IDs and other values only the service knows: one "value<TAB>description" per line.
__svc_dynamic() {
  local IFS=$'\n' line
  for line in $(svc __complete -- "${words[@]:1:cword}" 2>/dev/null); do
    COMPREPLY+=("${line%%$'\t'*}")
  done
}

_svc() {
  local cur prev words cword
  _init_completion -n =: || return
  COMPREPLY=()
  local cmdpath='' opt='' i w
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    case $w in
      -*=*) ;;
      -*) if __svc_takes_value "$cmdpath" "$w"; then ((i++)); ((i == cword)) && opt=$w; fi ;;
      *) __svc_table "C|$cmdpath"; [[ " $REPLY " == *" $w "* ]] && cmdpath=${cmdpath:+$cmdpath }$w ;;
    esac
  done
  if [[ -n $opt ]]; then
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
  __svc_table "C|$cmdpath"
  if [[ -n $REPLY ]]; then COMPREPLY=($(compgen -W "$REPLY" -- "$cur")); return; fi
  __svc_table "A|$cmdpath"
  [[ -n $REPLY ]] && __svc_dynamic
}

complete -F _svc svc
