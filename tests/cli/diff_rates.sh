# SPDX-License-Identifier: MIT
# diff.different only for cables BELOW plan, never above, and the rate of
# a cable is its slower end: a real ibsim dump with three leaf-spine cables
# trained low (4xEDR, 1xHDR, 1xEDR) against a plan that also plans two
# cables lower than they are built (EDR, 1x) — those two are fine
# (tests/fixtures/ibsim-faults/make.sh). Kills the mutants diff-speed-ne,
# diff-speed-gt, diff-width-ne, diff-width-gt and diff-attr
# (tests/mutation/mutants.txt).
#
# Then causes (core/diff/diff_rates.c): the same shortfall on at least half
# of the compared cables, and on at least 8, is one finding for the fabric;
# every cable of a node (at least 4) short the same way is one finding for
# the node; each threshold exactly at the boundary and one past it, on
# plans from `fabriclint gen` with chosen links set lower (set_rate.py).
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/tests/fixtures/ibsim-faults"

expect_rc 0 "$FL" diff --format json "$F/rates.design.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], f['evidence']['cable'][0]['node'], f['evidence']['attribute'], f['evidence']['design'], f['evidence']['as_built']) for f in d['findings']]")" \
  "[('diff.different', 'warning', 'leaf-su01-r2', 'width', '4xHDR', '1xHDR'), ('diff.different', 'warning', 'leaf-su01-r4', 'speed', '4xHDR', '4xEDR'), ('diff.different', 'warning', 'leaf-su01-r5', 'width,speed', '4xHDR', '1xEDR')]" "three below plan, none above"
expect_eq "$(jget "$TMP/out" "['findings'][2]['message']")" \
  'cable "leaf-su01-r5" port 33 - "spine-01" port 41 runs at 1xEDR, planned 4xHDR (width and speed below plan: reseat or replace the cable)' "both below: message"
expect_eq "$(jget "$TMP/out" "['findings'][1]['message']")" \
  'cable "leaf-su01-r4" port 33 - "spine-01" port 33 runs at 4xEDR, planned 4xHDR (speed below plan: reseat or replace the cable)' "speed below: message"
# --fail-on warning turns them into exit 1; the work order has three rows
expect_rc 1 "$FL" diff --fail-on warning "$F/rates.design.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_rc 0 "$FL" diff --format csv "$F/rates.design.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_eq "$(grep -c ',replace,diff.different,' "$TMP/out")" 3 "work order rows"
# the reverse direction kept as given (--as-given): the dump as the plan,
# the edited plan as built — now only the two cables the plan "built" lower
# are below plan, and a warning says the arguments look reversed
expect_rc 0 "$FL" diff --as-given --format json "$F/rates.asbuilt.ibnetdiscover" "$F/rates.design.xml"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" \
  "['diff.different', 'diff.different', 'diff.reversed']" "as given: two and the warning"
python3 - "$TMP/out" >"$TMP/out2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["findings"] = [f for f in d["findings"] if f["rule"] != "diff.reversed"]
json.dump(d, sys.stdout)
PY
mv "$TMP/out2" "$TMP/out"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['cable'][0]['node'], f['evidence']['attribute'], f['evidence']['design'], f['evidence']['as_built']) for f in d['findings']]")" \
  "[('leaf-su01-r6', 'width', '4xHDR', '1xHDR'), ('leaf-su01-r3', 'speed', '4xHDR', '4xEDR')]" "reverse: two below plan"
# by default the reversed arguments are compared the right way round: the
# three cables really below plan are not lost
expect_rc 0 "$FL" diff --format json "$F/rates.asbuilt.ibnetdiscover" "$F/rates.design.xml"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence'].get('cable', [{}])[0].get('node')) for f in d['findings']]")" \
  "[('diff.different', 'leaf-su01-r2'), ('diff.different', 'leaf-su01-r4'), ('diff.different', 'leaf-su01-r5'), ('diff.reversed', None)]" \
  "reversed: the three below plan, and the warning"

