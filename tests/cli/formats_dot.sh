#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/formats_dot.sh — the Graphviz DOT loader (core/io/dot_topo.c,
# libcgraph): a plan in the documented attributes (tests/data/formats/
# pod-plan.dot: DOT port syntax, tail/head labels, src_port/dst_port),
# exact counts and speeds, a diff against the same cabling written as
# GraphML with one cable moved; fabriclint's own DOT picture (no ports) and
# syntax errors are refused with exit 2; a port joined to itself is a
# looped cable (topology.self-loop).
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
p=$src/tests/data/formats/pod-plan.dot

expect_rc 0 "$FL" info --format json "$p"
expect_eq "$(jget "$TMP/out" "=(d['inputs'][0]['format'], d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" "('dot', 3, 1, 3)" "counts"
expect_eq "$(jget "$TMP/out" "=sorted(d['link_types'].items())")" "[('4xNDR', 2), ('????', 1)]" "speeds"

# the same pod as GraphML, leaf-2 cabled to spine-1 port 3 instead of 2
cat >"$TMP/pod.graphml" <<'G'
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="sp" for="edge" attr.name="src_port"/><key id="dp" for="edge" attr.name="dst_port"/>
  <key id="n" for="node" attr.name="name"/><key id="k" for="node" attr.name="kind"/>
  <graph edgedefault="undirected">
    <node id="leaf-1"/><node id="spine-1"/><node id="leaf-2"/><node id="g"><data key="n">gpu-01 mlx5_0</data><data key="k">ca</data></node>
    <edge source="spine-1" target="leaf-1"><data key="sp">1</data><data key="dp">33</data></edge>
    <edge source="g" target="leaf-1"><data key="sp">1</data><data key="dp">7</data></edge>
    <edge source="leaf-2" target="spine-1"><data key="sp">33</data><data key="dp">3</data></edge>
  </graph>
</graphml>
G
expect_rc 1 "$FL" diff --format json "$p" "$TMP/pod.graphml"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" diff.misconnected "findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" 'cable from "leaf-2" port 33 lands on "spine-1" port 3; the plan puts it on "spine-1" port 2: move that end from "spine-1" port 3 to "spine-1" port 2' "message"
sed 's|>3</data></edge>|>2</data></edge>|' "$TMP/pod.graphml" >"$TMP/pod-ok.graphml"
expect_rc 0 "$FL" diff "$p" "$TMP/pod-ok.graphml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '

# fabriclint's own picture carries no ports: not a fabric
expect_rc 0 "$FL" check --format dot "$src/fabrics/fat-tree-2tier.ibnetdiscover" -o "$TMP/pic.dot"
expect_rc 2 "$FL" info "$TMP/pic.dot"
expect_grep "$TMP/err" 'pic\.dot: edge .* names no port at its tail end; expected src_port/dst_port, tailport/headport'
# ports as edge labels at the tail and head (mutant l2-dot-label)
printf 'graph x {\n a -- b [taillabel="P1", headlabel="P2"]\n}\n' >"$TMP/labels.dot"
expect_rc 0 "$FL" info --format json "$TMP/labels.dot"
expect_eq "$(jget "$TMP/out" "=(d['inputs'][0]['format'], d['fabric']['links'])")" "('dot', 1)" "taillabel/headlabel ports"
printf 'graph x {\n a:1 -- b:2\n c -- ;\n}\n' >"$TMP/syntax.dot"
expect_rc 2 "$FL" info "$TMP/syntax.dot"
expect_grep "$TMP/err" 'syntax\.dot:3: DOT: syntax error in line 3 near'
printf 'digraph x {\n a:1 -> b:2 [speed=fast]\n}\n' >"$TMP/speed.dot"
expect_rc 2 "$FL" info "$TMP/speed.dot"
expect_grep "$TMP/err" 'speed\.dot: edge a -- b: speed "fast"; expected an IB or Ethernet rate'
printf '/* c */ strict graph x {\n a [kind=server]; a:1 -- b:2\n}\n' >"$TMP/kind.dot"
expect_rc 2 "$FL" info "$TMP/kind.dot"
expect_grep "$TMP/err" 'kind\.dot: node a: kind "server"; expected switch, ca, host or router$'
# an edge joining a port to itself is a cable looped onto it, kept as the
# other readers keep it and warned about (tests/cli/convert_looped_cable.sh)
printf 'graph x {\n a:1:n -- a:1:s\n}\n' >"$TMP/self.dot"
expect_rc 0 "$FL" check "$TMP/self.dot"
expect_grep "$TMP/out" 'self\.dot: warning: cable loops back into the same switch: "a" 1 <-> 1 \[topology\.self-loop\]$'
finish
