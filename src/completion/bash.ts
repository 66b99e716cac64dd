import { shQuote, type Row } from './table';

/** bash, with or without bash-completion: the table as a `case`, a walker over the words, and the callback. */
export function bashScript(rows: Row[]): string {
  const cases = rows.map((r) => `    ${r.keys.map(shQuote).join('|')}) REPLY=${shQuote(r.items.map((i) => i.name).join(' '))} ;;`);
  return `# bash completion for svc. Generated from the command tree by \`svc completion bash\`; do not edit.
# Uses bash-completion when it is loaded, plain bash otherwise. Install: see "Shell completion" in svc's README.

__svc_table() {
  case "$1" in
${cases.join('\n')}
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
  local IFS=$'\\n'
  compopt -o filenames 2>/dev/null
  if [[ $1 == @file ]]; then
    [[ -z $cur || $cur == @* ]] && COMPREPLY=($(compgen -f -P @ -- "\${cur#@}"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

# Resource IDs, then names, and other values only the service knows: one "value<TAB>description" per line, newest
# first. Listed as "value  (description)" in that order, cut to the terminal's width (kubectl's way); a lone match is
# inserted as its value alone. A value bash would have to quote (a name with a space) is left out: it is inserted as typed.
__svc_dynamic() {
  local IFS=$'\\n' line id desc room quoted longest=0
  local -a found=()
  for line in $(svc __complete -- "\${words[@]:1:cword}" 2>/dev/null); do
    id=\${line%%$'\\t'*}
    [[ $id == "$cur"* ]] || continue
    printf -v quoted '%q' "$id"
    [[ $quoted == "$id" ]] || continue
    found+=("$line")
    ((\${#id} > longest)) && longest=\${#id}
  done
  compopt -o nosort 2>/dev/null
  if ((\${#found[@]} == 1)); then
    COMPREPLY+=("\${found[0]%%$'\\t'*}")
    return
  fi
  for line in "\${found[@]}"; do
    id=\${line%%$'\\t'*} desc=''
    [[ $line == *$'\\t'* ]] && desc=\${line#*$'\\t'}
    if [[ -n $desc ]]; then
      room=$((\${COLUMNS:-80} - longest - 4))
      if ((room > 8)); then printf -v id '%-*s' "$longest" "$id"; else room=$((\${COLUMNS:-80} - \${#id} - 4)); fi
      if ((room > 0)); then
        ((\${#desc} > room)) && desc="\${desc:0:room-1}…"
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
    words=("\${COMP_WORDS[@]}") cword=$COMP_CWORD
    cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  fi
}

_svc() {
  local cur prev words cword
  __svc_words || return
  COMPREPLY=()
  local cmdpath='' opt='' i w npos=0
  for ((i = 1; i < cword; i++)); do
    w=\${words[i]}
    case $w in
      -) ((npos++)) ;;
      -*=*) ;;
      -*) if __svc_takes_value "$cmdpath" "$w"; then ((i++)); ((i == cword)) && opt=$w; fi ;;
      *)
        __svc_table "C|$cmdpath"
        if ((npos == 0)) && [[ " $REPLY " == *" $w "* ]]; then cmdpath=\${cmdpath:+$cmdpath }$w; else ((npos++)); fi
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
`;
}
