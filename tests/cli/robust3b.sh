#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/robust3b.sh — third robustness review (issue 32), part B: what
# input text may do to the terminal, spreadsheets, the files read, and the
# caps on expansion. Fixtures: tests/fixtures/robustness-3b/ (PROVENANCE.md).
. "$(dirname "$0")/lib.bash"
R="$FL_SRC/tests/fixtures/robustness-3b"
e=debian__libibdm1__ibnl__ # Debian's IBNL files, for the cap inside an expansion
need_external ${e}MTS14400.ibnl ${e}IS5300.ibnl ${e}SUNDCS648QDR.ibnl \
  ${e}MTS3600.ibnl ${e}Cougar.ibnl ${e}Gnu.ibnl ${e}RhinoBased512.topo
ESC=$(printf '\033')
BEL=$(printf '\007')
# no_raw_controls FILE — FILE holds no ESC, BEL or other C0 control but LF/TAB
no_raw_controls() {
  if LC_ALL=C grep -q "[$ESC$BEL]" "$1" || LC_ALL=C tr -d '\n\t' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]'; then
    fail "raw control characters in $1: $(cat -v "$1" | head -3)"
  else pass; fi
}

# ---- #5 ESC/OSC sequences in input names never reach the terminal --------
# Each loader error quotes the name; the name is printed with its control
# characters escaped as \xNN (fl_escape_controls, in fl_error_set).
expect_rc 2 "$FL" info "$R/ansi-dot-node-name.dot"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'edge evil\\x1b\]0;TITLE\\x07\\x1b\[31mRED\\x1b\[0m -- b names no port at its tail end'
expect_rc 2 "$FL" info "$R/ansi-nxos-lldp-port.json"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'ansi-nxos-lldp-port.json:1: neighbour on Eth1/1\\x1b\]0;PWNED\\x07\\x1b\[2J\\x1b\[1A has neither sys_name nor chassis_id'
"$FL" gen fat-tree --radix 4 -o "$TMP/ft4.xml" || fail "gen ft4"
expect_rc 2 "$FL" perf --workload "$R/ansi-workload-shift.yaml" "$TMP/ft4.xml"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'ansi-workload-shift.yaml:3:40: shift `1\\x1b\]0;PWNED\\x07\\x1b\[2J\\x1b\[1;1H\\x1b\[32mall checks passed\\x1b\[0m`: expected an integer'
# the file name of a message is escaped too (a folder member named with ESC)
mkdir "$TMP/dir"
printf 'graph g { a -- b; }\n' >"$TMP/dir/x${ESC}[2Jy.dot"
expect_rc 2 "$FL" info "$TMP/dir"
no_raw_controls "$TMP/err"
expect_grep "$TMP/err" 'x\\x1b\[2Jy\.dot'

# ---- #4 HTML provenance: the bytes read, never a second open --------------
TOPO="$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
size=$(wc -c <"$TOPO" | tr -d ' ')
sha=$(sha256sum <"$TOPO" | cut -c1-64)
prov() { # HTML — the provenance rows as role|file|bytes|sha
  python3 -c 'import re,sys; t=open(sys.argv[1]).read(); t=t[t.index("id=\"inputs\""):]
for r in re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", t): print("|".join(r))' "$1"
}
mkfifo "$TMP/fifo"
(cat "$TOPO" >"$TMP/fifo") &
expect_rc 1 timeout 60 "$FL" check --format html -o "$TMP/r1.html" "$TMP/fifo"
wait
expect_eq "$(prov "$TMP/r1.html")" "input|$TMP/fifo|$size|$sha" "provenance of a FIFO input"
expect_eq "$(ls -a "$TMP" | grep -c '\.tmp$')" 0 "temporary files left"
expect_rc 1 bash -c '"$1" check --format html -o "$2" <(cat "$3")' sh "$FL" "$TMP/r2.html" "$TOPO"
expect_eq "$(prov "$TMP/r2.html" | cut -d'|' -f3-)" "$size|$sha" "provenance of <(cat FILE)"
expect_rc 1 sh -c '"$1" check --format html -o "$2" - <"$3"' sh "$FL" "$TMP/r3.html" "$TOPO"
expect_eq "$(prov "$TMP/r3.html")" "input|-|$size|$sha" "provenance of standard input"
# a FIFO policy: read once, hashed as read
printf 'rules:\n  disable: [topology.lid]\n' >"$TMP/pol.yaml"
psha=$(sha256sum <"$TMP/pol.yaml" | cut -c1-64)
mkfifo "$TMP/pfifo"
(cat "$TMP/pol.yaml" >"$TMP/pfifo") &
expect_rc 1 timeout 60 "$FL" check --format html --policy "$TMP/pfifo" -o "$TMP/r4.html" "$TOPO"
wait
expect_eq "$(prov "$TMP/r4.html" | grep '^policy')" "policy|$TMP/pfifo|$(wc -c <"$TMP/pol.yaml" | tr -d " ")|$psha" "provenance of a FIFO policy"
# a file changed after it was read is reported as read: the digest is of
# the bytes the run saw (the regular-file input of r3 compared above)
expect_eq "$(prov "$TMP/r3.html" | wc -l | tr -d ' ')" 1 "one provenance row"

