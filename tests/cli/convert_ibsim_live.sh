#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/convert_ibsim_live.sh — a plan converted to an ibsim net file is
# the fabric the real tools discover (issue #16):
#
#   fabriclint convert plan.xml -o plan.net
#   ibsim -s plan.net;  ibsim-run ibnetdiscover > captured
#   fabriclint diff plan.xml captured        -> clean
#
# and with one cable moved in the plan (dgx-002 mlx5_1 from leaf-r1 port 2
# to port 7, free), the capture of the moved plan diffs against the original
# plan with exactly that difference: one diff.misconnected naming it.
# Also the capture converted to design XML diffs clean against the plan.
#
# Skips (exit 77) when ibsim-utils or infiniband-diags are not installed.
# ibsim runs on a private socket name and is always stopped.
set -uo pipefail
. "$(dirname "$0")/lib.bash"

. "$(dirname "$0")/../ibsim_lib.bash"
ibsim_name=convert_ibsim_live
ibsim_need --skip ibsim ibsim-run ibnetdiscover
ibsim_init conv "$TMP"
ibsim_timeout=120

# capture NET OUT — simulate NET with ibsim, discover it with ibnetdiscover
capture() {
  ibsim_start "$1" "$TMP/ibsim.log" || { fail "ibsim did not start on $1"; return 1; }
  SIM_HOST="dgx-001 mlx5_0" timeout "$ibsim_timeout" ibsim-run ibnetdiscover >"$2" 2>"$TMP/ibnd.err" ||
    { fail "ibnetdiscover failed on $1"; head -3 "$TMP/ibnd.err" >&2; }
  ibsim_stop
}
diff_json() { "$FL" diff --format json "$@" >"$TMP/diff.json" 2>"$TMP/diff.err"; }
rules_of() {
  python3 -c "import json,sys; print(' '.join(sorted(f['rule'] for f in json.load(open(sys.argv[1]))['findings'])))" "$TMP/diff.json"
}

# 2 rails x 4 hosts, 2 leaves, HDR (ibsim 0.10 knows no NDR), no LIDs: the
# subnet manager-less capture has none either
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 2 --leaf-radix 16 --speed HDR --no-lids -o "$TMP/plan.xml" ||
  fail "gen"
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.net"
capture "$TMP/plan.net" "$TMP/captured.ibnetdiscover"
expect_eq "$(grep -c '^Switch' "$TMP/captured.ibnetdiscover")" \
  "$(grep -c 'kind="switch"' "$TMP/plan.xml")" "captured switches"
expect_eq "$(grep -c '^Ca' "$TMP/captured.ibnetdiscover")" "8" "captured CAs"
expect_rc 0 diff_json "$TMP/plan.xml" "$TMP/captured.ibnetdiscover"
expect_eq "$(rules_of)" "" "diff plan vs live capture"
# and the capture, converted back to a plan, is the plan
expect_rc 0 "$FL" convert "$TMP/captured.ibnetdiscover" -o "$TMP/captured.xml"
expect_rc 0 diff_json "$TMP/plan.xml" "$TMP/captured.xml"
expect_eq "$(rules_of)" "" "diff plan vs capture as design"

# one cable moved in the plan: dgx-002 mlx5_1 (rail 1) from port 2 to 7 (free: hosts use 1-4)
grep -q 'a="dgx-002 mlx5_1" a-port="1" b="leaf-su01-r1" b-port="2"' "$TMP/plan.xml" ||
  fail "the plan has no dgx-002 mlx5_1 -> leaf-su01-r1 port 2 cable"
sed 's/a="dgx-002 mlx5_1" a-port="1" b="leaf-su01-r1" b-port="2"/a="dgx-002 mlx5_1" a-port="1" b="leaf-su01-r1" b-port="7"/' \
  "$TMP/plan.xml" >"$TMP/moved.xml"
expect_rc 0 "$FL" convert "$TMP/moved.xml" -o "$TMP/moved.net"
capture "$TMP/moved.net" "$TMP/moved.ibnetdiscover"
expect_rc 1 diff_json "$TMP/plan.xml" "$TMP/moved.ibnetdiscover"
expect_eq "$(rules_of)" "diff.misconnected" "exactly one difference"
expect_eq "$(python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['findings'][0]; print(f['message'])" "$TMP/diff.json" |
  grep -o "port 7" | sed -n 1p)" "port 7" "the difference names the moved end"
expect_grep "$TMP/diff.json" 'dgx-002 mlx5_1'

finish
