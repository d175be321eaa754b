#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/ibnl.sh — IBNL system definitions (core/io/ibnl.c, ibnl_load.c)
# and the ibdm .topo loader expanding director systems through them
# (core/io/topo_ibdm.c), on the real files of Debian's libibdm1 1.5.7
# (copies in tests/data/external, PROVENANCE.md; the search path is set
# here, never /usr/lib):
# 1. the IBNL files alone: exact ASIC / inside-cable / front-panel counts
#    (MTS14400 18/144/144, IS5300 27/324/324, SUNDCS648QDR 54/648/648 with
#    its one typo'd connection, MTS3600 1/0/36, Cougar 1/0/2);
# 2. bad IBNL: file:line:col errors, exit 2; a bad file in the search path is
#    skipped with a note;
# 3. RhinoBased512.topo expands to ibdm's own count (728 nodes) and diffs
#    against the ASIC-level RhinoBased512.lst cable for cable (2752 of 2752;
#    the .lst calls its switch ASICs CAs: 216 kind warnings); one host cable
#    moved to another front-panel port of the same leaf: exactly that move;
# 4. without IBNL definitions the .topo loads as before (one node per
#    system) and says so; a port no front panel has is an error.
. "$(dirname "$0")/lib.bash"
e=debian__libibdm1__ibnl__
need_external ${e}MTS14400.ibnl ${e}IS5300.ibnl ${e}SUNDCS648QDR.ibnl \
  ${e}MTS3600.ibnl ${e}Cougar.ibnl ${e}Gnu.ibnl ${e}RhinoBased512.topo \
  ${e}RhinoBased512.lst
x=$FL_EXTERNAL/$e
export FABRICLINT_IBNL_PATH=$FL_EXTERNAL
pat='^([^ ]+) (MT[0-9]+ .*)$' # 2006 descriptions: "H-1 MT23108 Infinihost-II ..."