# ---- #13 --output never replaces a file the run read ----------------------
printf 'hosts: [node0001, node0002, node0003, node0004]\ncollectives:\n  - {op: all-reduce, bytes: 1M}\n' >"$TMP/job.yaml"
cp "$TMP/job.yaml" "$TMP/job.orig"
expect_rc 2 "$FL" perf --workload "$TMP/job.yaml" -o "$TMP/job.yaml" "$TMP/ft4.xml"
expect_grep "$TMP/err" "^fabriclint: $TMP/job.yaml: --output would overwrite $TMP/job.yaml, the workload this run reads; refusing"
if cmp -s "$TMP/job.yaml" "$TMP/job.orig"; then pass; else fail "perf -o replaced the workload"; fi
ln "$TMP/job.yaml" "$TMP/job-link.yaml" # the same file by another name
expect_rc 2 "$FL" perf --workload "$TMP/job.yaml" -o "$TMP/job-link.yaml" "$TMP/ft4.xml"
expect_rc 0 "$FL" perf --workload "$TMP/job.yaml" -o "$TMP/perf.txt" "$TMP/ft4.xml"
mkdir "$TMP/lib"
cp "$FL_EXTERNAL/debian__libibdm1__ibnl__MTS3600.ibnl" "$TMP/lib/MTS3600.ibnl"
printf 'MTS3600 sw1\n\tP1 -4x-> MTS3600 sw2 P1\n\nMTS3600 sw2\n\tP1 -4x-> MTS3600 sw1 P1\n' >"$TMP/m.topo"
expect_rc 2 env FABRICLINT_IBNL_PATH="$TMP/lib" "$FL" check --format html -o "$TMP/lib/MTS3600.ibnl" "$TMP/m.topo"
expect_grep "$TMP/err" "MTS3600.ibnl: --output would overwrite .*/lib/MTS3600.ibnl, a file this run read; refusing"
if cmp -s "$TMP/lib/MTS3600.ibnl" "$FL_EXTERNAL/debian__libibdm1__ibnl__MTS3600.ibnl"; then pass; else fail "-o replaced the IBNL file"; fi
isha=$(sha256sum <"$TMP/lib/MTS3600.ibnl" | cut -c1-64)
isize=$(wc -c <"$TMP/lib/MTS3600.ibnl" | tr -d ' ')
expect_rc 0 env FABRICLINT_IBNL_PATH="$TMP/lib" "$FL" check --format html -o "$TMP/m.html" "$TMP/m.topo"
expect_eq "$(prov "$TMP/m.html" | grep -c "^input|$TMP/lib/MTS3600.ibnl|$isize|$isha\$")" 1 "IBNL file in the provenance"

# ---- #19 IBNL path: regular files only; a missing folder is said ----------
mkfifo "$TMP/lib/Trap.ibnl"
expect_rc 0 timeout 30 env FABRICLINT_IBNL_PATH="$TMP/lib" "$FL" check "$TMP/m.topo"
expect_grep "$TMP/out" "^info: $TMP/m.topo: IBNL file not used: $TMP/lib/Trap.ibnl: not a regular file; an IBNL definition must be one \[topology.input\]"
expect_grep "$TMP/out" "^info: $TMP/m.topo:1: system type MTS3600: IBNL $TMP/lib/MTS3600.ibnl \(TOPSYSTEM MTS3600\): 1 ASIC"
expect_rc 0 env FABRICLINT_IBNL_PATH="$TMP/nowhere:$TMP/lib" "$FL" check "$TMP/m.topo"
expect_grep "$TMP/out" "^info: $TMP/m.topo: IBNL file not used: $TMP/nowhere: IBNL folder of the search path cannot be read \(No such file or directory\)"

