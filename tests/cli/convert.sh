#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/convert.sh — `fabriclint convert` (issue #16): every writer's
# output loads back into the same fabric, the ibnetdiscover writer prints
# the real tool's lines, the NDT writer UFM's rows, and the command never
# overwrites what the user owns.
#
#  1. plan -> ibnetdiscover -> plan: `diff` clean both ways, exact counts.
#  2. real ibsim dump (fabrics/rail-su-asbuilt.ibnetdiscover) -> design ->
#     ibnetdiscover, and a real hardware dump (tests/data/external, NVIDIA
#     topograph) rewritten: the node blocks equal the real dumps' (banner
#     and node order aside; see docs/formats/ibnetdiscover.md).
#  3. NDT: plan -> NDT -> diff clean; the director dump -> NDT gives the
#     rows of the committed UFM-style plan fabrics/director/ndt/.
#  4. ibsim net, DOT, GraphML: written, reloaded or parsed, exact counts.
#  5. refusals: existing OUT, OUT = an input, bad --format, NDT limits.
. "$(dirname "$0")/lib.bash"
S=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}

# counts of `info --format json`: "switches cas routers links nics
# link-types", link types as {"4xHDR": n, ...} (read by lib.bash's jget, as
# are diff_ids' rules: not a python3 each)
counts() {
  "$FL" info --format json "$@" >"$TMP/info.json" 2>"$TMP/info.err" || {
    echo "info failed: $(head -2 "$TMP/info.err")"; return; }
  jget "$TMP/info.json" "=' '.join(str(x) for x in [d['fabric'][k] for k in ('switches', 'cas', 'routers', 'links')] + [d['nics'], json.dumps(d['link_types'], sort_keys=True)])"
}
# findings of a `diff --format json`, as "id id ..." sorted
diff_ids() {
  "$FL" diff --format json "$@" >"$TMP/diff.json" 2>"$TMP/diff.err"
  jget "$TMP/diff.json" "=' '.join(sorted(f['rule'] for f in d['findings']))" 2>/dev/null ||
    echo "diff failed: $(head -2 "$TMP/diff.err")"
}

# ---- 1. plan -> ibnetdiscover -> plan ------------------------------------------
# rail-su: 1 SU x 4 hosts x 4 rails = 16 HCAs, 4 leaves, spines; HDR links
expect_rc 0 "$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 4 --leaf-radix 16 --speed HDR -o "$TMP/plan.xml"
want=$(counts "$TMP/plan.xml")
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ibnetdiscover" --format ibnetdiscover
expect_eq "$(counts "$TMP/plan.ibnetdiscover")" "$want" "plan as ibnetdiscover: counts"
expect_rc 0 "$FL" convert "$TMP/plan.ibnetdiscover" -o "$TMP/back.xml"
expect_eq "$(counts "$TMP/back.xml")" "$want" "plan -> ibnetdiscover -> design: counts"
expect_eq "$(diff_ids "$TMP/plan.xml" "$TMP/plan.ibnetdiscover")" "" "diff plan vs written dump"
expect_eq "$(diff_ids "$TMP/plan.xml" "$TMP/back.xml")" "" "diff plan vs round trip"
expect_eq "$(diff_ids "$TMP/back.xml" "$TMP/plan.xml")" "" "diff round trip vs plan"
# design -> design is a fixed point: the second conversion gives the same
# bytes (the first may only sort attributes, as loading does)
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/same.xml"
expect_rc 0 "$FL" convert "$TMP/same.xml" -o "$TMP/same2.xml"
cmp -s "$TMP/same.xml" "$TMP/same2.xml" && pass || fail "design -> design changed the bytes"
# the numbers themselves: 4 leaves + 2 spines, 16 HCAs, 16 host cables +
# 4 leaves x 2 spines x 4 parallel uplinks
expect_eq "$want" '6 16 0 48 16 {"4xHDR": 48}' "rail-su plan counts"

# a 3-tier fat-tree with LIDs: same again, and LIDs survive (--compare-lids)
expect_rc 0 "$FL" gen fat-tree --radix 8 --tiers 3 --speed HDR -o "$TMP/ft.xml"
expect_rc 0 "$FL" convert "$TMP/ft.xml" -o "$TMP/ft.ibnetdiscover"
expect_rc 0 "$FL" convert "$TMP/ft.ibnetdiscover" -o "$TMP/ft-back.xml"
expect_eq "$(counts "$TMP/ft-back.xml")" "$(counts "$TMP/ft.xml")" "fat-tree round trip counts"
expect_eq "$(diff_ids --compare-lids "$TMP/ft.xml" "$TMP/ft-back.xml")" "" "fat-tree round trip (LIDs compared)"