# ---- causes: an NDR plan against the real HDR dump --------------------------
"$FL" gen rail-su --sus 1 --hosts-per-su 32 --rails 8 --speed NDR -o "$TMP/ndr.xml"
expect_rc 0 "$FL" diff --format json "$TMP/ndr.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['evidence'].get('scope', 'cable'), f['evidence']['attribute'], f['evidence'].get('cables', 1)) for f in d['findings']]")" \
  "[('fabric', 'speed', 510), ('cable', 'width', 1), ('cable', 'speed', 1), ('cable', 'width,speed', 1)]" \
  "NDR plan, HDR dump: one fabric cause and the three cables' own faults"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" \
  "510 of 512 compared cables run at speed HDR, planned NDR: one cause for the fabric, not 510 cable faults (reseating does not change a whole fabric's speed: check the generation of the switches and HCAs, their ports' speed configuration and firmware, or correct the plan)" \
  "fabric cause: message"
expect_eq "$(jget "$TMP/out" "['findings'][1]['message']")" \
  'cable "leaf-su01-r2" port 33 - "spine-01" port 17 runs at 1xHDR, planned 4xNDR (width below plan; its speed, HDR, is the fabric'"'"'s and reported once: reseat or replace the cable)' \
  "the 1x cable: its own fault is the width"
expect_eq "$(jget "$TMP/out" "['findings'][2]['message']")" \
  'cable "leaf-su01-r4" port 33 - "spine-01" port 33 runs at 4xEDR, planned 4xNDR (speed below plan; its speed is below the fabric'"'"'s HDR too: reseat or replace the cable)' \
  "the EDR cable: below the fabric's rate too"
expect_eq "$(jget "$TMP/out" "=[(c['action'], c['to']) for f in d['findings'][1:] for c in f['fix']['changes']]")" \
  "[('set-width', '4x'), ('set-speed', 'HDR'), ('set-width', '4x'), ('set-speed', 'HDR')]" \
  "the cables' fixes ask for the fabric's rate, not the plan's"
expect_rc 0 "$FL" diff --format csv "$TMP/ndr.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_eq "$(cut -d, -f2,3,4 "$TMP/out" | tr -d '\r' | tr '\n' ' ')" \
  "action,finding,a_node check,diff.different, replace,diff.different,leaf-su01-r2 replace,diff.different,leaf-su01-r4 replace,diff.different,leaf-su01-r5 " \
  "work order: one check row for the fabric, then the three cables"
# the other way round, as given: built above plan is never a finding
expect_rc 0 "$FL" diff --as-given --format json "$F/rates.asbuilt.ibnetdiscover" "$TMP/ndr.xml"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "['diff.reversed']" "HDR plan, NDR built: only the warning"

# ---- thresholds on generated plans -------------------------------------------
# kinds NAME PLAN ATTR=VALUE SELECTOR... — diff PLAN against a copy with the
# chosen links set lower; prints "scope:attribute:cables" per finding
kinds() {
  local plan=$1 set=$2
  shift 2
  python3 "$FL_SRC/tests/cli/set_rate.py" "$plan" "$TMP/built.xml" "$set" "$@" >/dev/null ||
    { fail "set_rate.py $*"; return; }
  "$FL" diff --format json "$plan" "$TMP/built.xml" >"$TMP/k.json" 2>"$TMP/k.err"
  jget "$TMP/k.json" "=' '.join('%s:%s:%s' % (f['evidence'].get('scope', 'cable'), f['evidence']['attribute'], f['evidence'].get('cables', 1)) for f in d['findings'])"
}
"$FL" gen fat-tree --radix 8 --hosts 16 -o "$TMP/ft32.xml" # 32 cables: 16 host, 16 leaf-spine
"$FL" gen fat-tree --radix 8 --hosts 8 -o "$TMP/ft16.xml"  # 16 cables
"$FL" gen fat-tree --radix 8 --hosts 6 -o "$TMP/ft14.xml"  # 14 cables
"$FL" gen fat-tree --radix 6 --hosts 9 -o "$TMP/ft18.xml"  # 3 spines of 3 cables
hosts() { local i; for ((i = 0; i < $1; i++)); do printf 'link=%d ' "$i"; done; }
one=$(printf 'cable:speed:1 %.0s' $(seq 15))
# half: 16 of 32 is the fabric's; 15 of 32 is 15 cables (no leaf has all 8)
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR $(hosts 16))" "fabric:speed:16" "16 of 32: the fabric"
fp16=$(jget "$TMP/k.json" "['findings'][0]['fingerprint']")
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR $(hosts 16) link=16)" "fabric:speed:17" "17 of 32: the fabric"
expect_eq "$(jget "$TMP/k.json" "['findings'][0]['fingerprint']")" "$fp16" "the fabric's cause keeps its fingerprint as its count changes"
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR $(hosts 15))" "${one% }" "15 of 32: fifteen cables"
expect_eq "$(jget "$TMP/k.json" "['findings'][0]['message']")" \
  'cable "node0001 mlx5_0" port 1 - "leaf-p01-01" port 1 runs at 4xHDR, planned 4xNDR (speed below plan: reseat or replace the cable)' \
  "no fabric cause: the plain cable message"
