#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/formats_netbox.sh — the NetBox cables loader (core/io/netbox_csv.c)
# on the three header dialects (tests/data/formats/netbox-*.csv, made by
# netbox-from-design.py from fabrics/diff/lldp-design.xml; see
# tests/data/formats/PROVENANCE.md):
# 1. exact counts and the skip notes (circuit end, breakout, console cable);
# 2. each export diffed against the real lldpd captures of that fabric
#    (fabrics/diff/lldp/) reports exactly the four faults the design XML
#    finds (tests/cli/diff_headline.sh), on the export's own lines;
# 3. refused headers and bad rows: file:line:col, exit 2.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$src/tests/data/formats
lldp=$src/fabrics/diff/lldp

# ---- 1. counts -------------------------------------------------------------------
for f in netbox-3.2-export netbox-4-export netbox-import; do
  expect_rc 0 "$FL" info --format json "$d/$f.csv"
  expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['links'], d['inputs'][0]['format'])")" "(14, 24, 'netbox-cables')" "$f counts"
done
expect_rc 1 "$FL" check "$d/netbox-4-export.csv" # 1: deadlock.pfc-cycle (hosts count as switches)
expect_grep "$TMP/out" 'netbox-4-export\.csv:27: 1 cable\(s\) with an end on no device interface \(circuit, power feed, unterminated\) skipped, the first at line 27 '
expect_grep "$TMP/out" 'netbox-4-export\.csv:28: 1 cable\(s\) with several terminations on one end skipped, the first at line 28 '
expect_rc 1 "$FL" check "$d/netbox-import.csv"
expect_grep "$TMP/out" 'netbox-import\.csv:26: 1 cable\(s\) not between interfaces \(console, power or patch-panel ports\) skipped'
# the end types are checked on both sides: an interface cabled to a patch
# panel's front port (side B) is skipped like a console cable (mutant
# l2-nb-type-b)
printf 'side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name\nh1,dcim.interface,eth0,l1,dcim.interface,swp1\nh2,dcim.interface,eth0,pp1,dcim.frontport,1\n' >"$TMP/bfront.csv"
expect_rc 0 "$FL" info --format json "$TMP/bfront.csv"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['links'])")" "(2, 1)" "side B front port: skipped"

# ---- 2. diff against the as-built LLDP captures -----------------------------------
for f in netbox-3.2-export netbox-4-export netbox-import; do
  expect_rc 1 "$FL" diff --format json "$d/$f.csv" "$lldp"
  cp "$TMP/out" "$TMP/diff-$f.json" # (read again below)
  expect_eq "$(jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))")" "diff.misconnected diff.missing diff.swapped diff.unexpected" "$f findings"
  expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == 'diff.misconnected'][0]")" 'cable from "host-03" eth0 lands on "leaf-01" swp5; the plan puts it on "leaf-01" swp3: move that end from "leaf-01" swp5 to "leaf-01" swp3' "$f misconnected"
done
# the quoted two-line comment of cable 1 shifts later rows by one line
# (the diffs of the loop above)
expect_eq "$(jget "$TMP/diff-netbox-4-export.json" "=[f['location']['line'] for f in d['findings'] if f['rule'] == 'diff.missing']")" "[26]" "missing line (4.x)"
expect_eq "$(jget "$TMP/diff-netbox-3.2-export.json" "=[f['location']['line'] for f in d['findings'] if f['rule'] == 'diff.missing']")" "[25]" "missing line (3.2)"
# status, type, label and length are kept on the cable
expect_rc 0 "$FL" diff "$d/netbox-import.csv" "$d/netbox-3.2-export.csv"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '

# ---- 3. refused ------------------------------------------------------------------------
printf 'ID,Label,Termination A,Termination B,Status,Type\n1,E1,eth0,swp1,Connected,CAT6\n' >"$TMP/default-view.csv"
expect_rc 2 "$FL" info "$TMP/default-view.csv"
expect_grep "$TMP/err" 'default-view\.csv:1:1: the cable export has Termination A/B but no Device A/Device B column, so it names no device: in NetBox 3\.3 and later add the Device A and Device B columns'
printf 'side_a_device,side_a_type,side_a_name,side_b_device,side_b_type\nh1,dcim.interface,eth0,l1,dcim.interface\n' >"$TMP/nobname.csv"
expect_rc 2 "$FL" info "$TMP/nobname.csv"
expect_grep "$TMP/err" 'nobname\.csv:1:1: the header has no Termination B/side_b_name column; expected a NetBox cable export'
expect_rc 2 "$FL" info --input-format netbox "$src/fabrics/diff/rail-su8.asbuilt.ibnetdiscover"
expect_grep "$TMP/err" 'rail-su8\.asbuilt\.ibnetdiscover:1:1: the header has no Side A/Device A/side_a_device column'
printf 'ID,Side A,Termination A,Side B,Termination B\n1,h1,eth0,l1,swp1\n2,h2,"eth0,l1,swp2\n' >"$TMP/quote.csv"
expect_rc 2 "$FL" info "$TMP/quote.csv"
expect_grep "$TMP/err" 'quote\.csv:3:6: unterminated quoted field$'
printf 'ID,Side A,Termination A,Side B,Termination B\n1,h1,eth0,l1\n' >"$TMP/short.csv"
expect_rc 2 "$FL" info "$TMP/short.csv"
expect_grep "$TMP/err" "short\.csv:2:13: the row ends after 4 field\(s\); the header places the cable's devices and terminations in the first 5$"
printf 'ID,Side A,Termination A,Side B,Termination B\n1,l1,swp1,l1,swp1\n' >"$TMP/self.csv"
expect_rc 2 "$FL" info "$TMP/self.csv"
expect_grep "$TMP/err" 'self\.csv:2:14: cable joins l1 swp1 to itself$'
printf 'ID,Side A,Termination A,Side B,Termination B\r\n\r\n' >"$TMP/none.csv"
expect_rc 2 "$FL" info "$TMP/none.csv"
expect_grep "$TMP/err" 'none\.csv:3: no cable after the header$'
# CRLF rows, a byte order mark and quoted cells
printf '\xef\xbb\xbfID,Side A,Termination A,Side B,Termination B,Status\r\n1,"h 1","eth0",l1,swp1,Connected\r\n' >"$TMP/crlf.csv"
expect_rc 0 "$FL" info --format json "$TMP/crlf.csv"
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 1 "crlf links"
finish
