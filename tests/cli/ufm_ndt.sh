#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/ufm_ndt.sh — the UFM NDT loader (core/io/ufm_ndt.c) and director
# chassis (core/model/chassis.c), on real inputs:
# 1. UFM's public NDT samples (tests/data/external, Mellanox/ufm_sdk_3.0):
#    ndt.csv (spreadsheet export, `#Fields:` header, director ports) and
#    ndth2s.csv (host side) load with exact counts; the negative samples
#    are refused with file:line:col and exit 2.
# 2. The done-when pair (fabrics/director/): a hand-written NDT in UFM's
#    grammar vs ibnetdiscover's capture of the ibsim fabric with an
#    MCS8500-style director: no finding; the capture with one cable moved:
#    exactly that diff.misconnected, in front-panel names; and the same
#    two fabrics with the dump as the plan and the NDT as built.
# 3. The director is one switch for tiers and the topology rules: no
#    same-tier-link on the cables inside the chassis.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ndt=Mellanox__ufm_sdk_3.0__plugins__UFM_NDT_Plugin__tests
need_external ${ndt}__other_ndts__ndt.csv ${ndt}__other_ndts__ndth2s.csv \
  ${ndt}__negative_flow_ndts__garbage.ndt ${ndt}__negative_flow_ndts__incorrect_columns.ndt \
  ${ndt}__negative_flow_ndts__incorrect_ports.ndt
x=$FL_EXTERNAL/$ndt
d=$src/fabrics/director

# ---- 1. public samples ------------------------------------------------------
expect_rc 0 "$FL" info "$x"__other_ndts__ndt.csv
expect_grep "$TMP/out" '\(ufm-ndt\)$'
expect_grep "$TMP/out" '^fabric: 29 switches, 0 CAs, 0 routers, 400 links$'
# the sample plans 40 director ports twice (e.g. DSM07-0101-0801-02IB1
# Blade 2_Port 1/20 from ports 24 and 32 of DSM07-0101-0806-20IB0)
expect_rc 1 "$FL" check --format json "$x"__other_ndts__ndt.csv
expect_eq "$(jget "$TMP/out" "=sum(f['rule'] == 'topology.port-connected-twice' for f in d['findings'])")" 40 "ports planned twice"
expect_rc 0 "$FL" info "$x"__other_ndts__ndth2s.csv
expect_grep "$TMP/out" '^fabric: 20 switches, 32 CAs, 0 routers, 320 links$'
expect_rc 2 "$FL" info "$x"__negative_flow_ndts__incorrect_columns.ndt
expect_grep "$TMP/err" 'incorrect_columns\.ndt:1:1: the NDT header has no StartPort column; expected the NDT header #StartDevice,StartPort,EndDevice,EndPort,LinkType$'
expect_rc 2 "$FL" info "$x"__negative_flow_ndts__incorrect_ports.ndt
expect_grep "$TMP/err" "incorrect_ports\.ndt:2:23: port 'abra' of 'SAT11-0101-0927-20IB0': expected \`Port N\`"
expect_rc 2 "$FL" info --input-format ufm-ndt "$x"__negative_flow_ndts__garbage.ndt
expect_grep "$TMP/err" 'garbage\.ndt:1:1: expected the NDT header #StartDevice'
expect_rc 2 "$FL" info "$x"__negative_flow_ndts__garbage.ndt
expect_grep "$TMP/err" 'garbage\.ndt: unrecognised format: expected .*a UFM NDT cabling plan'
# a row cut short, an empty end, a quote left open: file:line:col
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nA,Port 1,B,Port 2,Data\nA,Port 3,B\n' >"$TMP/short.ndt"
expect_rc 2 "$FL" info "$TMP/short.ndt"
expect_grep "$TMP/err" 'short\.ndt:3:11: the row ends after 3 field\(s\); the header places the cable.s ends in the first 4$'
printf '#StartDevice,StartPort,EndDevice,EndPort\nA,Port 1, ,Port 2\n' >"$TMP/empty.ndt"
expect_rc 2 "$FL" info "$TMP/empty.ndt"
expect_grep "$TMP/err" 'empty\.ndt:2:11: empty EndDevice; '
printf '#StartDevice,StartPort,EndDevice,EndPort\n"A,Port 1,B,Port 2\n' >"$TMP/quote.ndt"
expect_rc 2 "$FL" info "$TMP/quote.ndt"
expect_grep "$TMP/err" 'quote\.ndt:2:1: unterminated quoted field$'
# a quoted line break (a spreadsheet cell of two lines) is text, as in
# NetBox (one CSV reader, util/csv.h, issue 29): the cable loads, and a
# later row's error names its own line; before, this was "unterminated"
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nsw-a,Port 1,sw-b,Port 2,"Data\nrail 1"\nsw-a,Port 3,sw-b,Port 4,Data\n' >"$TMP/qnl.ndt"
expect_rc 0 "$FL" info --format json "$TMP/qnl.ndt"
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 2 "links with a quoted line break"
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nsw-a,Port 1,sw-b,Port 2,"Data\nrail 1"\nsw-a,Port 3,sw-b\n' >"$TMP/qnl-short.ndt"
expect_rc 2 "$FL" info "$TMP/qnl-short.ndt"
expect_grep "$TMP/err" 'qnl-short\.ndt:4:17: the row ends after 3 field\(s\)'
# blank spreadsheet rows are skipped and counted, quoted cells and blanks kept
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\n"sw-1",Port 1,"dir, a",Blade 1_Port 2/3, Data\n,,,,\n,,,,\n' >"$TMP/blank.ndt"
expect_rc 0 "$FL" info --format json "$TMP/blank.ndt"
expect_eq "$(jget "$TMP/out" "['routing']['notes']")" 1 "blank-row note"
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 1 "links"

