#!/usr/bin/env zsh
# tests/cli/zsh_complete.zsh FPATH_DIR LINE... — for each command line LINE,
# print, one a line, the matches zsh's completion system offers at its end,
# then a line "END-OF-LINE" (one zsh session for all lines: compinit, which
# reads every function of $fpath, is the slow part and runs once), with the
# completion functions of FPATH_DIR (a folder holding _fabriclint).
#
# How: an interactive `zsh -f` runs in a pseudo-terminal (zsh/zpty) with
# compinit loaded, the emacs keymap, and TAB bound to complete-word; compadd
# is wrapped so that every match actually added is printed between two
# marker lines, and each LINE plus a TAB is typed into it; after the end
# marker, ^U (kill-whole-line) empties the buffer for the next LINE. Calls
# that only filter (-O, -A, -D) are passed through untouched. Used by
# completion_zsh.sh.
emulate -L zsh
setopt err_return
zmodload zsh/zpty

local dir=$1 line
shift
zpty fl zsh -f -i
zpty -w fl "PS1= PROMPT= RPROMPT=; unsetopt zle_bracketed_paste 2>/dev/null"
zpty -w fl "fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w fl "bindkey -e; bindkey '^I' complete-word; bindkey '^U' kill-whole-line"
zpty -w fl "zstyle ':completion:*' insert-tab false; zstyle ':completion:*' list-grouped false"
# no listing of the matches (and so no "do you wish to see all" question,
# which would eat the next key): only the wrapper's output counts
zpty -w fl "unsetopt auto_list list_ambiguous; LISTMAX=100000"
zpty -w fl 'compadd() {
  if [[ ${(j: :)@} == (*\ |)-[OAD]* ]]; then builtin compadd "$@"; return; fi
  local -a __m
  builtin compadd -O __m "$@"
  local __w; for __w in $__m; do print -r -- "MATCH:$__w"; done
  builtin compadd "$@"
}'
zpty -w fl 'fl_begin() { print -r -- "BEGIN-MATCHES" }; fl_end() { print -r -- "END-MATCHES" }'
zpty -w fl 'compprefuncs=(fl_begin); comppostfuncs=(fl_end)'
zpty -w fl 'print -r -- READY-FOR-LINE'
local out
repeat 200; do
  zpty -r -t fl out || { sleep 0.05; continue; }
  [[ $out == *READY-FOR-LINE* && $out != *print* ]] && break
done
local inside seen
for line in "$@"; do
  zpty -w -n fl "$line"$'\t'
  inside=0 seen=0
  repeat 2000; do
    if ! zpty -r -t fl out; then
      sleep 0.01
      continue
    fi
    out=${out//$'\r'/}
    case $out in
      (*BEGIN-MATCHES*) inside=1 ;;
      (*END-MATCHES*) (( inside )) && { seen=1; break } ;;
      (*MATCH:*) (( inside )) && print -r -- ${${out##*MATCH:}%%$'\n'} ;;
    esac
  done
  (( seen )) || { print -u2 "zsh_complete: no completion output for: $line"; zpty -d fl; return 1 }
  print -r -- END-OF-LINE
  # compprefuncs/comppostfuncs are reset after each completion: set again
  zpty -w -n fl $'\C-u'
  zpty -w fl 'compprefuncs=(fl_begin); comppostfuncs=(fl_end)'
done
zpty -d fl
