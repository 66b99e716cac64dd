import type { Row } from './table';

const fishQuote = (s: string): string => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** fish: the table as a `switch` printing "name<TAB>description" lines, a walker, and one `complete` rule. */
export function fishScript(rows: Row[]): string {
  const line = (i: { name: string; description: string }) => fishQuote(i.description ? `${i.name}\t${i.description}` : i.name);
  const cases = rows.map((r) => `        case ${r.keys.map(fishQuote).join(' ')}\n            printf '%s\\n' ${r.items.map(line).join(' ')}`);
  return `# fish completion for svc. Generated from the command tree by \`svc completion fish\`; do not edit.
# Install: see "Shell completion" in svc's README.

function __svc_table
    switch $argv[1]
${cases.join('\n')}
    end
end

# True when flag $argv[2] takes a value at command path $argv[1] (or is a global option that does).
function __svc_takes_value
    contains -- $argv[2] (__svc_table "V|$argv[1]") (__svc_table "V|")
end

# File names for a value of kind $argv[1]: file, or @file (a body given as @path).
function __svc_files
    set -l cur (commandline -ct)
    if test "$argv[1]" = @file
        string match -q -- '@*' "$cur"; or test -z "$cur"; or return
        __fish_complete_path (string sub -s 2 -- "$cur") | string replace -r '^' '@'
    else
        __fish_complete_path "$cur"
    end
end

# Resource IDs, then names, and other values only the service knows: one "value<TAB>description" per line. The token
# being completed goes unescaped (a name typed as two\\ w), as the values are compared with it.
function __svc_dynamic
    svc __complete -- $argv[2..] (commandline -ct | string unescape) 2>/dev/null
end

function __svc_candidates
    set -l words (commandline -opc)
    set -l cmdpath ''
    set -l opt ''
    set -l npos 0
    set -l i 2
    while test $i -le (count $words)
        set -l w $words[$i]
        switch $w
            case '-'
                set npos (math $npos + 1)
            case '-*=*'
            case '-*'
                if __svc_takes_value "$cmdpath" $w
                    set i (math $i + 1)
                    test $i -gt (count $words); and set opt $w
                end
            case '*'
                if test $npos -eq 0; and contains -- $w (__svc_table "C|$cmdpath" | string replace -r '\\t.*' '')
                    set cmdpath (string trim -- "$cmdpath $w")
                else
                    set npos (math $npos + 1)
                end
        end
        set i (math $i + 1)
    end
    if test -n "$opt"
        set -l kind (__svc_table "F|$cmdpath|$opt")
        test -z "$kind"; and set kind (__svc_table "F||$opt")
        if test -n "$kind"
            __svc_files $kind
            return
        end
        set -l values (__svc_table "E|$cmdpath|$opt")
        test -z "$values"; and set values (__svc_table "E||$opt")
        if test -n "$values"
            printf '%s\\n' $values
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
    # At the top, the commands and then the aliases and extensions svc knows; after an alias, the words it expands to.
    if test -z "$cmdpath"
        test $npos -eq 0; and __svc_table "C|"
        __svc_dynamic $words
        return
    end
    set -l commands (__svc_table "C|$cmdpath")
    set -l kind (__svc_table "F|$cmdpath|#$npos")
    if test -n "$commands"
        printf '%s\\n' $commands
    else if test -n "$kind"
        __svc_files $kind
    else if test -n "$(__svc_table "A|$cmdpath")"
        __svc_dynamic $words
    end
end

complete -c svc -f -a '(__svc_candidates)'
`;
}
