import { shQuote, type Row } from './table';

/** zsh: the table as a `case` filling `reply` (name:description where shown), a walker, and the callback. */
export function zshScript(rows: Row[]): string {
  const item = (r: Row) => (i: { name: string; description: string }) => shQuote(r.described ? `${i.name}:${i.description}` : i.name);
  const cases = rows.map((r) => `    ${r.keys.map(shQuote).join('|')}) reply=(${r.items.map(item(r)).join(' ')}) ;;`);
  return `#compdef svc
# zsh completion for svc. Generated from the command tree by \`svc completion zsh\`; do not edit.
# Install: see "Shell completion" in svc's README.

__svc_table() {
  case "$1" in
${cases.join('\n')}
    *) reply=() ;;
  esac
}

# True when flag $2 takes a value at command path $1 (or is a global option that does).
__svc_takes_value() {
  local -a reply
  __svc_table "V|$1"
  (( \${reply[(Ie)$2]} )) && return 0
  __svc_table "V|"
  (( \${reply[(Ie)$2]} ))
}

# File names for a value of kind $1: file, or @file (a body given as @path).
__svc_files() {
  if [[ $1 == @file ]]; then
    if [[ $PREFIX == @* ]]; then compset -P '@'; elif [[ -z $PREFIX ]]; then IPREFIX+='@'; else return; fi
  fi
  _files
}

# Resource IDs, then names, and other values only the service knows: one "value<TAB>description" per line. The word
# being completed goes unquoted (a name typed as two\\ w), as the values are compared with it.
__svc_dynamic() {
  local -a lines candidates
  local line
  lines=("\${(@f)$(svc __complete -- "\${(@)words[2,CURRENT-1]}" "\${(Q)words[CURRENT]}" 2>/dev/null)}")
  for line in "\${lines[@]}"; do
    [[ -n $line ]] && candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  _describe -t values 'value' candidates
}

_svc() {
  local cmdpath='' opt='' i w
  local -i npos=0
  local -a reply names flags
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    case $w in
      -) npos+=1 ;;
      -*=*) ;;
      -*) if __svc_takes_value "$cmdpath" "$w"; then ((i++)); ((i == CURRENT)) && opt=$w; fi ;;
      *)
        __svc_table "C|$cmdpath"; names=(\${reply%%:*})
        if (( npos == 0 && \${names[(Ie)$w]} )); then cmdpath=\${cmdpath:+$cmdpath }$w; else npos+=1; fi
        ;;
    esac
  done
  if [[ -n $opt ]]; then
    __svc_table "F|$cmdpath|$opt"
    (( $#reply )) || __svc_table "F||$opt"
    if (( $#reply )); then __svc_files $reply[1]; return; fi
    __svc_table "E|$cmdpath|$opt"
    (( $#reply )) || __svc_table "E||$opt"
    if (( $#reply )); then compadd -a reply; else __svc_dynamic; fi
    return
  fi
  if [[ $PREFIX == -* ]]; then
    __svc_table "O|$cmdpath"
    flags=("\${reply[@]}")
    [[ -n $cmdpath ]] && __svc_table "O|" && flags+=("\${reply[@]}")
    _describe -t options 'option' flags
    return
  fi
  # At the top, the commands and then the aliases and extensions svc knows; after an alias, the words it expands to.
  if [[ -z $cmdpath ]]; then
    if (( npos == 0 )); then __svc_table "C|"; _describe -t commands 'command' reply; fi
    __svc_dynamic
    return
  fi
  __svc_table "C|$cmdpath"
  if (( $#reply )); then _describe -t commands 'command' reply; return; fi
  __svc_table "F|$cmdpath|#$npos"
  if (( $#reply )); then __svc_files $reply[1]; return; fi
  __svc_table "A|$cmdpath"
  (( $#reply )) && __svc_dynamic
}

if [[ $funcstack[1] == _svc ]]; then _svc "$@"; else compdef _svc svc; fi
`;
}
