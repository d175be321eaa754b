# SPDX-License-Identifier: MIT
# DOT node names and kinds (core/io/dot_topo.c labels_name_nodes(),
# plain_label(), kind_of()). A label names a node only when the graph's
# plain labels tell its nodes apart: an outside tester's real drawings of a
# university cluster (tests/data/real/captures, ltaulell/HPC_toolset X5: the
# site's ibnetdiscover-to-DOT scripts) label four Voltaire switches alike
# and draw HTML or record tables; read by label they merged into one
# switch (50 false port-connected-twice errors, hosts typed as switches).
. "$(dirname "$0")/lib.bash"
C="$FL_SRC/tests/data/real/captures"
X=ltaulell__HPC_toolset__infiniband__X5
counts() { jget "$TMP/out" "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]"; }
expect_rc 0 "$FL" info --format json "$C/$X.topofile"
expect_eq "$(counts)" "[11, 89, 159]" "X5 ibnetdiscover: 11 switches, 89 CAs, 159 cables"
for v in 2 3 4; do # record labels (digraph, graph), HTML labels
  expect_rc 0 "$FL" info --format json "$C/$X.$v.dot"
  expect_eq "$(counts)" "[11, 89, 159]" "X5.$v.dot: the same fabric"
  expect_rc 0 "$FL" check --format json "$C/$X.$v.dot"
  expect_eq "$(jget "$TMP/out" "=sorted(set(f['rule'] for f in d['findings'] if f['severity'] != 'info'))")" "['ecmp-balance.uplink-asymmetry']" "X5.$v.dot: only the 4-uplink leaf"
done

# plain labels, all different: the labels are the names (both edge orders)
printf 'graph g {\n a [label="leaf1"]; b [label="spine1"];\n a -- b [tailport=p1, headport=p2];\n}\n' >"$TMP/uniq.dot"
printf 'graph g {\n a [label="leaf1"]; b [label="spine1"];\n b -- a [tailport=p2, headport=p1];\n}\n' >"$TMP/uniq2.dot"
for f in uniq uniq2; do
  expect_rc 0 "$FL" convert --format design -o "$TMP/$f.xml" "$TMP/$f.dot"
  expect_eq "$(grep -o '<node kind="switch" name="[^"]*"' "$TMP/$f.xml" | sort | tr '\n' ' ')" '<node kind="switch" name="leaf1" <node kind="switch" name="spine1" ' "$f: named by label"
done
# two nodes with one label: every node is named by its id
printf 'graph g {\n a [label="Voltaire 4036"]; b [label="Voltaire 4036"]; c [label="spine1"];\n a -- c [tailport=1, headport=1];\n b -- c [tailport=1, headport=2];\n}\n' >"$TMP/same.dot"
expect_rc 0 "$FL" convert --format design -o "$TMP/same.xml" "$TMP/same.dot"
expect_eq "$(grep -o '<node kind="switch" name="[^"]*"' "$TMP/same.xml" | sort | tr '\n' ' ')" '<node kind="switch" name="a" <node kind="switch" name="b" <node kind="switch" name="c" ' "two alike: named by id, three switches"
# HTML labels, all different, are drawings too: the ids name the nodes
printf 'graph g {\n a [label=<<B>leaf1</B>>]; b [label=<<B>spine1</B>>];\n a -- b [tailport=p1, headport=p2];\n}\n' >"$TMP/html.dot"
expect_rc 0 "$FL" convert --format design -o "$TMP/html.xml" "$TMP/html.dot"
expect_eq "$(grep -o '<node kind="switch" name="[^"]*"' "$TMP/html.xml" | sort | tr '\n' ' ')" '<node kind="switch" name="a" <node kind="switch" name="b" ' "unique HTML labels: named by id"
# a multi-line label is a drawing: the id names the node; type= gives the kind
printf 'graph g {\n "S-0008f10500200b50" [label="S-0008f10500200b50\\nVoltaire", type=Switch]; h [label="h1", type=Host];\n "S-0008f10500200b50" -- h [tailport=1, headport=1];\n}\n' >"$TMP/kind.dot"
expect_rc 0 "$FL" convert --format design -o "$TMP/kind.xml" "$TMP/kind.dot"
expect_eq "$(grep -o '<node kind="[a-z]*" name="[^"]*"' "$TMP/kind.xml" | sort | tr '\n' ' ')" '<node kind="ca" name="h1" <node kind="switch" name="S-0008f10500200b50" ' "type= kinds; a multi-line label is not a name"
# an ibnetdiscover node id gives the kind: H- is a CA
printf 'graph g {\n "S-0008f10500200b50" -- "H-003048c749cd0000" [tailport=1, headport=1];\n}\n' >"$TMP/ids.dot"
expect_rc 0 "$FL" convert --format design -o "$TMP/ids.xml" "$TMP/ids.dot"
expect_eq "$(grep -o '<node kind="[a-z]*" name="[^"]*"' "$TMP/ids.xml" | sort | tr '\n' ' ')" '<node kind="ca" name="H-003048c749cd0000" <node kind="switch" name="S-0008f10500200b50" ' "node ids S-/H- give the kinds"
finish
