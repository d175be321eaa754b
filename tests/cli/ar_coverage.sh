# SPDX-License-Identifier: MIT
# adaptive-routing on generated designs (`ar` switch attribute) and on
# hand-written ibdiagnet2.far fixtures (tests/fixtures/ar: no tool here
# produces .far files; they follow the documented grammar and carry the
# static ports of real OpenSM ftree LFTs), with known answers; malformed
# .far files are refused with file:line:col.
. "$(dirname "$0")/lib.bash"
R="--rules adaptive-routing --format json"
FX="$FL_SRC/tests/fixtures"
rules() { jget "$TMP/out" "=sorted((f['rule'], f['severity']) for f in d['findings'] if f['severity'] != 'info')"; }
summ() { jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'adaptive-routing.summary'][0]$1"; }

# a plan without AR information: silent but for the summary
"$FL" gen fat-tree --radix 4 --tiers 2 -o "$TMP/plain.xml"
expect_rc 0 "$FL" check $R "$TMP/plain.xml"
expect_eq "$(rules)" "[]" "no AR info: no warning"
expect_eq "$(summ "['source']")" "none" "no AR info: source"
expect_eq "$(summ "['multipath_pairs']")" "24" "no AR info: multipath pairs"

# AR on every switch: coverage 100 %
sed 's/<node kind="switch" /<node kind="switch" ar="true" /' "$TMP/plain.xml" >"$TMP/ar.xml"
expect_rc 0 "$FL" check $R "$TMP/ar.xml"
expect_eq "$(rules)" "[]" "AR on: no warning"
expect_eq "$(summ "['coverage_percent']")" "100" "AR on: coverage"

# AR off on one leaf (and one spine, which has no multipath: not reported)
sed 's/ar="true" name="leaf-p01-03"/ar="false" name="leaf-p01-03"/;s/ar="true" name="spine-p01-02"/ar="false" name="spine-p01-02"/' "$TMP/ar.xml" >"$TMP/off.xml"
expect_rc 0 "$FL" check $R "$TMP/off.xml"
expect_eq "$(rules)" "[('adaptive-routing.coverage', 'warning'), ('adaptive-routing.disabled', 'warning')]" "AR off: findings"
expect_eq "$(jget "$TMP/out" "=[f['nodes'][0] for f in d['findings'] if f['rule'] == 'adaptive-routing.disabled']")" "['leaf-p01-03']" "AR off: the leaf"
expect_eq "$(summ "['coverage_percent']")" "75" "AR off: coverage"
expect_eq "$(summ "['tiers']")" "[{'coverage_percent': 75, 'covered_pairs': 18, 'multipath_pairs': 24, 'tier': 1}]" "AR off: per tier"
expect_rc 0 "$FL" check $R --param adaptive-routing.coverage.threshold=75 "$TMP/off.xml"
expect_eq "$(rules)" "[('adaptive-routing.disabled', 'warning')]" "threshold 75"

# one spine only: no switch has two minimal next hops, so AR on everywhere
# has nothing to cover: no coverage finding, 0 pairs at 100 %
sed '/b="spine-p01-02"/d' "$TMP/ar.xml" >"$TMP/onespine.xml"
expect_rc 0 "$FL" check $R "$TMP/onespine.xml"
expect_eq "$(rules)" "[]" "one spine: no warning"
expect_eq "$(summ "['multipath_pairs']") $(summ "['coverage_percent']")" "0 100" "one spine: no multipath pair"

# SL restriction from the SM's ar_sl_mask
expect_rc 0 "$FL" check $R --param adaptive-routing.sl-restricted.sl-mask=0x000f "$TMP/ar.xml"
expect_eq "$(rules)" "[('adaptive-routing.sl-restricted', 'warning')]" "sl mask"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['sls_not_adaptive'] for f in d['findings'] if f['rule'] == 'adaptive-routing.sl-restricted']")" "['0xfff0']" "sl mask: SLs"
expect_rc 0 "$FL" check $R --param adaptive-routing.sl-restricted.sl-mask=0xffff "$TMP/ar.xml"
expect_eq "$(rules)" "[]" "sl mask full"

# ibdiagnet2.far on the real ftree routing of the same tree
F="$FX/routing/fat-tree-2tier-ftree"
T="$F/topology.ibnetdiscover $F/opensm-lfts.dump"
expect_rc 0 "$FL" check $R $T "$FX/ar/good.far"
expect_eq "$(rules)" "[]" "far good"
expect_eq "$(summ "['source']")" "ibdiagnet2.far" "far good: source"
expect_eq "$(summ "['coverage_percent']")" "100" "far good: coverage"
expect_rc 0 "$FL" check $R $T "$FX/ar/partial-group.far"
expect_eq "$(rules)" "[('adaptive-routing.coverage', 'warning'), ('adaptive-routing.partial-group', 'warning')]" "far partial: findings"
expect_eq "$(jget "$TMP/out" "=[(f['nodes'][0], f['evidence']['group'], f['evidence']['missing_ports'], f['evidence']['group_ports'], f['evidence']['lids']) for f in d['findings'] if f['rule'] == 'adaptive-routing.partial-group']")" \
  "[('leaf-p01-01', 1, [4], [3], 6)]" "far partial: group, missing port, LIDs"