# ---- 1. the definitions alone ----------------------------------------------
while read -r sys sw ca links ports dang; do
  expect_rc 0 "$FL" info --format json "$x$sys.ibnl"
  expect_eq "$(jget "$TMP/out" "=(d['inputs'][0]['format'], d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" \
    "('ibnl', $sw, $ca, $links)" "$sys nodes and cables"
  expect_rc 0 "$FL" check --rules topology "$x$sys.ibnl"
  cp "$TMP/out" "$TMP/check-$sys.out" # (read again below)
  expect_grep "$TMP/out" "IBNL TOPSYSTEM $sys: $((sw + ca)) ASIC\\(s\\), $links cable\\(s\\) inside, $ports front-panel port\\(s\\), $dang connection"
done <<'EOF'
MTS14400 18 0 144 144 0
IS5300 27 0 324 324 0
SUNDCS648QDR 54 0 648 648 1
MTS3600 1 0 0 36 0
Cougar 0 1 0 2 0
EOF
# a one-ASIC system's node is the system itself, named TOPSYSTEM (mutant
# l2-ibnl-one); a bigger one's ASICs are TOPSYSTEM/instance
expect_rc 0 "$FL" convert "${x}MTS3600.ibnl" -o "$TMP/mts3600.xml" --format design
expect_eq "$(grep -o '<node kind="[a-z]*" name="[^"]*"' "$TMP/mts3600.xml")" '<node kind="switch" name="MTS3600"' "MTS3600: one node named MTS3600"
expect_rc 0 "$FL" convert "${x}MTS14400.ibnl" -o "$TMP/mts14400.xml" --format design
expect_eq "$(grep -o '<node kind="switch" name="MTS14400/[^"]*"' "$TMP/mts14400.xml" | wc -l)" 18 "MTS14400: 18 ASICs named MTS14400/..."
# Sun's file wires spine board fc0A's P11 to "lc7B P140" (line 94; no such
# port): dropped, as ibnl(1) NOTE-1 drops connections to missing ports
# (the check of the loop above)
expect_grep "$TMP/check-SUNDCS648QDR.out" 'boards lack \(first at line 94\)'
# the front panel is labelled: MTS14400 L1/P1 is port 1 of leaf1's U1,
# L12/P12 port 12 of leaf12's U1 (LEAF: U1 port n -> board P(n+12) -> Ln/Pn)
# (the design written above)
expect_grep "$TMP/mts14400.xml" 'name="MTS14400/leaf1/U1"'
expect_eq "$(grep -c '<node ' "$TMP/mts14400.xml")" 18 "MTS14400 nodes written"

# ---- 2. bad IBNL -----------------------------------------------------------
bad() { # NAME TEXT  -> $TMP/NAME.ibnl
  printf '%b' "$2" >"$TMP/$1.ibnl"
}
bad notop 'SYSTEM LEAF\nNODE SW 8 MT43132 U1\n  1 -> P1\n'
expect_rc 2 "$FL" info --input-format ibnl "$TMP/notop.ibnl"
expect_grep "$TMP/err" 'notop\.ibnl:3: no TOPSYSTEM; an IBNL file defines one system'
bad ntype 'TOPSYSTEM X\n\nNODE XX 8 MT43132 U1\n'
expect_rc 2 "$FL" info "$TMP/ntype.ibnl"
expect_grep "$TMP/err" "ntype\\.ibnl:3:6: node type 'XX'; expected SW, CA or HCA$"
bad arrow 'TOPSYSTEM X\nNODE SW 8 MT43132 U1\n   1 -3x-> P1\n'
expect_rc 2 "$FL" info "$TMP/arrow.ibnl"
expect_grep "$TMP/err" "arrow\\.ibnl:3:6: bad link arrow '-3x->'"
bad range 'TOPSYSTEM X\nNODE SW 8 MT43132 U1\n   9 -> P1\n'
expect_rc 2 "$FL" info "$TMP/range.ibnl"
expect_grep "$TMP/err" "range\\.ibnl:3:4: port '9' of node U1; expected a number from 1 to 8$"
bad twice 'TOPSYSTEM X\nNODE SW 8 MT43132 U1\n   1 -> U2 1\nNODE SW 8 MT43132 U2\n   1 -> U1 1\n   2 -> U1 1\n'
expect_rc 2 "$FL" info "$TMP/twice.ibnl"
expect_grep "$TMP/err" 'twice\.ibnl:6:4: port 1 of U1 is already connected \(a port takes one cable\)$'
bad board 'TOPSYSTEM X\nSUBSYSTEM LEAF leaf1\n   P1 -> L1/P1\n'
expect_rc 2 "$FL" info "$TMP/board.ibnl"
expect_grep "$TMP/err" 'board\.ibnl:2:11: board type LEAF of instance leaf1 is not defined by a SYSTEM of this file$'
bad loop 'SYSTEM A\nSUBSYSTEM A a1\nTOPSYSTEM X\nSUBSYSTEM A top\n'
expect_rc 2 "$FL" info "$TMP/loop.ibnl"
expect_grep "$TMP/err" 'loop\.ibnl:1:1: boards nested more than 16 deep'
bad after 'TOPSYSTEM X\nNODE SW 8 MT43132 U1\nSYSTEM Y\n'
expect_rc 2 "$FL" info "$TMP/after.ibnl"
expect_grep "$TMP/err" 'after\.ibnl:3:1: SYSTEM after the TOPSYSTEM'
bad junk 'TOPSYSTEM X\nNODE SW 8 MT43132 U1\n  hello world\n'
expect_rc 2 "$FL" info "$TMP/junk.ibnl"
expect_grep "$TMP/err" "junk\\.ibnl:3:3: expected NODE, SUBSYSTEM, a connection .* got 'hello'"
# a bad file in the search path is skipped, with a note; the rest is used
mkdir "$TMP/lib"
cp "$TMP/junk.ibnl" "$TMP/lib/"
printf 'MTS3600 sw1\n  P1 -> MT23108 h1 P1\n' >"$TMP/one.topo"
FABRICLINT_IBNL_PATH=$TMP/lib:$FL_EXTERNAL expect_rc 0 "$FL" check --rules topology "$TMP/one.topo"
expect_grep "$TMP/out" 'IBNL file not used: .*junk\.ibnl:3:3: expected NODE'
expect_grep "$TMP/out" 'system type MTS3600: IBNL .*MTS3600\.ibnl \(TOPSYSTEM MTS3600\): 1 ASIC\(s\), 0 cable\(s\) inside, 36 front-panel port\(s\)'

# ---- 3. a .topo plan of directors against the ASIC-level as-built ---------
expect_rc 0 "$FL" info --format json "${x}RhinoBased512.topo"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" \
  "(216, 512, 2752)" "expanded plan (ibdm: 'Defined 524/728 systems/nodes')"
# each director's 18 ASICs are one chassis named by the system (the cables
# inside it join them), so tiers count whole directors' ASICs in one tier
expect_eq "$(jget "$TMP/out" "=(sorted(c['name'] for c in d['chassis']), set(c['asics'] for c in d['chassis']))")" \
  "(['SL1-1', 'SL1-2', 'SL1-3', 'SL1-4', 'SL1-5', 'SL1-6', 'SL1-7', 'SL1-8', 'SL2-1', 'SL2-2', 'SL2-3', 'SL2-4'], {18})" "chassis"
expect_eq "$(jget "$TMP/out" "=[(t['tier'], t['switches']) for t in d['tiers']]")" "[(0, 0), (1, 144), (2, 72)]" "tiers"
expect_rc 0 "$FL" diff -v --format json --system-pattern "$pat" "${x}RhinoBased512.topo" "${x}RhinoBased512.lst"
expect_grep "$TMP/err" 'by system 512, as a director chassis 0, by cable position 216; cables: 2752 planned, 2752 built, 2752 as planned$'
expect_eq "$(jget "$TMP/out" "=sorted(set((f['rule'], f['message'].split(' is ')[1]) for f in d['findings']))")" \
  "[('diff.different', 'a switch in the design but a ca as built')]" "only the .lst's CA-typed ASICs"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 216 "kind warnings"
# H-1's cable moved from SL1-1 L1/P1 (leaf1 U1 port 1, LID 0x401) to the free
# L1/P12 (port 12): both listings of that cable in the .lst
sed '/{H-1 MT23108/s/LID:0401 PN:01/LID:0401 PN:0C/' "${x}RhinoBased512.lst" >"$TMP/moved.lst"
expect_eq "$(cmp -l "${x}RhinoBased512.lst" "$TMP/moved.lst" | wc -l)" 2 "bytes changed (one per listing)"
expect_rc 1 "$FL" diff --format json --system-pattern "$pat" "${x}RhinoBased512.topo" "$TMP/moved.lst"
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] != 'diff.different']")" \
  "['cable from \"H-1\" P1 lands on \"SL1-1/leaf1/U1\" L1/P12; the plan puts it on \"SL1-1/leaf1/U1\" L1/P1: move that end from \"SL1-1/leaf1/U1\" L1/P12 to \"SL1-1/leaf1/U1\" L1/P1']" "the move"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 217 "216 kind warnings + the move"
# H-1's cable moved to another line card: SL1-1 L10/P12 (leaf10's U1, node
# GUID ...0604, LID 0x402, port 12); the ASICs are still told apart by
# position (port numbers must agree, so H-1's end does not pull leaf1 onto
# leaf10)
sed '/{H-1 MT23108/{s/0002c90000000602/0002c90000000604/g;s/LID:0401 PN:01/LID:0402 PN:0C/}' \
  "${x}RhinoBased512.lst" >"$TMP/moved2.lst"
expect_rc 1 "$FL" diff -v --format json --system-pattern "$pat" "${x}RhinoBased512.topo" "$TMP/moved2.lst"
expect_grep "$TMP/err" 'by cable position 216; cables: 2752 planned, 2752 built, 2751 as planned$'
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] != 'diff.different']")" \
  "['cable from \"H-1\" P1 lands on \"SL1-1/leaf10/U1\" L10/P12; the plan puts it on \"SL1-1/leaf1/U1\" L1/P1: move that end from \"SL1-1/leaf10/U1\" L10/P12 to \"SL1-1/leaf1/U1\" L1/P1']" "the move to another card"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 217 "216 kind warnings + the move"

