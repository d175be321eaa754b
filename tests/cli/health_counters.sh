#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/health_counters.sh — port counters (issue #18): every counter
# format loads and lands on named links, and the health plugin's findings.
#
# Data: tests/data/counters/ (real ibsim captures: make.sh sets counters
# with ibsim's PerformanceSet and reads them with perfquery and
# ibqueryerrors; pm-2.pm and prom-2.prom rewrite snapshot 2 in the
# ibdiagnet2.pm and exporter layouts) and tests/data/external/ (the real OSC
# perfquery -x captures and the exposition of treydock/infiniband_exporter's
# own test). The plan has cable ids C-001..C-059 and lacks the cable
# leaf-p01-08 port 8 <-> spine-p01-04 port 8, so ECMP predicts the links
# into leaf-p01-08 hot.
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/data/counters"
need_external treydock__infiniband_exporter__collectors__fixtures__ibnetdiscover__test.out \
  treydock__infiniband_exporter__collectors__switch_test.go__TestSwitchCollector.prom \
  treydock__infiniband_exporter__collectors__fixtures__perfquery__0x7cfe9003009ce5b0.out \
  treydock__infiniband_exporter__collectors__fixtures__perfquery__0x506b4b03005c2740.out

# findings FILE — "rule|class-or-cable|nodes" per finding, one per line
# (this and ev are read by lib.bash's jget: no python3 started per check)
summary() {
  jget "$1" "='\n'.join('%s|%s|%s' % (f['rule'], (f.get('evidence') or {}).get('class', (f.get('evidence') or {}).get('cable', '')), ','.join(f['nodes'])) for f in d['findings'])"
}
# ev FILE RULE EXPR — Python EXPR over the evidence e of the first finding of RULE
ev() {
  jget "$1" "=(lambda e: ($3))([f for f in d['findings'] if f['rule'] == '$2'][0]['evidence'])"
}

# ---- 1. the issue's case: plan + two ibqueryerrors snapshots ---------------------
# exactly two findings: the cable with symbol errors named from the plan,
# and the spine port whose xmit-wait sits on the link ECMP predicts hot
expect_rc 0 "$FL" check --rules 'health.*' --format json "$D/plan.xml" \
  "$D/ibqueryerrors-1.txt" "$D/ibqueryerrors-2.txt"
cp "$TMP/out" "$TMP/case.json"
expect_eq "$(summary "$TMP/case.json")" \
  "health.congestion|predicted-and-observed|spine-p01-01,leaf-p01-08
health.link-errors|C-038|leaf-p01-02,spine-p01-02" "case findings"
expect_eq "$(jget "$TMP/case.json" "=[f['ports'] for f in d['findings']]")" \
  "[[{'node': 'spine-p01-01', 'port': 8}, {'node': 'leaf-p01-08', 'port': 5}], [{'node': 'leaf-p01-02', 'port': 6}, {'node': 'spine-p01-02', 'port': 2}]]" "case ports"
expect_eq "$(ev "$TMP/case.json" health.link-errors "[(c['node'], c['port'], c['counter'], c['value'], c['delta']) for c in e['counters']]")" \
  "[('leaf-p01-02', 6, 'SymbolErrorCounter', 57, 40)]" "symbol errors: snapshot 2 value and the change"
expect_eq "$(ev "$TMP/case.json" health.link-errors "e['snapshots'], e['interval_s'] > 0")" "(2, True)" "two snapshots"
expect_eq "$(ev "$TMP/case.json" health.congestion "e['xmit_wait'], e['xmit_wait_delta'], e['routing'], round(e['predicted_load'] / e['mean_load'], 2)")" \
  "(523456, 400000, 'ECMP', 1.29)" "xmit-wait and the prediction"
expect_grep "$TMP/case.json" 'erroring cable C-038 \(leaf-p01-02 port 6 <-> spine-p01-02 port 2\)'
# warnings: --fail-on warning fails the run
expect_rc 1 "$FL" check --rules 'health.*' --fail-on warning "$D/plan.xml" \
  "$D/ibqueryerrors-1.txt" "$D/ibqueryerrors-2.txt"
