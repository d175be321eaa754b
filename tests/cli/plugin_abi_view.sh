# SPDX-License-Identifier: MIT
# The plugin ABI across issue 29: a plugin built before the switch view's
# algorithms moved into the host still loads and runs, and gives what the
# same plugin built against today's SDK gives.
#
# tests/abi/view_probe.c is built twice (tests/CMakeLists.txt):
# view_probe_1_5.so against the ABI 1.5 SDK frozen in tests/abi/sdk-1.5/
# (view.h, covers.h and dist_split.h as static inline code: the algorithms
# are inside the plugin, which sees the 1.5 host table), and view_probe.so
# against include/ (ABI 1.6: the same calls go through fl_host_api to
# core/analysis/swview*.c, covers.c and core/host/split_*.c). Each reports
# four findings: a digest of every array of the view, the matrix of
# minimal next hops, the compact form (cover classes, groups) and the
# per-node helpers. Both must report the same bytes on every fabric, and
# the figures are checked against what the fabrics are by construction.
# The test fails when the host breaks a plugin of the old ABI (a table
# member moved, the minor refused, a struct changed under it) and when the
# host's algorithms differ from the ones plugins carried.
. "$(dirname "$0")/lib.bash"
TP="$FL_BUILD/tests/plugins"
OLD="$TP/view_probe_1_5.so" MID="$TP/view_probe_1_6.so" NEW="$TP/view_probe.so"
[ -f "$OLD" ] && [ -f "$MID" ] && [ -f "$NEW" ] || { fail "view probes not built"; finish; }

# the old one declares ABI 1.5 and loads into this host; the middle one 1.6
# (its fl_view ends before the 1.7 member threads), the new one 1.7
for pa in "$OLD:1.5" "$MID:1.6" "$NEW:1.7"; do
  expect_rc 0 "$FL" rules --no-builtin-plugins --plugin "${pa%:*}" --format json
  expect_eq "$(jget "$TMP/out" "=[(p['name'], p['abi']) for p in d['plugins']]")" \
    "[('tp-view', '${pa##*:}')]" "ABI of $(basename "${pa%:*}")"
done
# the old plugin carries the algorithms; the new one only calls the table
expect_eq "$(nm -D --undefined-only "$OLD" | grep -c -w -E 'pthread_create|qsort|strtod')" 3 "old probe's own algorithms"
expect_eq "$(nm -D --undefined-only "$NEW" | grep -c -w -E 'pthread_create|qsort|strtod')" 0 "new probe calls the host"
expect_eq "$(nm -D --undefined-only "$MID" | grep -c -w -E 'pthread_create|qsort|strtod')" 0 "1.6 probe calls the host"

# probe FILE...: both probes on the inputs; the same findings, kept in
# $TMP/probe (one message a line, in report order)
probe() {
  expect_rc 0 "$FL" check --no-builtin-plugins --plugin "$OLD" --format json "$@"
  jget "$TMP/out" "='\n'.join(f['message'] for f in d['findings'])" >"$TMP/probe.old"
  expect_rc 0 "$FL" check --no-builtin-plugins --plugin "$NEW" --format json "$@"
  jget "$TMP/out" "='\n'.join(f['message'] for f in d['findings'])" >"$TMP/probe"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 4 "findings of the probe on $*"
  if cmp -s "$TMP/probe.old" "$TMP/probe"; then pass; else
    fail "ABI 1.5 and 1.7 probes differ on $*: $(diff "$TMP/probe.old" "$TMP/probe" | head -4)"
  fi
  expect_rc 0 "$FL" check --no-builtin-plugins --plugin "$MID" --format json "$@"
  jget "$TMP/out" "='\n'.join(f['message'] for f in d['findings'])" >"$TMP/probe.mid"
  if cmp -s "$TMP/probe.mid" "$TMP/probe"; then pass; else
    fail "ABI 1.6 and 1.7 probes differ on $*: $(diff "$TMP/probe.mid" "$TMP/probe" | head -4)"
  fi
}
line() { grep "^$1:" "$TMP/probe"; }

# a radix-4 3-tier fat tree: 8 leaves (2 hosts each), 8 spines, 4 cores;
# nested, so the compact form has classes: 8 leaves, 4 pods, 1 top
"$FL" gen fat-tree --radix 4 --tiers 3 -o "$TMP/ft.xml" || fail "gen ft"
probe "$TMP/ft.xml"
expect_grep "$TMP/probe" '^view: 20 switches, 8 destination switches, 16 endpoints, 80 slots, 32 uplinks, 16 LIDs, digest '
expect_grep "$TMP/probe" '^matrix: 0 cover classes, hops 432, next hops 256, 0 unreachable, 0 mixed, 0 groups \(0\), digest '
expect_grep "$TMP/probe" '^compact: 13 cover classes, hops 432, next hops 256, 0 unreachable, 0 mixed, 48 groups \(629\), digest [0-9a-f]{16}$'
expect_grep "$TMP/probe" '^nodes: 36 cabled to a switch, 0 SHARP ANs, 96 cabled ports, design ratios 20\.0000, digest '

# one leaf-to-spine cable cut: not nested, the compact form is the matrix
cut=$(grep -n '<link ' "$TMP/ft.xml" | grep 'leaf-p01-01' | grep 'spine' | head -1 | cut -d: -f1)
sed "${cut}d" "$TMP/ft.xml" >"$TMP/ft-cut.xml"
probe "$TMP/ft-cut.xml"
expect_grep "$TMP/probe" '^view: 20 switches, 8 destination switches, 16 endpoints, 78 slots, 31 uplinks,'
expect_grep "$TMP/probe" '^compact: 0 cover classes, .*0 groups \(0\)'
expect_eq "$(line matrix | sed 's/^matrix//')" "$(line compact | sed 's/^compact//')" "cut tree: compact = matrix"

# a real capture with SHARP Aggregation Nodes, and a plan that declares 2:1
probe "$FL_SRC/fabrics/shape/superpod-2tier.ibnetdiscover"
expect_grep "$TMP/probe" '^nodes: .* [1-9][0-9]* SHARP ANs,'
"$FL" gen rail-su --sus 2 --oversubscription 2:1 -o "$TMP/rail.xml" || fail "gen rail"
probe "$TMP/rail.xml"
expect_grep "$TMP/probe" '^nodes: .*design ratios [0-9]+\.[0-9]+,'
# a director (chassis ASICs) and a 3-tier capture with routing
probe "$FL_SRC/fabrics/director/director.ibnetdiscover"
probe "$FL_SRC/fabrics/fat-tree-3tier.ibnetdiscover"
finish