expect_eq "$(summ "['coverage_percent']")" "75" "far partial: coverage"
# a group holding a port that is no minimal next hop (host port 1 added to
# leaf-p01-01's group 1): partial-group names it as non-minimal; the LIDs
# stay covered (their minimal ports are in the group)
sed '0,/^1      0          0     3,4,$/s//1      0          0     1,3,4,/' "$FX/ar/good.far" >"$TMP/extra.far"
expect_rc 0 "$FL" check $R $T "$TMP/extra.far"
expect_eq "$(rules)" "[('adaptive-routing.partial-group', 'warning')]" "far extra port: findings"
expect_eq "$(jget "$TMP/out" "=[(f['nodes'][0], f['evidence']['group'], f['evidence']['missing_ports'], f['evidence']['non_minimal_ports'], f['evidence']['group_ports'], f['evidence']['lids']) for f in d['findings'] if f['rule'] == 'adaptive-routing.partial-group']")" \
  "[('leaf-p01-01', 1, [], [1], [1, 3, 4], 6)]" "far extra port: group, non-minimal port, LIDs"
expect_eq "$(summ "['coverage_percent']")" "100" "far extra port: coverage"
expect_rc 0 "$FL" check $R $T "$FX/ar/static-leaf.far"
expect_eq "$(rules)" "[('adaptive-routing.coverage', 'warning'), ('adaptive-routing.disabled', 'warning')]" "far static: findings"
expect_eq "$(jget "$TMP/out" "=[(f['nodes'][0], f['evidence']['reason']) for f in d['findings'] if f['rule'] == 'adaptive-routing.disabled']")" \
  "[('leaf-p01-02', 'the AR dump sets every LID of it to Static')]" "far static: leaf"

# malformed .far files: exit 2 naming file:line:col
bad() { # bad NAME SED-EXPR REGEX
  sed "$2" "$FX/ar/good.far" >"$TMP/$1.far"
  expect_rc 2 "$FL" check $R $T "$TMP/$1.far"
  expect_grep "$TMP/err" "$3"
}
bad state 's/^0x0003 3 Free 1$/0x0003 3 Dynamic 1/' "state.far:[0-9]+:[0-9]+: .*expected the LID state Static, HBF or Free"
bad port 's/^1      0          0     3,4,$/1      0          0     3,400,/' "port.far:[0-9]+:[0-9]+: port number 400 is out of range \(allowed 0..255\)"
bad comma 's/^1      0          0     3,4,$/1      0          0     3 4,/' "comma.far:[0-9]+:[0-9]+: .*expected \`,\` after port 3"
bad lid 's/^0x0003 3 Free 1$/0xc000 3 Free 1/' "lid.far:[0-9]+:1: LID 0xc000 is out of range \(allowed 0x0001..0xbfff, unicast\)"
bad plft 's/^PLFT_NUM: 0, top: 0x000e$/PLFT_NUM: 0 top: 0x000e/' "plft.far:[0-9]+:[0-9]+: .*PLFT_NUM"
printf 'File version: 1\nLFT Definition:\n' >"$TMP/nosw.far"
expect_rc 2 "$FL" check $R $T "$TMP/nosw.far"
expect_grep "$TMP/err" "nosw.far:2:1: .*section before any"
head -c 690 "$FX/ar/good.far" >"$TMP/cut.far"
expect_rc 2 "$FL" check $R $T "$TMP/cut.far"
expect_grep "$TMP/err" "cut.far:[0-9]+:[0-9]+: truncated"
# a switch the topology lacks: skipped with a routing note (deadlock.routing-input)
sed 's/^Switch 0x0002c90301000001 /Switch 0x0002c903010000ff /' "$FX/ar/good.far" >"$TMP/unknown.far"
expect_rc 0 "$FL" check --rules deadlock.routing-input --format json $T "$TMP/unknown.far"
expect_grep "$TMP/out" "AR tables for switch GUID 0x0002c903010000ff skipped"
# ... and only there: routing notes are not topology.input's
expect_rc 0 "$FL" check --rules topology.input,deadlock.routing-input --format json $T "$TMP/unknown.far"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "['deadlock.routing-input']" "a skipped AR table: one routing note"
# cut inside the first switch's LFT section, at a line boundary: a note;
# cut before any LFT section of the last switch: an error naming its line
head -n 20 "$FX/ar/good.far" >"$TMP/cut.far"
expect_rc 0 "$FL" check --rules deadlock.routing-input --format json $T "$TMP/cut.far"
expect_grep "$TMP/out" "lists LIDs up to 0x0006 but declares top 0x000e: the file may be cut short"
head -n 10 "$FX/ar/good.far" >"$TMP/cut2.far"
expect_rc 2 "$FL" check --rules deadlock.routing-input $T "$TMP/cut2.far"
expect_grep "$TMP/err" "cut2.far:7:1: truncated: the last Switch block has no .LFT Definition:. section"
finish
