#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/host_edges.sh — edge cases of the host and the command line:
#
# 1. A plugin folder with no .so at all (empty, or other files only) loads
#    nothing and is not an error: fl_host_load_dir once sorted an empty,
#    NULL list (qsort(NULL, 0): undefined behaviour, flagged by UBSan). A
#    check that then runs no rule exits 2: it would pass any fabric.
# 2. '-' (standard input) named twice — two inputs, both diff sides, or an
#    input and the policy or node-name map — is refused with exit 2 before
#    anything is read: the second read would be empty.
. "$(dirname "$0")/lib.bash"

# ---- 1. plugin folders without plugins -------------------------------------
mkdir -m 755 "$TMP/empty" "$TMP/other"
: >"$TMP/other/readme.txt"
: >"$TMP/other/so"
for d in empty other; do
  expect_rc 0 "$FL" rules --no-builtin-plugins --plugin-path "$TMP/$d"
  expect_eq "$(wc -c <"$TMP/out")" 0 "rules output, $d folder"
  expect_eq "$(wc -c <"$TMP/err")" 0 "rules stderr, $d folder"
  # loading nothing is fine; a check that runs no rule is no clean gate
  expect_rc 2 "$FL" check --no-builtin-plugins --plugin-path "$TMP/$d" \
    "$FL_SRC/fabrics/fat-tree-2tier.net"
  expect_grep "$TMP/err" "no rule ran: no plugin is loaded"
  expect_eq "$(wc -c <"$TMP/out")" 0 "check output, $d folder"
done
# beside the built-in folder it changes nothing: the same 7 plugins
expect_rc 0 "$FL" rules --plugin-path "$TMP/empty"
expect_eq "$(grep -c '^[a-z-]* [0-9.]* (' "$TMP/out")" 8 "plugins listed"

# ---- 2. standard input twice -------------------------------------------------
plan="$FL_SRC/fabrics/fat-tree-2tier.net"
twice() { # twice CMD... — exit 2, the message, nothing on stdout
  "$@" <"$plan" >"$TMP/out" 2>"$TMP/err"
  expect_eq "$?" 2 "exit of $*"
  expect_grep "$TMP/err" "^fabriclint: standard input given twice"
  expect_eq "$(wc -c <"$TMP/out")" 0 "stdout of $*"
}
twice "$FL" check - -
twice "$FL" info - -

twice "$FL" diff - -
twice "$FL" diff --design - --as-built -
twice "$FL" diff --design - -
twice "$FL" check --policy - -
twice "$FL" check --node-name-map - -
# once is fine
"$FL" info - <"$plan" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 0 "info - exit"
"$FL" check - <"$plan" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 0 "check - exit"
expect_grep "$TMP/out" "rule\\(s\\) run"

finish