# ---- #7 #8 the fabric size cap (nodes, ports, links) -----------------------
# defaults: 262,144 nodes, 4,194,304 ports, 1,048,576 links; each one
# exactly at a fixture's size passes and one below it is exit 2 naming it
CAP="the fabric size cap; set FABRICLINT_MAX"
expect_rc 0 env FABRICLINT_MAX_NODES=268 "$FL" info "$TOPO"
expect_grep "$TMP/out" "^fabric: 12 switches, 256 CAs, 0 routers, 512 links"
expect_rc 2 env FABRICLINT_MAX_NODES=267 "$FL" info "$TOPO"
expect_grep "$TMP/err" "^fabriclint: $TOPO: the fabric grows past the cap of 267 nodes \($CAP""_NODES to raise it\)"
expect_rc 0 env FABRICLINT_MAX_LINKS=512 "$FL" info "$TOPO"
expect_rc 2 env FABRICLINT_MAX_LINKS=511 "$FL" info "$TOPO"
expect_grep "$TMP/err" "the fabric grows past the cap of 511 links \($CAP""_LINKS to raise it\)"
expect_rc 0 env FABRICLINT_MAX_PORTS=1036 "$FL" info "$TOPO"
expect_rc 2 env FABRICLINT_MAX_PORTS=1035 "$FL" info "$TOPO"
expect_grep "$TMP/err" "the fabric grows past the cap of 1035 ports \($CAP""_PORTS to raise it\)"
expect_rc 2 env FABRICLINT_MAX_NODES=lots "$FL" info "$TOPO"
expect_grep "$TMP/err" "^fabriclint: FABRICLINT_MAX_NODES='lots' is not a count; expected a positive whole number"
expect_rc 2 env FABRICLINT_MAX_LINKS=0 "$FL" info "$TOPO"
# two inputs share the cap: it is on the fabric, not per file (268 + 20)
expect_rc 0 env FABRICLINT_MAX_NODES=288 "$FL" info "$TOPO" "$R/many-BIG.topo"
expect_grep "$TMP/out" "^fabric: 32 switches, 256 CAs, 0 routers, 532 links"
expect_rc 2 env FABRICLINT_MAX_NODES=287 "$FL" info "$TOPO" "$R/many-BIG.topo"
expect_grep "$TMP/err" "many-BIG.topo: the fabric grows past the cap of 287 nodes"
# IBNL expansion stops at the cap: RhinoBased512.topo expands to 728 nodes
# through Debian's IBNL files (tests/cli/ibnl.sh), 728 pass and 727 stop;
# the reproducer (BIG.ibnl: boards 4 wide, 9 deep = 262,144 ASICs per
# system; many-BIG.topo: 20 systems) against the default cap is
# tests/cli/ibnl_amplification.sh (label big: 10 s under the sanitizers)
RH=$FL_EXTERNAL/debian__libibdm1__ibnl__RhinoBased512.topo
expect_rc 0 env FABRICLINT_MAX_NODES=728 FABRICLINT_IBNL_PATH="$FL_EXTERNAL" "$FL" info "$RH"
expect_rc 2 env FABRICLINT_MAX_NODES=727 FABRICLINT_IBNL_PATH="$FL_EXTERNAL" "$FL" info "$RH"
expect_grep "$TMP/err" "^fabriclint: $RH: the fabric grows past the cap of 727 nodes \($CAP""_NODES to raise it\)"
# DOT subgraph products: refused on the text, before cgraph makes them
expect_rc 2 timeout 60 "$FL" info "$R/dot-subgraph-fanout.dot"
expect_grep "$TMP/err" "dot-subgraph-fanout.dot: DOT: the edge statements make up to 9000000 cables \(an edge between subgraphs is one per pair of their nodes\), past the cap of 1048576 links \($CAP""_LINKS to raise it\)"
printf 'graph g { edge [src_port=1,dst_port=1];\n  {a0 a1 a2} -- {b0 b1 b2};\n}\n' >"$TMP/p9.dot"
expect_rc 0 env FABRICLINT_MAX_LINKS=9 "$FL" info "$TMP/p9.dot"
expect_grep "$TMP/out" "^fabric: 6 switches, 0 CAs, 0 routers, 9 links"
expect_rc 2 env FABRICLINT_MAX_LINKS=8 "$FL" info "$TMP/p9.dot"
expect_grep "$TMP/err" "DOT: the edge statements make up to 9 cables .* past the cap of 8 links"
# #21 a DOT edge chain longer than Graphviz's parser stack: said so
awk 'BEGIN { printf "graph g { edge [src_port=1,dst_port=2]; n0"; for (i = 1; i < 2499; i++) printf " -- n%d", i; print "; }" }' >"$TMP/chain-ok.dot"
expect_rc 0 "$FL" info "$TMP/chain-ok.dot"
expect_grep "$TMP/out" "^fabric: 2499 switches, 0 CAs, 0 routers, 2498 links"
awk 'BEGIN { printf "graph g { edge [src_port=1,dst_port=2]; n0"; for (i = 1; i < 2500; i++) printf " -- n%d", i; print "; }" }' >"$TMP/chain.dot"
expect_rc 2 "$FL" info "$TMP/chain.dot"
expect_grep "$TMP/err" "chain.dot:1: DOT: memory exhausted in line 1 near 'n2499' \(Graphviz's parser stack of 10,000 entries is full: one edge statement chains at most about 2,500 nodes"

