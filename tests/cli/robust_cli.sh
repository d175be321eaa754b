# Robustness on the output / command-line / host side (issue 11): inputs in
# the wrong role, output files that must never be destroyed, parameter
# ranges, plugin trust along the whole path.
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/data/robustness"
R="$FL_SRC/tests/fixtures/routing/fat-tree-2tier-ftree"
"$FL" gen fat-tree --radix 4 -o "$TMP/ft4.xml" || fail "gen ft4.xml"

# ---- inputs in the wrong role ------------------------------------------------
# diff whose as-built side is only routing state: no topology, exit 2
expect_rc 2 "$FL" diff "$TMP/ft4.xml" "$R/opensm-lfts.dump"
expect_grep "$TMP/err" "^fabriclint: no topology among the as-built inputs: .*/opensm-lfts\.dump is lfts, which describes no cable"
expect_eq "$(wc -c <"$TMP/out")" 0 "diff with a routing-only side prints no report"
# ... and the design side likewise, also with --design / --as-built
expect_rc 2 "$FL" diff --design "$R/opensm-lfts.dump" --as-built "$R/topology.ibnetdiscover"
expect_grep "$TMP/err" "no topology among the design inputs: .*opensm-lfts\.dump is lfts"
# a topology plus routing on one side is fine
expect_rc 0 "$FL" diff --fail-on never --as-built "$R/topology.ibnetdiscover" --as-built "$R/opensm-lfts.dump" --design "$R/topology.ibnetdiscover"
# check/info with only routing state: exit 2 as well
expect_rc 2 "$FL" check "$R/opensm-lfts.dump"
expect_grep "$TMP/err" "no topology among the inputs"
# the flow-list annotation form of docs/rules/failure-domains.md is detected
expect_rc 0 "$FL" info "$TMP/ft4.xml" "$D/annotations-flow-list.yaml"
expect_grep "$TMP/out" "annotations-flow-list\.yaml \(annotations\)"
# ... and its entries are read: an unknown name in the flow list is an error
printf 'nodes: [{name: spine-p01-01, rack: R01}, {name: ghost, rack: R9}]\n' >"$TMP/ghost.yaml"
expect_rc 2 "$FL" info "$TMP/ft4.xml" "$TMP/ghost.yaml"
expect_grep "$TMP/err" 'ghost\.yaml:1:.*unknown node "ghost"'

finish