# ---- 2. the director pair ----------------------------------------------------
expect_rc 0 "$FL" diff -v "$d/ndt" "$d/director.ibnetdiscover"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '
expect_grep "$TMP/err" 'by name 16, by system 4, as a director chassis 1; cables: 32 planned, 32 built, 32 as planned$'
expect_rc 1 "$FL" diff --format json "$d/ndt" "$d/director-miswired.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" diff.misconnected "findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" 'cable from "LEAF-03" port 22 lands on "UFM-DIRECTOR" Blade 02_Port 1/5; the plan puts it on "UFM-DIRECTOR" Blade 01_Port 2/3: move that end from "UFM-DIRECTOR" Blade 02_Port 1/5 to "UFM-DIRECTOR" Blade 01_Port 2/3' "message"
expect_eq "$(jget "$TMP/out" "['findings'][0]['location']['line']")" 11 "location line"
# the work order names front-panel ports
expect_rc 1 "$FL" diff --format csv "$d/ndt" "$d/director-miswired.ibnetdiscover"
expect_grep "$TMP/out" '^1,move,diff\.misconnected,LEAF-03,22,,UFM-DIRECTOR,Blade 01_Port 2/3,,UFM-DIRECTOR,Blade 02_Port 1/5,'
# the as-built against itself still matches ASIC by ASIC
expect_rc 0 "$FL" diff "$d/director.ibnetdiscover" "$d/director.ibnetdiscover"
# the other way round, kept as given (--as-given): the ASIC-level dump as
# the plan, the NDT as what was built (the director's 6 ASICs are the NDT's
# one switch, each leaf "MF0;leaf-0N:MQM8700/U1" is LEAF-0N by its system):
# no finding but the warning that the arguments look reversed
expect_rc 0 "$FL" diff -v --as-given --format json "$d/director.ibnetdiscover" "$d/ndt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], f['evidence']['swapped']) for f in d['findings']]")" "[('diff.reversed', 'warning', False)]" "reverse: findings"
expect_grep "$TMP/err" 'by name 16, by system 4, as a director chassis 1; cables: 32 planned, 32 built, 32 as planned$'
# the miswired dump as the plan: the same one cable, from the other side
expect_rc 1 "$FL" diff --as-given --format json "$d/director-miswired.ibnetdiscover" "$d/ndt"
expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" "diff.misconnected diff.reversed" "reverse: findings"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" 'cable from "MF0;leaf-03:MQM8700/U1" port 22 lands on "UFM-DIRECTOR" Blade 01_Port 2/3; the plan puts it on "UFM-DIRECTOR" Blade 02_Port 1/5: move that end from "UFM-DIRECTOR" Blade 01_Port 2/3 to "UFM-DIRECTOR" Blade 02_Port 1/5' "reverse: message"
# by default the reversed arguments are compared the right way round: the
# finding and the work order of the forward run, and the warning
expect_rc 1 "$FL" diff --format json "$d/director-miswired.ibnetdiscover" "$d/ndt"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['evidence'].get('swapped')) for f in d['findings']]")" "[('diff.misconnected', None), ('diff.reversed', True)]" "reversed: swapped"
expect_eq "$(jget "$TMP/out" "['findings'][0]['message']")" 'cable from "LEAF-03" port 22 lands on "UFM-DIRECTOR" Blade 02_Port 1/5; the plan puts it on "UFM-DIRECTOR" Blade 01_Port 2/3: move that end from "UFM-DIRECTOR" Blade 02_Port 1/5 to "UFM-DIRECTOR" Blade 01_Port 2/3' "reversed: the forward message"
expect_rc 1 "$FL" diff --format csv "$d/director-miswired.ibnetdiscover" "$d/ndt"
expect_grep "$TMP/out" '^1,move,diff\.misconnected,LEAF-03,22,,UFM-DIRECTOR,Blade 01_Port 2/3,,UFM-DIRECTOR,Blade 02_Port 1/5,'
expect_eq "$(wc -l <"$TMP/out")" 2 "reversed: one work-order row, none for the warning"