# the noise ports are below min-share; at 0 they are observed-not-predicted
expect_rc 0 "$FL" check --rules health.congestion --format json \
  --param health.congestion.min-share=0 "$D/plan.xml" "$D/ibqueryerrors-2.txt"
expect_eq "$(summary "$TMP/out")" \
  "health.congestion|observed-not-predicted|leaf-p01-01,spine-p01-01
health.congestion|observed-not-predicted|spine-p01-03,leaf-p01-01
health.congestion|predicted-and-observed|spine-p01-01,leaf-p01-08" "noise ports"
# one snapshot: thresholds on totals
expect_rc 0 "$FL" check --rules health.link-errors --format json "$D/plan.xml" "$D/ibqueryerrors-1.txt"
expect_eq "$(ev "$TMP/out" health.link-errors "[(c['value'], 'delta' in c) for c in e['counters']]")" "[(17, False)]" "snapshot 1 total"
# a threshold above the count: no finding
expect_rc 0 "$FL" check --rules health.link-errors --format json \
  --param health.link-errors.symbol-errors=60 "$D/plan.xml" "$D/ibqueryerrors-1.txt"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "symbol-errors=60"
# thresholds are "above": the 17 symbol errors of snapshot 1 pass 16, not 17
for t in 16:1 17:0; do
  expect_rc 0 "$FL" check --rules health.link-errors --format json \
    --param health.link-errors.symbol-errors=${t%:*} "$D/plan.xml" "$D/ibqueryerrors-1.txt"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" "${t#*:}" "symbol-errors=${t%:*} on a total of 17"
done
# with two snapshots 5 s apart the 40 new symbol errors are 28800 per hour:
# above 28799, not above 28800
for t in 28799:1 28800:0; do
  expect_rc 0 "$FL" check --rules health.link-errors --format json \
    --param health.link-errors.symbol-errors=${t%:*} "$D/plan.xml" "$D/ibqueryerrors-1.txt" "$D/ibqueryerrors-2.txt"
  expect_eq "$(jget "$TMP/out" "=[(c['delta'], c['per_hour']) for f in d['findings'] for c in f['evidence']['counters']]")" \
    "$([ "${t#*:}" = 1 ] && echo "[(40, 28800)]" || echo "[]")" "symbol-errors=${t%:*} per hour on +40 in 5 s"
done
# min-xmit-wait judges the change between the snapshots (+400000 on
# spine-p01-01 port 8, whose total is 523456), at least the parameter
for t in 400000:1 400001:0; do
  expect_rc 0 "$FL" check --rules health.congestion --format json \
    --param health.congestion.min-xmit-wait=${t%:*} "$D/plan.xml" "$D/ibqueryerrors-1.txt" "$D/ibqueryerrors-2.txt"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" "${t#*:}" "min-xmit-wait=${t%:*} on a change of 400000"
done

# ---- 2. the same counters from every format land on the same links ---------------
# perfquery (LID-keyed) on the discovered dump; pm, Prometheus and
# ibqueryerrors --details (GUID-keyed) on the plan
for in in "asbuilt.ibnetdiscover perfquery-2.txt" "plan.xml pm-2.pm" \
  "plan.xml prom-2.prom" "plan.xml ibqueryerrors-details.txt"; do
  # shellcheck disable=SC2086 # two file names
  set -- $in
  expect_rc 0 "$FL" check --rules 'health.link-errors,health.congestion' --format json "$D/$1" "$D/$2"
  expect_eq "$(summary "$TMP/out" | sed 's/|C-038|/||/')" \
    "health.congestion|predicted-and-observed|spine-p01-01,leaf-p01-08
health.link-errors||leaf-p01-02,spine-p01-02" "findings from $2"
  expect_eq "$(ev "$TMP/out" health.link-errors "e['counters'][0]['value']")" 57 "symbol errors from $2"
  expect_eq "$(ev "$TMP/out" health.congestion "e['xmit_wait']")" 523456 "xmit-wait from $2"
done
# the perfquery capture read every switch port: the two reserved ports (not
# cabled in the simulation) are reported, not dropped
expect_rc 0 "$FL" check --rules health.counter-mapping --format json "$D/asbuilt.ibnetdiscover" "$D/perfquery-2.txt"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['cause'], f['evidence']['count'], f['ports']) for f in d['findings']]")" \
  "[('unknown-port', 2, [{'node': 'leaf-p01-08', 'port': 8}, {'node': 'spine-p01-04', 'port': 8}])]" "unknown ports"
# the same capture without the records of leaf-p01-02 (LID 3) and
# spine-p01-03 (LID 15): the cables with no counters at EITHER end are the
# leaf's 4 host cables and the cable between the two; those counted at one
# end only (the leaf's other uplinks, the spine's other downlinks) are not
awk '/^# Port counters: Lid /{skip = ($5 == 3 || $5 == 15)} !skip' "$D/perfquery-2.txt" >"$TMP/pq-cut.txt"
expect_eq "$(grep -c '^# Port counters' "$TMP/pq-cut.txt")" 80 "96 ports less the 16 of two switches"
expect_rc 0 "$FL" check --rules health.counter-mapping --format json "$D/asbuilt.ibnetdiscover" "$TMP/pq-cut.txt"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['count'], f['ports'][::2]) for f in d['findings'] if f['evidence'].get('cause') == 'no-counters']")" \
  "[(5, [{'node': 'leaf-p01-02', 'port': 1}, {'node': 'leaf-p01-02', 'port': 2}, {'node': 'leaf-p01-02', 'port': 3}, {'node': 'leaf-p01-02', 'port': 4}, {'node': 'leaf-p01-02', 'port': 7}])]" "cables with counters at neither end"
