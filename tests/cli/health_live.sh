#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/health_live.sh — the counter captures of tests/data/counters,
# made again now by the real tools (tests/data/counters/make.sh: ibsim,
# OpenSM, ibsim's PerformanceSet, perfquery, ibqueryerrors) into a temporary
# folder, and the health plugin's verdicts on them: the same as on the
# committed captures (tests/cli/health_counters.sh), so those are what the
# tools produce today.
#
# Skips (exit 77) when ibsim, ibsim-run, opensm, ibnetdiscover, perfquery or
# ibqueryerrors is not installed. ibsim runs on a private socket name and is
# always stopped (make.sh's trap). Takes about 15 s.
. "$(dirname "$0")/lib.bash"
for tool in ibsim ibsim-run opensm ibnetdiscover perfquery ibqueryerrors; do
  if ! command -v "$tool" >/dev/null; then
    echo "health_live: SKIP: $tool not installed (apt install ibsim-utils opensm infiniband-diags)"
    exit 77
  fi
done
L="$TMP/live"
if ! FL="$FL" bash "$FL_SRC/tests/data/counters/make.sh" "$L" >"$TMP/make.log" 2>&1; then
  fail "make.sh: $(tail -3 "$TMP/make.log")"
  finish; exit
fi
pass
# the plan and the simulated net file are the committed ones
for f in plan.xml fabric.net; do
  if cmp -s "$L/$f" "$FL_SRC/tests/data/counters/$f"; then pass
  else fail "$f differs from tests/data/counters/$f (rerun make.sh)"; fi
done
# the issue's case on the live captures: exactly the two findings
expect_rc 0 "$FL" check --rules 'health.*' --format json "$L/plan.xml" \
  "$L/ibqueryerrors-1.txt" "$L/ibqueryerrors-2.txt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence'].get('class', f['evidence'].get('cable')), f['ports']) for f in d['findings']]")" \
  "[('health.congestion', 'predicted-and-observed', [{'node': 'spine-p01-01', 'port': 8}, {'node': 'leaf-p01-08', 'port': 5}]), ('health.link-errors', 'C-038', [{'node': 'leaf-p01-02', 'port': 6}, {'node': 'spine-p01-02', 'port': 2}])]" "live case"
expect_eq "$(jget "$TMP/out" "=[c['delta'] for f in d['findings'] if f['rule'] == 'health.link-errors' for c in f['evidence']['counters']]")" "[40]" "live symbol errors"
# perfquery, LID-keyed, on the live discovered dump: the same counters
expect_rc 0 "$FL" check --rules 'health.link-errors,health.congestion' --format json \
  "$L/asbuilt.ibnetdiscover" "$L/perfquery-1.txt" "$L/perfquery-2.txt"
expect_eq "$(jget "$TMP/out" "=[f['evidence'].get('xmit_wait_delta', f['evidence'].get('counters', [{}])[0].get('delta')) for f in d['findings']]")" "[400000, 40]" "live perfquery deltas"
# the degraded run
expect_rc 1 "$FL" check --rules 'health.*' --format json "$L/degraded.ibnetdiscover" "$L/degraded-ibqueryerrors.txt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence']['seen']) for f in d['findings']]")" "[('health.degraded-and-erroring', '1xHDR')]" "live degraded"
finish