# ---- 2. a real dump -> design -> dump ----------------------------------------
real=$S/fabrics/rail-su-asbuilt.ibnetdiscover
expect_rc 0 "$FL" convert "$real" -o "$TMP/asbuilt.xml"
expect_rc 0 "$FL" convert "$TMP/asbuilt.xml" -o "$TMP/asbuilt.ibnetdiscover"
expect_eq "$(counts "$TMP/asbuilt.ibnetdiscover")" "$(counts "$real")" "real dump round trip counts"
expect_eq "$(counts "$real")" '12 256 0 512 256 {"1xHDR": 1, "4xHDR": 511}' "real dump counts"
expect_eq "$(diff_ids --compare-lids "$TMP/asbuilt.xml" "$real")" "" "diff its design vs the real dump"
# the other way round the arguments look reversed (a capture as DESIGN):
# the warning alone
expect_eq "$(diff_ids --compare-lids "$real" "$TMP/asbuilt.xml")" "diff.reversed" "diff real dump vs its design: reversed"
expect_eq "$(diff_ids --compare-lids "$real" "$TMP/asbuilt.ibnetdiscover")" "" "diff real dump vs rewritten dump"
# Line for line: every node block (id lines, header, port lines) as the
# real tool printed it. Two things differ by nature: the banner (date, the
# node it ran from) and `base`/`enhanced port 0` (the model keeps no
# SP0 kind; the writer prints `enhanced`, ibsim's switches say `base`).
blocks() {
  awk 'NR > 4' "$1" | sed 's/ base port 0 / enhanced port 0 /' |
    awk 'BEGIN { RS = ""; FS = "\n" } { print }' ORS='\n\n' |
    python3 -c "import sys; b = sys.stdin.read().split('\n\n'); print('\n\n'.join(sorted(x.strip() for x in b if x.strip())))"
}
blocks "$real" >"$TMP/want.blocks"
blocks "$TMP/asbuilt.ibnetdiscover" >"$TMP/got.blocks"
if cmp -s "$TMP/want.blocks" "$TMP/got.blocks"; then pass; else
  fail "rewritten dump differs from the real one"; diff "$TMP/want.blocks" "$TMP/got.blocks" | head -10 >&2; fi
expect_eq "$(grep -c '^\[' "$TMP/asbuilt.ibnetdiscover")" "$(grep -c '^\[' "$real")" "port lines"
# a dump of real hardware (NVIDIA topograph's NDR example: MQM9701 leaves,
# ConnectX-7 HCAs sharing the factory description): rewritten directly,
# every block as the tool printed it, the shared descriptions included
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out
hw=$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out
expect_rc 0 "$FL" convert "$hw" -o "$TMP/hw.ibnetdiscover"
blocks "$hw" >"$TMP/want.blocks"
blocks "$TMP/hw.ibnetdiscover" >"$TMP/got.blocks"
if cmp -s "$TMP/want.blocks" "$TMP/got.blocks"; then pass; else
  fail "rewritten hardware dump differs"; diff "$TMP/want.blocks" "$TMP/got.blocks" | head -10 >&2; fi
expect_eq "$(grep -c '^\[' "$TMP/hw.ibnetdiscover")" "2228" "hardware dump port lines"
expect_eq "$(diff_ids --compare-lids "$hw" "$TMP/hw.ibnetdiscover")" "" "diff hardware dump vs rewritten"

# ---- 3. UFM NDT ----------------------------------------------------------------
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ndt"
expect_grep "$TMP/plan.ndt" '^#StartDevice,StartPort,EndDevice,EndPort,LinkType$'
expect_grep "$TMP/plan.ndt" '^dgx-001,dgx-001 mlx5_0,leaf-su01-r0,Port 1,Data$'
expect_eq "$(grep -c . "$TMP/plan.ndt")" "49" "NDT rows + header"
# NDT has no rates: all but the link types read back
expect_eq "$(counts --input-format ufm-ndt "$TMP/plan.ndt" | cut -d' ' -f1-5)" \
  "$(echo "$want" | cut -d' ' -f1-5)" "NDT read back: switches cas routers links nics"