# two perfquery snapshots: rates
expect_rc 0 "$FL" check --rules health.link-errors --format json "$D/asbuilt.ibnetdiscover" \
  "$D/perfquery-1.txt" "$D/perfquery-2.txt"
expect_eq "$(ev "$TMP/out" health.link-errors "(e['counters'][0]['delta'], e['counters'][0]['per_hour'] > 10)")" "(40, True)" "perfquery rate"
# a plan without GUIDs: ibqueryerrors maps by node name (alias layer)
sed 's/ guid="0x[0-9a-f]*"//; s/ sysimgguid="0x[0-9a-f]*"//' "$D/plan.xml" >"$TMP/noguid.xml"
expect_eq "$(grep -c 'guid=' "$TMP/noguid.xml")" 0 "GUIDs stripped"
expect_rc 0 "$FL" check --rules 'health.*' --format json "$TMP/noguid.xml" \
  "$D/ibqueryerrors-1.txt" "$D/ibqueryerrors-2.txt"
expect_eq "$(summary "$TMP/out")" \
  "health.congestion|predicted-and-observed|spine-p01-01,leaf-p01-08
health.link-errors|C-038|leaf-p01-02,spine-p01-02" "mapped by name"

# ---- 3. public samples: the OSC perfquery -x captures and the exporter ------------
E="$FL_EXTERNAL/treydock__infiniband_exporter__collectors__fixtures__ibnetdiscover__test.out"
for c in "$FL_EXTERNAL/treydock__infiniband_exporter__collectors__switch_test.go__TestSwitchCollector.prom" \
  "$FL_EXTERNAL/treydock__infiniband_exporter__collectors__fixtures__perfquery__0x7cfe9003009ce5b0.out $FL_EXTERNAL/treydock__infiniband_exporter__collectors__fixtures__perfquery__0x506b4b03005c2740.out"; do
  # shellcheck disable=SC2086 # one or two file names
  expect_rc 0 "$FL" check --rules 'health.*' --format json "$E" $c
  expect_eq "$(ev "$TMP/out" health.congestion "e['xmit_wait'], e['share']")" "(22730501, 1)" "ib-i1l1s01 port 1 xmit-wait"
  expect_eq "$(jget "$TMP/out" "=[f['ports'] for f in d['findings'] if f['rule'] == 'health.congestion']")" \
    "[[{'node': 'ib-i1l1s01', 'port': 1}, {'node': 'ib-i1l2s01', 'port': 1}]]" "congested link"
  expect_eq "$(jget "$TMP/out" "=[f['evidence']['count'] for f in d['findings'] if f['evidence'].get('cause') == 'unknown-port']")" "[2]" "ports the dump lacks"
  # the captures cover switch ports 1 and 2 only: the three host cables
  # have counters at neither end
  expect_eq "$(jget "$TMP/out" "=[(f['evidence']['count'], f['ports'][1::2]) for f in d['findings'] if f['evidence'].get('cause') == 'no-counters']")" \
    "[(3, [{'node': 'ib-i1l1s01', 'port': 10}, {'node': 'ib-i1l1s01', 'port': 11}, {'node': 'ib-i4l1s01', 'port': 35}])]" "cables without counters"
  # the port holds the whole PortXmitWait: at least min-share 1
  # shellcheck disable=SC2086 # one or two file names
  expect_rc 0 "$FL" check --rules health.congestion --param health.congestion.min-share=1 --format json "$E" $c
  expect_eq "$(jget "$TMP/out" "=[f['ports'][0] for f in d['findings']]")" "[{'node': 'ib-i1l1s01', 'port': 1}]" "min-share=1: the port with all of it"