# libibdm1's FullGnu.topo writes the Gnu's ports M/P1 (like a host's
# mlx5_0/P1): the Gnu IBNL makes it 6 switch ASICs, one chassis GNU1
printf 'Gnu GNU1\n  M/P1 -> Cougar H01 P1\n  L2/P4 -> Cougar H16 P2\n' >"$TMP/gnu.topo"
expect_rc 0 "$FL" info --format json "$TMP/gnu.topo"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'], d['chassis'])")" \
  "(6, 2, 18, [{'name': 'GNU1', 'model': '', 'asics': 6}])" "Gnu"

# ---- 4. no definitions; ports no front panel has ----------------------------
FABRICLINT_IBNL_PATH= expect_rc 0 "$FL" check --format json --rules topology "${x}RhinoBased512.topo"
expect_eq "$(jget "$TMP/out" "=[f['message'].split(': ', 1)[1] for f in d['findings'] if 'IBNL' in f['message']]")" \
  "['system type MTS14400: no IBNL definition in the search path \"\" (FABRICLINT_IBNL_PATH); its systems are loaded as one switch each with the ports the file names (P<n> is port n)', 'system type MT23108: no IBNL definition in the search path \"\" (FABRICLINT_IBNL_PATH); its systems are loaded as CAs with the ports the file names (P<n> is port n)']" "unknown types, once each"