# at least 8: 8 of 16 is the fabric's; 7 of 14 (half, but fewer than 8) is not
expect_eq "$(kinds "$TMP/ft16.xml" speed=HDR $(hosts 8))" "fabric:speed:8" "8 of 16: the fabric"
expect_eq "$(kinds "$TMP/ft14.xml" speed=HDR $(hosts 6) link=6 | wc -w)" 7 "7 of 14: seven cables"
expect_eq "$(jget "$TMP/k.json" "=sorted(set(f['evidence'].get('scope', 'cable') for f in d['findings']))")" "['cable']" "7 of 14: no cause"
# a node: all 4 cables of a spine is the spine's; 3 of its 4 are cables;
# a spine of 3 cables (fewer than 4) is cables
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR node=spine-p01-01)" "node:speed:4" "a spine's 4 of 4: the spine"
expect_eq "$(jget "$TMP/k.json" "['findings'][0]['message']")" \
  'all 4 compared cables of "spine-p01-01" run at speed HDR, planned NDR: one cause at "spine-p01-01" (its ports'"'"' configuration, firmware or generation), not 4 cable faults' \
  "node cause: message"
expect_eq "$(jget "$TMP/k.json" "=(d['findings'][0]['nodes'], d['findings'][0]['evidence']['node'])")" \
  "(['spine-p01-01'], 'spine-p01-01')" "node cause: the node named"
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR node=spine-p01-01 skip=spine-p01-01:0)" \
  "cable:speed:1 cable:speed:1 cable:speed:1" "a spine's 3 of 4: three cables"
expect_eq "$(kinds "$TMP/ft18.xml" speed=HDR node=spine-p01-01)" \
  "cable:speed:1 cable:speed:1 cable:speed:1" "a spine of 3 cables: three cables"
# a leaf's 8 (host cables where it is end b, uplinks where it is end a):
# the leaf, and each spine's one slow cable is no node cause
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR node=leaf-p01-02 skip=leaf-p01-02:7)" "$(printf 'cable:speed:1 %.0s' $(seq 7) | sed 's/ $//')" "a leaf's 7 of 8: seven cables"
expect_eq "$(kinds "$TMP/ft32.xml" speed=HDR node=leaf-p01-02)" "node:speed:8" "a leaf at both ends of its cables"
"$FL" diff --format csv "$TMP/ft32.xml" "$TMP/built.xml" >"$TMP/wo.csv"
expect_eq "$(sed -n 2p "$TMP/wo.csv" | cut -d, -f2-4)" "check,diff.different,leaf-p01-02" "node cause: one check row naming the leaf"
expect_eq "$(wc -l <"$TMP/wo.csv")" 2 "node cause: that row alone"
# width, the same steps: 16 of 32 at 2x is the fabric's
expect_eq "$(kinds "$TMP/ft32.xml" width=2x $(hosts 16))" "fabric:width:16" "width: 16 of 32 at 2x"
expect_grep "$TMP/k.json" "16 of 32 compared cables run at width 2x, planned 4x"
# the other way round (the lowered copy as the plan): nothing is below plan
"$FL" diff --format json "$TMP/built.xml" "$TMP/ft32.xml" >"$TMP/k.json"
expect_eq "$(jget "$TMP/k.json" "=len(d['findings'])")" 0 "reversed: built above plan"
finish