# ---- 3. one chassis, one switch ------------------------------------------
expect_rc 0 "$FL" info --format json "$d/director.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "['chassis']")" "[{'name': 'ufm-director', 'model': 'MCS8500', 'asics': 6}]" "chassis"
expect_eq "$(jget "$TMP/out" "=[(t['tier'], t['switches']) for t in d['tiers']]")" "[(0, 0), (1, 4), (2, 6)]" "tiers"
expect_eq "$(jget "$TMP/out" "['shape']['same_tier_links']")" 0 "same-tier links"
expect_rc 0 "$FL" check --format json "$d/director.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "check findings"
# ---- a cable listed from both ends is one cable; listed twice, two ------------
# UFM's switch-to-switch NDTs list every cable once per direction (the
# public positive_flow_ndts/switch_to_switch_topo2.ndt: 6,390 rows, 3,195
# cables); the same cable twice in one direction stays two cables, so the
# port shows as connected twice (robustness-3 case 3)
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nsw-a,Port 1,sw-b,Port 2,Data\nsw-b,Port 2,sw-a,Port 1,Data\nsw-a,Port 3,sw-b,Port 4,Data\n' >"$TMP/both-ends.ndt"
expect_rc 0 "$FL" info --format json "$TMP/both-ends.ndt"
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 2 "both ends: one cable each"
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nsw-b,Port 2,sw-a,Port 1,Data\nsw-a,Port 1,sw-b,Port 2,Data\n' >"$TMP/both-ends-rev.ndt"
expect_rc 0 "$FL" info --format json "$TMP/both-ends-rev.ndt"
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 1 "both ends, the other end first: one cable"
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nsw-a,Port 1,sw-b,Port 2,Data\nsw-a,Port 1,sw-b,Port 2,Data\n' >"$TMP/twice.ndt"
expect_rc 1 "$FL" check --format json "$TMP/twice.ndt"
expect_eq "$(jget "$TMP/out" "=sorted(set(f['rule'] for f in d['findings'] if f['severity'] == 'error'))")" "['topology.port-connected-twice']" "listed twice one way: two cables, visible"
finish