# ---- #20 --node-name-map: read once and checked whenever given ------------
printf 'graph g { a -- b [src_port=1, dst_port=1]; }\n' >"$TMP/noguid.dot"
printf 'this is not a node-name map\n' >"$TMP/bad.map"
expect_rc 2 "$FL" info --node-name-map "$TMP/bad.map" "$TMP/noguid.dot"
expect_grep "$TMP/err" "^fabriclint: $TMP/bad.map:1:1: node-name-map: expected a GUID"
printf '0x0002c90301000008 "renamed-leaf"\n' >"$TMP/good.map"
expect_rc 0 "$FL" info --node-name-map "$TMP/good.map" "$TMP/noguid.dot"
# the map from a FIFO: read once, used by the loader (no second open)
mkfifo "$TMP/map.fifo"
(cat "$TMP/good.map" >"$TMP/map.fifo") &
expect_rc 1 timeout 60 "$FL" check --format json --node-name-map "$TMP/map.fifo" "$TOPO"
wait
expect_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum("renamed-leaf" in f.get("nodes", []) for g in d["findings"] for f in [g] + g.get("related", [])) > 0)' "$TMP/out")" True "FIFO map renamed the leaf"
expect_rc 1 sh -c 'cat "$1" | "$2" check --format json --node-name-map - "$3"' sh "$TMP/good.map" "$FL" "$TOPO"
expect_grep "$TMP/out" '"renamed-leaf"'

# ---- #19 a FIFO named *.so in a plugin folder: refused, never opened -------
mkdir -m 755 "$TMP/plug"
mkfifo -m 644 "$TMP/plug/x.so"
expect_rc 3 timeout 30 "$FL" rules --no-builtin-plugins --plugin-path "$TMP/plug"
expect_grep "$TMP/err" "^fabriclint: $TMP/plug/x.so: not a regular file; a plugin is a shared object file"
expect_rc 3 timeout 30 "$FL" rules --no-builtin-plugins --plugin "$TMP/plug/x.so"

# ---- #18 a leading UTF-8 BOM is skipped by every reader --------------------
expect_rc 0 "$FL" info "$R/bom-nxos-lldp.json"
expect_grep "$TMP/out" "^fabric: 2 switches, 0 CAs, 0 routers, 1 links"
expect_rc 0 "$FL" info --input-format ibnl "$R/bom-ibnl.ibnl"
expect_grep "$TMP/out" "^fabric: 1 switches, 0 CAs, 0 routers, 0 links"
expect_rc 0 "$FL" info "$R/bom-ibnl.ibnl"
IBL="$FL_SRC/tests/fixtures/iblinkinfo/clean/iblinkinfo"
{ printf '\357\273\277'; cat "$IBL"; } >"$TMP/bom.iblinkinfo"
expect_rc 0 "$FL" info "$TMP/bom.iblinkinfo"
expect_grep "$TMP/out" "^  $TMP/bom.iblinkinfo \(iblinkinfo\)"
expect_grep "$TMP/out" "^fabric: 24 switches, 128 CAs, 0 routers, 256 links"
# an IBNL definition with a BOM in the search path is used, not skipped
mkdir "$TMP/bomlib"
{ printf '\357\273\277'; cat "$FL_EXTERNAL/debian__libibdm1__ibnl__MTS3600.ibnl"; } >"$TMP/bomlib/MTS3600.ibnl"
expect_rc 0 env FABRICLINT_IBNL_PATH="$TMP/bomlib" "$FL" check "$TMP/m.topo"
expect_grep "$TMP/out" "system type MTS3600: IBNL $TMP/bomlib/MTS3600.ibnl \(TOPSYSTEM MTS3600\)"

# ---- #9 deadlock.pfc-cycle: too large is said before allocating ----------
# a NetBox cable export gives no device kind: 24,000 hosts + 750 leaves read
# as 24,750 switches; its 24,000 one-cable "leaves" (the hosts, the larger
# side: issue 30 F1) are the destinations: 5.9e8 entries > 2^29 (was 3.5 GB)
{ printf 'ID,Label,Termination A,Termination B,Device A,Device B,Status,Type,Length,Comments\n'
  awk 'BEGIN { for (i = 0; i < 24000; i++) printf "%d,E%d,eth0,swp%d,host-%d,leaf-%d,Planned,DAC,3 Meters,x\n", i, i, i % 32 + 1, i, int(i / 32) }'; } >"$TMP/nb.csv"
expect_rc 0 timeout 300 "$FL" check --rules deadlock.pfc-cycle "$TMP/nb.csv"
expect_grep "$TMP/out" "not checked: the fabric is too large for this rule \(24000 destinations x 24750 switches = 594000000 distance entries, past its cap of 536870912, 1 GiB\)"


finish
