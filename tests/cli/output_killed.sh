#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/output_killed.sh — a run killed by SIGTERM or SIGINT while it
# writes `-o FILE` leaves neither a partial FILE nor its temporary file
# `.FILE.PID-N.tmp` (issue #32; core/io/tmp_guard.c, core/cli/cli_signals.c,
# docs/cli.md "Output files"): a previous FILE keeps its content, an absent
# FILE stays absent, and the run dies of the signal (exit 128 + N).
# The run: `check` of a 3-tier radix-48 fat tree (`fabriclint gen`, 16 MB
# of design XML, 27,648 hosts); its output is open (the temporary file
# exists) from the end of loading until the report is written, about a
# second here. The signal is sent as soon as the temporary file appears.
. "$(dirname "$0")/lib.bash"
set -m # background jobs keep SIGINT (without job control bash ignores it)

expect_rc 0 "$FL" gen fat-tree --radix 48 --tiers 3 -o "$TMP/ft.xml"

# kill_mid_write SIGNAL DIR: start check -o DIR/out.json, signal it once its
# temporary file exists; sets RC and SEEN (1: the file was seen). Not run in
# a subshell: there bash has no job control and the job ignores SIGINT.
kill_mid_write() {
  local sig=$1 dir=$2 i
  SEEN=0
  "$FL" check --format json -o "$dir/out.json" "$TMP/ft.xml" >/dev/null 2>&1 &
  local pid=$!
  for ((i = 0; i < 1200; i++)); do # at most 60 s
    if compgen -G "$dir/.out.json.*.tmp" >/dev/null; then
      SEEN=1
      kill -s "$sig" "$pid"
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  wait "$pid"
  RC=$?
}

# SIGTERM, FILE existed: its content stays, no temporary file
mkdir "$TMP/term"
echo previous >"$TMP/term/out.json"
kill_mid_write TERM "$TMP/term"
expect_eq "$SEEN" 1 "SIGTERM: temporary file seen before the kill"
expect_eq "$RC" 143 "SIGTERM: exit status"
expect_eq "$(ls -A "$TMP/term")" out.json "SIGTERM: folder"
expect_eq "$(cat "$TMP/term/out.json")" previous "SIGTERM: FILE content"

# SIGINT, FILE absent: the folder stays empty
mkdir "$TMP/int"
kill_mid_write INT "$TMP/int"
expect_eq "$SEEN" 1 "SIGINT: temporary file seen before the kill"
expect_eq "$RC" 130 "SIGINT: exit status"
expect_eq "$(ls -A "$TMP/int")" "" "SIGINT: folder"

# not killed: the report replaces FILE, no temporary file stays
mkdir "$TMP/done"
echo previous >"$TMP/done/out.json"
expect_rc 0 "$FL" check --format json -o "$TMP/done/out.json" "$TMP/ft.xml"
expect_eq "$(ls -A "$TMP/done")" out.json "unkilled: folder"
expect_eq "$(jget "$TMP/done/out.json" "=d['fabric']['cas']")" 27648 "unkilled: report"
finish
