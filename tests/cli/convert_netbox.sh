#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/convert_netbox.sh — `convert --format netbox-cables` (issue 36,
# docs/formats/netbox-cables.md "Writing"): NetBox's cable bulk-import CSV
# from any loaded fabric, which fabriclint's NetBox reader reads back into
# the same cabling: `diff` of the source and the CSV, both ways round,
# finds nothing on a rail-optimised capture (a server = one device, its
# HCAs interfaces), a 3-tier capture, a director (chassis and panel
# ports), an LLDP capture and a design; export labels become import
# values; what NetBox would merge or cannot name is refused, naming it.
. "$(dirname "$0")/lib.bash"
FX="$FL_SRC/fabrics"
HDR='side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status,label,length,length_unit,description'
rows() { sed 1d "$1" | wc -l | tr -d ' '; }

# rt NAME SOURCE CABLES [capture] — write SOURCE as $TMP/NAME.csv (CABLES
# rows), and diff the two both ways round with nothing found (a capture
# given as the design is told reversed: that warning alone)
rt() {
  local name=$1 src=$2 want=$3 rev="[]"
  [ "${4:-}" = capture ] && rev="['diff.reversed']"
  expect_rc 0 "$FL" convert "$src" --format netbox-cables -o "$TMP/$name.csv"
  expect_eq "$(head -1 "$TMP/$name.csv")" "$HDR" "$name: header"
  expect_eq "$(rows "$TMP/$name.csv")" "$want" "$name: cables"
  expect_rc 0 "$FL" diff --as-given --format json "$src" "$TMP/$name.csv"
  expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "$rev" "$name: source as the design"
  expect_rc 0 "$FL" diff --as-given --format json "$TMP/$name.csv" "$src"
  expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "[]" "$name: CSV as the design"
}

# a rail-optimised capture: 32 DGX hosts x 8 HCAs, 256 leaf-spine cables
rt rail "$FX/rail-su-asbuilt.ibnetdiscover" 512 capture
expect_grep "$TMP/rail.csv" '^leaf-su01-r7,dcim\.interface,Port 1,dgx-001,dcim\.interface,mlx5_11,,connected,,,,$'
expect_eq "$(cut -d, -f8 "$TMP/rail.csv" | sed 1d | sort | uniq -c | tr -s ' ')" " 512 connected" "rail: all discovered"
expect_eq "$(grep -c ',dgx-001,' "$TMP/rail.csv")" 8 "rail: dgx-001 is one device with 8 interfaces"
# a 3-tier capture, a director (leaf boards' ports as the chassis's panel
# ports), an LLDP capture (Ethernet port names kept)
rt ft3 "$FX/fat-tree-3tier.ibnetdiscover" 384 capture
rt director "$FX/director/director.ibnetdiscover" 32 capture
expect_eq "$(grep -c 'ufm-director,dcim\.interface,Blade [0-9]*_Port [0-9]*/[0-9]*' "$TMP/director.csv")" 16 "director: panel ports"
rt lldp "$FX/diff/lldp" 24 capture
# a design: every cable planned
rt design "$FX/diff/rail-su8.design.xml" 3968
expect_eq "$(cut -d, -f8 "$TMP/design.csv" | sed 1d | sort -u)" planned "design: all planned"

# lengths: gen --layout's metres become length and unit
"$FL" gen rail-su --sus 1 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/lay.xml" || fail "gen --layout"
expect_rc 0 "$FL" convert "$TMP/lay.xml" --format netbox-cables -o "$TMP/lay.csv"
expect_grep "$TMP/lay.csv" '^dgx-001,dcim\.interface,mlx5_0,leaf-su01-r0,dcim\.interface,Port 1,,planned,,7,m,$'

# an export's labels become the import's values; what is no NetBox choice
# goes whole to description
expect_rc 0 "$FL" convert "$FL_SRC/tests/data/formats/netbox-4-export.csv" --format netbox-cables -o "$TMP/n4.csv"
expect_eq "$(sed -n 2,3p "$TMP/n4.csv")" "host-01,dcim.interface,eth0,leaf-01,dcim.interface,swp1,dac-passive,planned,E001,3,m,
host-01,dcim.interface,eth1,leaf-02,dcim.interface,swp1,dac-passive,connected,E002,3,m," "export labels to values"
expect_rc 0 "$FL" diff --as-given "$FL_SRC/tests/data/formats/netbox-4-export.csv" "$TMP/n4.csv"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info'
{ echo "$HDR"
  echo 'a,dcim.interface,p1,b,dcim.interface,p1,Twinax,Lit,,about 3 m,,'
  echo 'a,dcim.interface,p2,b,dcim.interface,p2,smf-os2,decommissioning,X,2.5,Feet,'
  echo 'a,dcim.interface,p3,b,dcim.interface,p3,,,,12,,'; } >"$TMP/odd.csv"