expect_eq "$(diff_ids "$TMP/plan.xml" "$TMP/plan.ndt")" "" "diff plan vs its NDT"
# director: the ASIC-level dump written as NDT is the committed UFM-style plan
dir=$S/fabrics/director
expect_rc 0 "$FL" convert "$dir/director.ibnetdiscover" -o "$TMP/director.ndt"
# cables as unordered pairs of ends, upper-cased (UFM's comparison)
rows() {
  grep -vh '^#' "$@" | tr 'a-z' 'A-Z' | python3 -c "import sys
for l in sys.stdin:
    c = [x.strip() for x in l.rstrip('\n').split(',')]
    print(' | '.join(sorted([c[0] + ',' + c[1], c[2] + ',' + c[3]]) + [c[4]]))" | sort
}
rows "$dir"/ndt/*.ndt >"$TMP/want.rows"
rows "$TMP/director.ndt" >"$TMP/got.rows"
if cmp -s "$TMP/want.rows" "$TMP/got.rows"; then pass; else
  fail "director NDT differs from fabrics/director/ndt"; diff "$TMP/want.rows" "$TMP/got.rows" | head -10 >&2; fi
expect_eq "$(wc -l <"$TMP/got.rows")" "32" "director NDT rows"
expect_eq "$(diff_ids "$TMP/director.ndt" "$dir/director.ibnetdiscover")" "" "diff director NDT vs dump"

# an Ethernet plan whose switch ports are named (swp51, Eth0): NDT switch
# ports are `Port N` only, and "Port 5" for swp51 would send an installer
# to another cage: refused, nothing written (outside tester, session 10)
expect_rc 2 "$FL" convert "$S/fabrics/diff/lldp-design.xml" -o "$TMP/lldp.ndt"
expect_grep "$TMP/err" 'NDT cannot name port "swp51" of switch "leaf-01": NDT switch ports are `Port N`'
[ ! -e "$TMP/lldp.ndt" ] && pass || fail "refused NDT written"
# the same plan with its switch ports unnamed (numbers only): host ports
# `host-01 eth0`, UFM's `<host> <interface>`; read back with a pattern that
# splits them
python3 - "$S/fabrics/diff/lldp-design.xml" >"$TMP/lldp-num.xml" <<'PY'
import re, sys
out, sw = [], False
for line in open(sys.argv[1]).read().split("\n"):
    if line.lstrip().startswith("<node "):
        sw = 'kind="switch"' in line
    if sw and line.lstrip().startswith("<port "):
        line = re.sub(r' label="[^"]*"', "", line)
    out.append(line)
sys.stdout.write("\n".join(out))
PY
expect_rc 0 "$FL" convert "$TMP/lldp-num.xml" -o "$TMP/lldp.ndt"
expect_grep "$TMP/lldp.ndt" '^host-01,host-01 eth0,leaf-01,Port 1,Data$'
expect_eq "$(diff_ids --system-pattern '^([^ ]+) ([^ ]+)$' "$TMP/lldp-num.xml" "$TMP/lldp.ndt")" "" \
  "diff Ethernet plan vs its NDT"
# a switch port labelled with its own number (`swp1` on port 1) is that
# port; `swp2` on port 1 is not (the boundary of label_is_number())
for lab in swp1 swp2; do
  python3 - "$TMP/lldp-num.xml" "$lab" >"$TMP/lab-$lab.xml" <<'PY'
import sys
out, sw, done = [], False, False
for line in open(sys.argv[1]).read().split("\n"):
    if line.lstrip().startswith("<node "):
        sw = 'name="leaf-01"' in line
    if sw and not done and line.lstrip().startswith('<port num="1"'):
        line = line.replace('<port num="1"', '<port num="1" label="%s"' % sys.argv[2], 1)
        done = True
    out.append(line)
sys.stdout.write("\n".join(out))
PY
done
rm -f "$TMP/lab.ndt"
expect_rc 0 "$FL" convert "$TMP/lab-swp1.xml" -o "$TMP/lab.ndt"
expect_grep "$TMP/lab.ndt" '^host-01,host-01 eth0,leaf-01,Port 1,Data$'
rm -f "$TMP/lab.ndt"
expect_rc 2 "$FL" convert "$TMP/lab-swp2.xml" -o "$TMP/lab.ndt"
expect_grep "$TMP/err" 'NDT cannot name port "swp2" of switch "leaf-01"' 

# ---- 4. ibsim net, DOT, GraphML -----------------------------------------------
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.net"
expect_eq "$(counts "$TMP/plan.net")" "$want" "ibsim net read back"
expect_eq "$(diff_ids "$TMP/plan.xml" "$TMP/plan.net")" "" "diff plan vs its net file"
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.graphml"
expect_eq "$(xmllint --xpath 'count(//*[local-name()="node"])' "$TMP/plan.graphml")" "22" "GraphML nodes"
expect_eq "$(xmllint --xpath 'count(//*[local-name()="edge"])' "$TMP/plan.graphml")" "48" "GraphML edges"
expect_eq "$(xmllint --xpath 'string(//*[local-name()="edge"][1]/*[@key="src_port"])' "$TMP/plan.graphml")" \
  "$(sed -n 's/.*<link a="[^"]*" a-port="\([0-9]*\)".*/\1/p' "$TMP/plan.xml" | head -1)" "GraphML first edge src_port"
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.dot"
expect_grep "$TMP/plan.dot" '^graph fabric \{'
expect_eq "$(grep -c -- ' -- ' "$TMP/plan.dot")" "48" "DOT edges"
tr '\n\t' '  ' <"$TMP/plan.dot" | tr -s ' ' >"$TMP/plan.dot1"
expect_grep "$TMP/plan.dot1" '"dgx-001 mlx5_0" -- "leaf-su01-r0" \[dst_port=1, speed="4xHDR", src_port=1\];'
expect_grep "$TMP/plan.dot1" '"leaf-su01-r0" -- "spine-01" \[dst_port=1, speed="4xHDR", src_port=9\];'