FABRICLINT_IBNL_PATH= expect_rc 0 "$FL" info --format json "${x}RhinoBased512.topo"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" \
  "(12, 512, 1024)" "one node per system"
printf 'MTS3600 sw1\n  P37 -> MT23108 h1 P1\n' >"$TMP/p37.topo"
expect_rc 2 "$FL" info "$TMP/p37.topo"
expect_grep "$TMP/err" 'p37\.topo:2:3: port P37 of sw1 is not a front-panel port of its type MTS3600 \(IBNL .*MTS3600\.ibnl defines 36, e\.g\. P1\)$'
# CFG leaf12=R: that board is not there (ibdm-topo-file(1)); its 12
# connections to the spines, 12 to the panel and the spines' 12 to it dangle
printf 'MTS14400 d1 CFG: leaf12=R\n  L1/P1 -> MT23108 h1 P1\n' >"$TMP/r.topo"
expect_rc 0 "$FL" check --rules topology "$TMP/r.topo"
expect_grep "$TMP/out" 'system type MTS14400: IBNL .*: 17 ASIC\(s\), 132 cable\(s\) inside, 132 front-panel port\(s\); CFG: leaf12=R \(R: boards removed\)'
printf 'MTS14400 d1 CFG: leaf12=R\n  L12/P1 -> MT23108 h1 P1\n' >"$TMP/r12.topo"
expect_rc 2 "$FL" info "$TMP/r12.topo"
expect_grep "$TMP/err" 'r12\.topo:2:3: port L12/P1 of d1 is not a front-panel port of its type MTS14400 \(IBNL .* defines 132, e\.g\. L1/P1\)$'
printf 'MTS14400 d1 CFG: leaf1=12x\n  L1/P1 -> MT23108 h1 P1\n' >"$TMP/cfg.topo"
expect_rc 2 "$FL" info "$TMP/cfg.topo"
expect_grep "$TMP/err" 'MTS14400\.ibnl:113:11: board type LEAF:12x of instance leaf1 is not defined by a SYSTEM of this file$'
finish
