#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/formats_graphml.sh — the GraphML loader (core/io/graphml.c):
# 1. N2G's yEd drawing (public sample, dmulyalin/N2G, MIT): exact counts,
#    ports from the y:EdgeLabel placed at source/target, a diff against a
#    plan written in the documented keys (tests/data/formats/n2g-plan.graphml)
#    with exactly the one moved cable;
# 2. the documented keys: speed, kind, GraphML sourceport/targetport;
# 3. bad input: file:line and exit 2.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
n2g=dmulyalin__N2G__tests__Output__should_be_test_lldp_drawing_yed_data_dict.graphml
need_external $n2g
x=$FL_EXTERNAL/$n2g
plan=$src/tests/data/formats/n2g-plan.graphml

# ---- 1. the yEd drawing -------------------------------------------------------
expect_rc 0 "$FL" info "$x"
expect_grep "$TMP/out" '\(graphml\)$'
expect_grep "$TMP/out" '^fabric: 4 switches, 0 CAs, 0 routers, 3 links$'
expect_rc 1 "$FL" diff --format json "$plan" "$x"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" diff.misconnected "findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" 'cable from "switch-1" GE1/1 lands on "switch-3" GE0/1; the plan puts it on "switch-3" GE0/2: move that end from "switch-3" GE0/1 to "switch-3" GE0/2' "message"
expect_eq "$(jget "$TMP/out" "['findings'][0]['location']['line']")" 17 "plan line"
# the plan corrected: no finding (the third cable is written target-first)
sed 's|>GE0/2<|>GE0/1<|' "$plan" >"$TMP/fixed.graphml"
expect_rc 0 "$FL" diff "$TMP/fixed.graphml" "$x"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '

# ---- 2. documented keys ---------------------------------------------------------
cat >"$TMP/ib.graphml" <<'G'
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="n" for="node" attr.name="name"/><key id="k" for="node" attr.name="Kind"/>
  <key id="sp" for="edge" attr.name="src_port"/><key id="dp" for="edge" attr.name="dst_port"/>
  <key id="s" for="edge" attr.name="speed"/><key id="len" for="edge" attr.name="length"/>
  <graph edgedefault="undirected">
    <node id="l1"><data key="n">leaf-1</data></node>
    <node id="s1"><data key="n">spine-1</data><data key="k">switch</data></node>
    <node id="h1"><data key="n">gpu-01 mlx5_0</data><data key="k">ca</data></node>
    <node id="h2"><data key="k">host</data><port name="1"/></node>
    <node id="lonely"><data key="k">ca</data></node>
    <edge source="l1" target="s1"><data key="sp">33</data><data key="dp">1</data><data key="s">4xNDR</data><data key="len">3m</data></edge>
    <edge source="h1" target="l1"><data key="sp">1</data><data key="dp">1</data><data key="s">NDR</data></edge>
    <edge source="h2" target="l1" sourceport="1" targetport="2"><data key="s">400G</data></edge>
  </graph>
</graphml>
G
expect_rc 0 "$FL" info --format json "$TMP/ib.graphml"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" "(2, 3, 3)" "counts"
expect_eq "$(jget "$TMP/out" "=sorted(d['link_types'].items())")" "[('1x400G', 1), ('4xNDR', 2)]" "link types"

# ---- 3. bad input ------------------------------------------------------------
sed 's|placement="target"|placement="center"|' "$x" >"$TMP/noport.graphml"
expect_rc 2 "$FL" info "$TMP/noport.graphml"
expect_grep "$TMP/err" 'noport\.graphml:61: edge switch-1 -- switch-2 names no port at its target end; expected src_port and dst_port data'
sed 's|target="h1"|target="h9"|; s|<edge source="h1"|<edge source="h9"|' "$TMP/ib.graphml" >"$TMP/dangling.graphml"
expect_rc 2 "$FL" info "$TMP/dangling.graphml"
expect_grep "$TMP/err" 'dangling\.graphml:12: edge source: no <node id="h9">$'
sed 's|>400G<|>fast<|' "$TMP/ib.graphml" >"$TMP/speed.graphml"
expect_rc 2 "$FL" info "$TMP/speed.graphml"
expect_grep "$TMP/err" 'speed\.graphml:13: speed "fast": expected an IB or Ethernet rate'
sed 's|>host<|>server<|' "$TMP/ib.graphml" >"$TMP/kind.graphml"
expect_rc 2 "$FL" info "$TMP/kind.graphml"
expect_grep "$TMP/err" 'kind\.graphml:9: node h2: kind "server"; expected switch, ca, host or router$'
sed 's|<edge source="l1" target="s1">|<hyperedge>|; 0,/<\/edge>/s||</hyperedge>|' "$TMP/ib.graphml" >"$TMP/hyper.graphml"
expect_rc 2 "$FL" info --input-format graphml "$TMP/hyper.graphml"
expect_grep "$TMP/err" 'hyper\.graphml:11: <hyperedge> is not a cable; expected <edge>$'
printf '<graphml><graph><node id="a"/><node id="a"/><edge source="a" target="a" sourceport="1" targetport="2"/></graph></graphml>\n' >"$TMP/twice.graphml"
expect_rc 2 "$FL" info "$TMP/twice.graphml"
expect_grep "$TMP/err" 'twice\.graphml:1: node id "a" declared twice$'
printf '<graphml><graph><node id="a"/></graph></graphml>\n' >"$TMP/noedge.graphml"
expect_rc 2 "$FL" info "$TMP/noedge.graphml"
expect_grep "$TMP/err" 'noedge\.graphml: no <edge>: a GraphML topology needs cables$'
printf '<graphml><graph><node id="a"/><edge source="a" target="a" sourceport="1" targetport="1"/></graph></graphml>\n' >"$TMP/self.graphml"
expect_rc 0 "$FL" check "$TMP/self.graphml"
expect_grep "$TMP/out" 'self\.graphml:1: warning: cable loops back into the same switch: "a" 1 <-> 1 \[topology\.self-loop\]$'
printf '<graphml><graph><node id="a"></graph></graphml>\n' >"$TMP/broken.graphml"
expect_rc 2 "$FL" info "$TMP/broken.graphml"
expect_grep "$TMP/err" 'broken\.graphml:1:[0-9]+: '
finish