expect_rc 0 "$FL" convert "$TMP/odd.csv" --format netbox-cables -o "$TMP/odd-out.csv"
expect_eq "$(sed 1d "$TMP/odd-out.csv")" 'a,dcim.interface,p1,b,dcim.interface,p1,,planned,,,,status: Lit; type: Twinax; length: about 3 m
a,dcim.interface,p2,b,dcim.interface,p2,smf-os2,decommissioning,X,2.5,ft,
a,dcim.interface,p3,b,dcim.interface,p3,,planned,,12,m,' "choices, units, and what is none"

# refused, naming the nodes, and nothing written
sed 's/name="spine-01"/name="dgx-002"/; s/b="spine-01"/b="dgx-002"/; s/a="spine-01"/a="dgx-002"/' \
  "$TMP/lay.xml" >"$TMP/clash.xml"
expect_rc 2 "$FL" convert "$TMP/clash.xml" --format netbox-cables -o "$TMP/clash.csv"
expect_grep "$TMP/err" 'NetBox cannot tell the devices of "dgx-002 mlx5_0" and of "dgx-002" apart: both are written "dgx-002"'
[ -e "$TMP/clash.csv" ] && fail "clash: a file was written" || pass
sed '0,/a="dgx-001 mlx5_0" a-port="1"/s//a="dgx-001 mlx5_0" a-port="2"/; 0,/ports="1" desc="dgx-001 mlx5_0"/s//ports="2" desc="dgx-001 mlx5_0"/' \
  "$TMP/lay.xml" >"$TMP/port2.xml"
expect_rc 2 "$FL" convert "$TMP/port2.xml" --format netbox-cables -o "$TMP/port2.csv"
expect_grep "$TMP/err" 'NetBox cannot name port 2 of "dgx-001 mlx5_0"'
# what an import would read otherwise (outside tester, fifteenth session):
# nodes told apart only by GUID (factory descriptions), a comma, a formula
expect_rc 2 "$FL" convert "$FX/rail-names.ibnetdiscover" --format netbox-cables -o "$TMP/rn.csv"
expect_grep "$TMP/err" 'NetBox cannot name "MT4129 ConnectX7   Mellanox Technologies \(0x[0-9a-f]{16}\)": several nodes share the description "MT4129 ConnectX7   Mellanox Technologies" \(told apart here by GUID\)'
[ -e "$TMP/rn.csv" ] && fail "rail-names: a file was written" || pass
for bad in 'le,af:a comma in a device or interface name reads as several terminations' \
           '=sum:a cell starting with =, \+, -, @ or a tab is quoted as text'; do
  name=${bad%%:*}
  sed "s/leaf-su01-r0/$name/g" "$TMP/lay.xml" >"$TMP/odd.xml"
  expect_rc 2 "$FL" convert "$TMP/odd.xml" --format netbox-cables -o "$TMP/odd-nb.csv"
  expect_grep "$TMP/err" "${bad#*:}"
done
# a device named with a trailing backslash (fuzz_convert_rt): NetBox
# writes it, DOT refuses it (agwrite would escape its closing quote)
{ echo "$HDR"; echo 'sw\,dcim.interface,p1,b,dcim.interface,p1,,,,,,'; } >"$TMP/bs.csv"
expect_rc 0 "$FL" convert "$TMP/bs.csv" --format netbox-cables -o "$TMP/bs-out.csv"
expect_eq "$(sed -n 2p "$TMP/bs-out.csv")" 'sw\,dcim.interface,p1,b,dcim.interface,p1,,planned,,,,' "trailing backslash kept"
expect_rc 2 "$FL" convert "$TMP/bs.csv" --format dot -o "$TMP/bs.dot"
expect_grep "$TMP/err" 'node "sw\\": "sw\\" ends in a backslash, which DOT cannot quote'
finish
