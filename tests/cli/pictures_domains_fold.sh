#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/pictures_domains_fold.sh — the domains view folds (issue #32
# case 10): a clustering key whose (value, tier) switch groups and CA
# values exceed the 300 drawn nodes of a picture gives way to the next key
# (rack -> row -> ...), and when none fits nothing is clustered and
# switches fold as in the tiers view. Fixtures: N switches in a ring, each
# with a cable looped onto itself and a rack of its own (the case's
# reproducer), rows of ten racks. Boundary: 300 racks are 300 clusters,
# 301 are none (or the 31 rows when rows are given). The case's 2,000
# racks (144 s and 916 MB in Graphviz before) must finish in seconds.
. "$(dirname "$0")/lib.bash"

ring() { # N FILE: N switches in a ring
  awk -v n="$1" 'BEGIN { print "graph g {"; for (i = 0; i < n; i++) {
    printf "s%d -- s%d [src_port=1,dst_port=2];\n", i, i
    printf "s%d -- s%d [src_port=3,dst_port=4];\n", i, (i + 1) % n }
    print "}" }' >"$2"
}
racks() { # N ROWS(0|1) FILE: one rack per switch, rows of ten racks
  awk -v n="$1" -v rows="$2" 'BEGIN { print rows ? "node,rack,row" : "node,rack"
    for (i = 0; i < n; i++)
      if (rows) printf "s%d,R%d,row%d\n", i, i, int(i / 10); else printf "s%d,R%d\n", i, i }' >"$3"
}
clusters() { grep -c 'subgraph "\?cluster' "$1"; }

for n in 300 301; do
  ring "$n" "$TMP/ring$n.dot"
  racks "$n" 0 "$TMP/racks$n.csv"
  racks "$n" 1 "$TMP/rows$n.csv"
done

# 300 racks: exactly at the limit, one cluster per rack
expect_rc 0 "$FL" check --format dot --view domains -o "$TMP/v300.dot" "$TMP/ring300.dot" "$TMP/racks300.csv"
expect_eq "$(clusters "$TMP/v300.dot")" 300 "300 racks: clusters"
expect_grep "$TMP/v300.dot" 'label="rack R299"'
expect_grep "$TMP/v300.dot" '600 cables; clusters: rack"'
# 301 racks, no coarser key: no cluster, switches folded per tier
expect_rc 0 "$FL" check --format dot --view domains -o "$TMP/v301.dot" "$TMP/ring301.dot" "$TMP/racks301.csv"
expect_eq "$(clusters "$TMP/v301.dot")" 0 "301 racks: clusters"
expect_grep "$TMP/v301.dot" '602 cables; clusters: none \(folded\)"'
expect_grep "$TMP/v301.dot" 'id="group-tier-1"'
expect_grep "$TMP/v301.dot" 'rack values make more than 300 drawn nodes: not drawn as clusters'
# 301 racks in 31 rows: clusters by row, switches folded per (row, tier)
expect_rc 0 "$FL" check --format dot --view domains -o "$TMP/r301.dot" "$TMP/ring301.dot" "$TMP/rows301.csv"
expect_eq "$(clusters "$TMP/r301.dot")" 31 "301 racks in rows: clusters"
expect_grep "$TMP/r301.dot" 'id="group-in-row29-tier-1"'
[ "$(grep -c 'group-in-R[0-9]' "$TMP/r301.dot")" -eq 0 ] && pass || fail "301 racks in rows: a group per rack"
expect_grep "$TMP/r301.dot" 'rack values make more than 300 drawn nodes: clusters by row'
# 300 racks in 30 rows: racks fit, clusters by rack
expect_rc 0 "$FL" check --format dot --view domains -o "$TMP/r300.dot" "$TMP/ring300.dot" "$TMP/rows300.csv"
expect_eq "$(clusters "$TMP/r300.dot")" 300 "300 racks in rows: clusters"

# the case's 2,000 racks, HTML (laid out by libgvc): seconds, no cluster
ring 2000 "$TMP/ring2000.dot"
racks 2000 0 "$TMP/racks2000.csv"
expect_rc 0 timeout 60 "$FL" check --format html --view domains -o "$TMP/v2000.html" "$TMP/ring2000.dot" "$TMP/racks2000.csv"
expect_eq "$(grep -c 'id="domain-rack' "$TMP/v2000.html")" 0 "2000 racks: clusters drawn"
expect_grep "$TMP/v2000.html" 'rack values make more than 300 drawn nodes'
finish
