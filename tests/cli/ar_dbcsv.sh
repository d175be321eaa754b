# SPDX-License-Identifier: MIT
# adaptive-routing from ibdiagnet2.db_csv (section AR_INFO) on the real
# ftree topology of tests/fixtures/routing/fat-tree-2tier-ftree: the
# db_csv fixtures in tests/fixtures/dbcsv are hand-written from the
# documented layout (no real public db_csv exists and no tool here writes
# one). AR_INFO sets the `ar` / `ar-sl-mask` switch attributes; a switch the
# db_csv says has AR off is `adaptive-routing.disabled`; malformed files are
# refused with file:line:col.
. "$(dirname "$0")/lib.bash"
R="--rules adaptive-routing --format json"
FX="$FL_SRC/tests/fixtures"
T="$FX/routing/fat-tree-2tier-ftree/topology.ibnetdiscover"
rules() { jget "$TMP/out" "=sorted((f['rule'], f['severity']) for f in d['findings'] if f['severity'] != 'info')"; }
summ() { jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'adaptive-routing.summary'][0]$1"; }

# detection: by content, whatever the name
cp "$FX/dbcsv/ar-on.db_csv" "$TMP/dump.txt"
expect_rc 0 "$FL" info --format json "$T" "$TMP/dump.txt"

# AR on every switch: nothing fires, coverage 100 %
expect_rc 0 "$FL" check $R "$T" "$FX/dbcsv/ar-on.db_csv"
expect_eq "$(rules)" "[]" "all on: no warning"
expect_eq "$(summ "['coverage_percent']")" "100" "all on: coverage"
# the db_csv may come first on the command line: it loads after the topology
expect_rc 0 "$FL" check $R "$FX/dbcsv/ar-on.db_csv" "$T"
expect_eq "$(rules)" "[]" "all on, db_csv first"

# leaf-p01-02 has AR off; leaf-p01-03 adapts on SLs 0-3 only
expect_rc 0 "$FL" check $R "$T" "$FX/dbcsv/ar-leaf-off.db_csv"
expect_eq "$(rules)" "[('adaptive-routing.coverage', 'warning'), ('adaptive-routing.disabled', 'warning'), ('adaptive-routing.sl-restricted', 'warning')]" "leaf off: findings"
expect_eq "$(jget "$TMP/out" "=[f['nodes'][0] for f in d['findings'] if f['rule'] == 'adaptive-routing.disabled']")" "['leaf-p01-02']" "leaf off: the leaf"
expect_eq "$(jget "$TMP/out" "=[(f['nodes'][0], f['evidence']['sls_not_adaptive']) for f in d['findings'] if f['rule'] == 'adaptive-routing.sl-restricted']")" "[('leaf-p01-03', '0xfff0')]" "leaf off: SL mask"
expect_eq "$(summ "['coverage_percent']")" "75" "leaf off: coverage"

# same with CRLF line ends
sed 's/$/\r/' "$FX/dbcsv/ar-leaf-off.db_csv" >"$TMP/crlf.db_csv"
expect_rc 0 "$FL" check $R "$T" "$TMP/crlf.db_csv"
expect_eq "$(jget "$TMP/out" "=[f['nodes'][0] for f in d['findings'] if f['rule'] == 'adaptive-routing.disabled']")" "['leaf-p01-02']" "CRLF: the leaf"

# the switch the topology lacks: skipped with a routing note
expect_rc 0 "$FL" check --rules deadlock.routing-input --format json "$T" "$FX/dbcsv/ar-leaf-off.db_csv"
expect_grep "$TMP/out" "AR_INFO row for switch GUID 0x0002c903010000ff skipped"

# malformed files: exit 2 naming file:line:col
bad() { # bad NAME SED-EXPR REGEX
  sed "$2" "$FX/dbcsv/ar-on.db_csv" >"$TMP/$1.db_csv"
  expect_rc 2 "$FL" check $R "$T" "$TMP/$1.db_csv"
  expect_grep "$TMP/err" "$3"
}
bad fields 's/^\(0x0002c90301000003,.*\),30$/\1/' "fields.db_csv:34:63: .*row has 19 fields, expected 20"
bad guid 's/^0x0002c90301000003,/0x00x2c90301000003,/' "guid.db_csv:34:1: .*expected a node GUID"
bad enable 's/^\(0x0002c90301000003\),1,/\1,yes please,/' "enable.db_csv:34:20: .*expected the AR enable bit"
bad unclosed '/^END_AR_INFO/d' "unclosed.db_csv:30:1: .*START_AR_INFO is never closed: expected END_AR_INFO"
bad stray_end 's/^START_SWITCHES$/# gone/' "stray_end.db_csv:28:1: END_SWITCHES without START_SWITCHES"
finish
