#!/usr/bin/env bash
# tests/cli/robust3b.sh — third robustness review (issue 32), part B: what
# input text may do to the terminal, spreadsheets, the files read, and the
# caps on expansion. Fixtures: tests/fixtures/robustness-3b/ (PROVENANCE.md).
. "$(dirname "$0")/lib.bash"
R="$FL_SRC/tests/fixtures/robustness-3b"
ESC=$(printf '\033')
BEL=$(printf '\007')
# no_raw_controls FILE — FILE holds no ESC, BEL or other C0 control but LF/TAB
no_raw_controls() {
  if LC_ALL=C grep -q "[$ESC$BEL]" "$1" || LC_ALL=C tr -d '\n\t' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]'; then
    fail "raw control characters in $1: $(cat -v "$1" | head -3)"
  else pass; fi
}

# ---- #5 ESC/OSC sequences in input names never reach the terminal --------
# Each loader error quotes the name; the name is printed with its control
# characters escaped as \xNN (fl_escape_controls, in fl_error_set).
expect_rc 2 "$FL" info "$R/ansi-dot-node-name.dot"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'edge evil\\x1b\]0;TITLE\\x07\\x1b\[31mRED\\x1b\[0m -- b names no port at its tail end'
expect_rc 2 "$FL" info "$R/ansi-nxos-lldp-port.json"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'ansi-nxos-lldp-port.json:1: neighbour on Eth1/1\\x1b\]0;PWNED\\x07\\x1b\[2J\\x1b\[1A has neither sys_name nor chassis_id'
"$FL" gen fat-tree --radix 4 -o "$TMP/ft4.xml" || fail "gen ft4"
expect_rc 2 "$FL" perf --workload "$R/ansi-workload-shift.yaml" "$TMP/ft4.xml"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'ansi-workload-shift.yaml:3:40: shift `1\\x1b\]0;PWNED\\x07\\x1b\[2J\\x1b\[1;1H\\x1b\[32mall checks passed\\x1b\[0m`: expected an integer'
# the file name of a message is escaped too (a folder member named with ESC)
mkdir "$TMP/dir"
printf 'graph g { a -- b; }\n' >"$TMP/dir/x${ESC}[2Jy.dot"
expect_rc 2 "$FL" info "$TMP/dir"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'x\\x1b\[2Jy\.dot'

finish