# read back by the GraphML and DOT loaders when this build has them (they
# come from the wip/formats branch): same counts, diff clean
for f in graphml dot; do
  if "$FL" help --list input-formats | grep -qx "$f"; then
    expect_eq "$(counts "$TMP/plan.$f")" "$want" "$f read back: counts"
    expect_eq "$(diff_ids "$TMP/plan.xml" "$TMP/plan.$f")" "" "diff plan vs its $f"
  else
    echo "convert: no $f loader in this build; its read-back is not tested"
  fi
done

# ---- 5. refusals ---------------------------------------------------------------
sum=$(sha256sum "$TMP/plan.xml")
expect_rc 2 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ndt" --format ndt
expect_grep "$TMP/err" "plan.ndt: the file exists; give --force"
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.ndt" --format ndt --force
expect_rc 2 "$FL" convert "$TMP/plan.xml" -o "$TMP/plan.xml" --format design --force
expect_grep "$TMP/err" "would overwrite an input"
expect_eq "$(sha256sum "$TMP/plan.xml")" "$sum" "the input is untouched"
expect_rc 2 "$FL" convert "$TMP/plan.xml" -o "$TMP/out.txt"
expect_grep "$TMP/err" "needs --format design, ibnetdiscover, ibsim, ndt, netbox-cables, dot, graphml, slurm-tree, slurm-block or slurm-yaml"
expect_rc 2 "$FL" convert "$TMP/plan.xml" -o - --format svg
expect_grep "$TMP/err" "--format: expected design, ibnetdiscover, ibsim, ndt, netbox-cables, dot, graphml, slurm-tree, slurm-block or slurm-yaml, got 'svg'"
expect_rc 2 "$FL" convert "$TMP/plan.xml"
expect_grep "$TMP/err" "convert needs -o OUT"
[ ! -e "$TMP/out.txt" ] && pass || fail "a refused run left $TMP/out.txt"
# -o - is standard output
expect_rc 0 "$FL" convert "$TMP/plan.xml" -o - --format ibnetdiscover
expect_eq "$(grep -c '^Switch' "$TMP/out")" "6" "stdout switches"
# NDT cannot say HCA port 2: refused, nothing written
sed 's/a-port="1" b="leaf-su01-r1"/a-port="2" b="leaf-su01-r1"/' "$TMP/plan.xml" >"$TMP/port2.xml"
expect_rc 2 "$FL" convert "$TMP/port2.xml" -o "$TMP/port2.ndt"
expect_grep "$TMP/err" 'NDT cannot name port 2 of "dgx-001 mlx5_1"'
[ ! -e "$TMP/port2.ndt" ] && pass || fail "a failed NDT write left a file"

# the command table: help, format list
expect_eq "$("$FL" help convert --list formats | tr '\n' ' ')" "design ibnetdiscover ibsim ndt netbox-cables dot graphml slurm-tree slurm-block slurm-yaml " "help --list formats"
expect_rc 0 "$FL" convert --help
expect_grep "$TMP/out" '^  --force +replace OUT when it exists \(never an input\)$'
expect_rc 0 "$FL" help --list commands
expect_grep "$TMP/out" '^convert$'

# a name that starts with '-' and is no number: Graphviz writes it bare and
# cannot read it back (found by fuzz_convert_rt), so the DOT writer refuses;
# a negative number is a valid DOT ID and is written
printf 'graph g { "-13I" -- b [src_port=1, dst_port=1]; }\n' >"$TMP/dash.dot"
expect_rc 2 "$FL" convert --format dot -o "$TMP/dash-out.dot" "$TMP/dash.dot"
expect_grep "$TMP/err" 'node "-13I": a name that starts with .-. and is no number'
printf 'graph g { "-13" -- b [src_port=1, dst_port=1]; }\n' >"$TMP/num.dot"
expect_rc 0 "$FL" convert --format dot -o "$TMP/num-out.dot" "$TMP/num.dot"
expect_rc 0 "$FL" info "$TMP/num-out.dot"

finish