done

# ---- 4. bad input: file:line:col, exit 2 -------------------------------------------
printf '# Port counters: Lid 2 port 1 (CapMask: 0x1300)\nPortSelect:......................1\nSymbolErrorCounter:..............1x2\n' >"$TMP/bad-value.txt"
expect_rc 2 "$FL" check "$D/asbuilt.ibnetdiscover" "$TMP/bad-value.txt"
expect_grep "$TMP/err" 'bad-value\.txt:3:34: expected the value of SymbolErrorCounter'
printf '# Port counters: Lid 2 port 1 (CapMask: 0x1300)\nPortSelect:......................2\n' >"$TMP/bad-select.txt"
expect_rc 2 "$FL" check "$D/asbuilt.ibnetdiscover" "$TMP/bad-select.txt"
expect_grep "$TMP/err" 'bad-select\.txt:2:34: PortSelect 2 contradicts the header.s port 1'
head -c 300 "$D/perfquery-2.txt" >"$TMP/cut.txt"
expect_rc 2 "$FL" check "$D/asbuilt.ibnetdiscover" "$TMP/cut.txt"
expect_grep "$TMP/err" 'cut\.txt:[0-9]+:[0-9]+: truncated'
sed '1s/.*/# captured 2030-01-01T00:00:00Z/' "$D/ibqueryerrors-2.txt" >"$TMP/third.txt"
expect_rc 2 "$FL" check "$D/plan.xml" "$D/ibqueryerrors-1.txt" "$D/ibqueryerrors-2.txt" "$TMP/third.txt"
expect_grep "$TMP/err" 'third\.txt: a third counter capture time'
sed '1d' "$D/ibqueryerrors-2.txt" >"$TMP/untimed.txt"
expect_rc 2 "$FL" check "$D/plan.xml" "$D/ibqueryerrors-1.txt" "$TMP/untimed.txt"
expect_grep "$TMP/err" 'untimed\.txt: this counter input has no capture time'
sed '1d' "$D/ibqueryerrors-1.txt" >"$TMP/untimed1.txt"
expect_rc 2 "$FL" check "$D/plan.xml" "$TMP/untimed1.txt" "$TMP/untimed.txt"
expect_grep "$TMP/err" 'untimed\.txt:[0-9]+: GUID 0x0002c90301000002 \("leaf-p01-02"\) port 6: SymbolErrorCounter is 57 here but 17 at .*untimed1\.txt:[0-9]+'
sed '1s/.*/# captured yesterday/' "$D/ibqueryerrors-2.txt" >"$TMP/when.txt"
expect_rc 2 "$FL" check "$D/plan.xml" "$TMP/when.txt"
expect_grep "$TMP/err" 'when\.txt:1:12: expected a capture time'
printf 'infiniband_switch_port_symbol_error_total{port="1"} 3\n' >"$TMP/noguid.prom"
expect_rc 2 "$FL" check "$D/plan.xml" "$TMP/noguid.prom"
expect_grep "$TMP/err" 'noguid\.prom:1:1: a port counter needs the labels guid and port'
printf 'infiniband_switch_port_symbol_error_total{guid="0x1",port="1"} -3\n' >"$TMP/neg.prom"
expect_rc 2 "$FL" check "$D/plan.xml" "$TMP/neg.prom"
expect_grep "$TMP/err" 'neg\.prom:1:64: expected a counter value'
printf 'Port=1 Lid=0x0002 GUID=0x0002c90301000001 Device=1 Port Name=x/P1\nsymbol_error_counter=zz\n' >"$TMP/bad.pm"
expect_rc 2 "$FL" check "$D/plan.xml" "$TMP/bad.pm"
expect_grep "$TMP/err" 'bad\.pm:2:22: expected the value of symbol_error_counter'
printf 'Errors for 0x2 "x"\n   GUID 0x2 port 3: [SymbolErrorCounter = 4]\n' >"$TMP/bad-iq.txt"
expect_rc 2 "$FL" check "$D/plan.xml" "$TMP/bad-iq.txt"
expect_grep "$TMP/err" 'bad-iq\.txt:2:'
# the formats are detected by content
# (perfquery names ports by LID: it goes with the discovered dump, whose
# LIDs are the SM's; the plan's LIDs are gen's)
expect_rc 0 "$FL" info "$D/asbuilt.ibnetdiscover" "$D/perfquery-1.txt" "$D/ibqueryerrors-1.txt" "$D/pm-2.pm" "$D/prom-2.prom"
expect_grep "$TMP/out" 'perfquery-1\.txt \(perfquery\)'
expect_grep "$TMP/out" 'ibqueryerrors-1\.txt \(ibqueryerrors\)'
expect_grep "$TMP/out" 'pm-2\.pm \(ibdiagnet-pm\)'
expect_grep "$TMP/out" 'prom-2\.prom \(prometheus-ib\)'
expect_rc 0 "$FL" info --format json "$D/asbuilt.ibnetdiscover" "$D/perfquery-1.txt" "$D/perfquery-2.txt"
expect_eq "$(jget "$TMP/out" "=(d['counters']['snapshots'], d['counters']['ports'], d['counters']['unmapped'], d['counters']['interval_s'] > 1)")" \
  "(2, 94, 2, True)" "info: counters of the 96 cabled switch ports less the 2 reserved ones"

