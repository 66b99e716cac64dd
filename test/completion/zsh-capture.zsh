# Prints the candidates zsh offers for the line "$2" with the completion script "$1" loaded, one per line.
# A real interactive zsh in a pseudo-terminal; compadd is wrapped to print each candidate it is asked to add.
zmodload zsh/zpty || exit 3
zpty svc_shell zsh -f -i
zpty -w svc_shell "PROMPT='' RPROMPT=''; zle_bracketed_paste=()"
zpty -w svc_shell "autoload -U compinit && compinit -u -D && source ${(q)1}"
zpty -w svc_shell 'compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a __hits; builtin compadd -O __hits "$@"
  (( $#__hits )) && { print; print -rl -- "${__hits[@]/#/HIT:}" } >/dev/tty
  builtin compadd "$@"
}'
zpty -w svc_shell 'comppostfuncs=(__done); __done() { print; print -r -- DONE: >/dev/tty; exit }'
zpty -w svc_shell "$2"$'\t'
local out line
while zpty -r svc_shell line; do
  out+=$line
  [[ $line == DONE:* ]] && break
done
print -r -- "$out" | tr -d '\r' | sed -n 's/^HIT://p' | sort -u