# ---- 5. a degraded cable that counts errors (make.sh's second ibsim run) ----------
# leaf-p01-03 port 5 <-> spine-p01-01 port 3 trained at 1x; 3 symbol errors
# and 1 link error recovery: below the link-errors thresholds, an error here
expect_rc 1 "$FL" check --rules 'health.*' --format json "$D/degraded.ibnetdiscover" "$D/degraded-ibqueryerrors.txt"
expect_eq "$(summary "$TMP/out")" "health.degraded-and-erroring||leaf-p01-03,spine-p01-01" "degraded and erroring"
expect_eq "$(ev "$TMP/out" health.degraded-and-erroring "e['seen'], [(c['node'], c['port'], c['counter'], c['value']) for c in e['counters']]")" \
  "('1xHDR', [('leaf-p01-03', 5, 'SymbolErrorCounter', 3), ('spine-p01-01', 3, 'LinkErrorRecoveryCounter', 1)])" "degraded evidence"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['severity']")" error "degraded severity"
# the same counters on the healthy 4x fabric: nothing (below thresholds)
expect_rc 0 "$FL" check --rules 'health.*' --format json "$D/asbuilt.ibnetdiscover" "$D/degraded-ibqueryerrors.txt"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "not degraded: no finding"

# ---- 6. without counters the plugin is silent ------------------------------------
expect_rc 0 "$FL" check --rules 'health.*' --format json "$FL_SRC/fabrics/fat-tree-2tier.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "no counters, no findings"
finish
