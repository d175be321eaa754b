#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_headline.sh — `fabriclint diff` on real captures
# (fabrics/diff/, made by fabrics/regen-diff.sh) and real samples.
#
# 1. InfiniBand: the rail-su design (gen rail-su, 240 hosts) vs an ibsim +
#    opensm + ibnetdiscover capture of the same fabric with one cable moved,
#    one removed, one added and two swapped: exactly those four findings.
# 2. Ethernet: the LLDP namespace fabric's design vs its lldpd captures (a
#    folder, one file per device; names spelt differently): the same four.
# 3. The work order (--format csv), JSON, exit codes, --rules, --fail-on.
# 4. Two ibnetdiscover dumps of one fabric; design vs the same fabric.
# 5. Real samples: Cisco cable plans, ibdm .topo files, Junos LLDP XML.
# 6. Malformed inputs and usage errors: exit 2 with file:line messages.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ext=$FL_EXTERNAL
need_external datacenter__acitoolkit__applications__cableplan__cable_plan.xml \
  datacenter__acitoolkit__applications__cableplan__cable_plan2.xml \
  datacenter__acitoolkit__applications__cableplan__test.xml \
  nmorey__ibutils__ibdm__Clusters__Buffalo8.topo nmorey__ibutils__ibdiag__demo__network.topo \
  napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_neighbors__normal__get-lldp-neighbors-information.xml \
  napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_neighbors_detail__normal_ex_fx_srx__get-lldp-interface-neighbors-information.xml
d=$src/fabrics/diff
fx=$src/tests/fixtures/diff

# rules of a JSON report, sorted, one line
rules_of() { jget "$1" "=' '.join(sorted(f['rule'] for f in d['findings']))"; }

# ---- 1. InfiniBand headline ----------------------------------------------
expect_rc 1 "$FL" diff --format json "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
cp "$TMP/out" "$TMP/ib.json"
expect_eq "$(rules_of "$TMP/ib.json")" \
  "diff.misconnected diff.missing diff.swapped diff.unexpected" "ib findings"
expect_eq "$(jget "$TMP/ib.json" "=[f['evidence']['move_from'] for f in d['findings'] if f['rule']=='diff.misconnected'][0]")" \
  "{'node': 'leaf-su01-r3', 'port': 31}" "moved cable is at"
expect_eq "$(jget "$TMP/ib.json" "=[f['evidence']['move_to'] for f in d['findings'] if f['rule']=='diff.misconnected'][0]")" \
  "{'node': 'leaf-su01-r3', 'port': 3}" "moved cable belongs at"
expect_eq "$(jget "$TMP/ib.json" "=sorted(p['node']+':'+str(p['port']) for f in d['findings'] if f['rule']=='diff.missing' for p in f['ports'])")" \
  "['leaf-su02-r4:33', 'spine-01:13']" "removed cable"
expect_eq "$(jget "$TMP/ib.json" "=sorted(p['node']+':'+str(p['port']) for f in d['findings'] if f['rule']=='diff.unexpected' for p in f['ports'])")" \
  "['leaf-su03-r0:31', 'leaf-su03-r1:31']" "added cable"
expect_eq "$(jget "$TMP/ib.json" "=[sorted(e['node'] for e in f['evidence']['swap']) for f in d['findings'] if f['rule']=='diff.swapped'][0]")" \
  "['dgx-010 mlx5_0', 'dgx-010 mlx5_3']" "swap fix"
expect_eq "$(jget "$TMP/ib.json" "['summary']['error']")" 4 "ib errors"
expect_eq "$(jget "$TMP/ib.json" "['fabric']['cas']")" 1920 "as-built CAs"

# ---- 2. LLDP headline (a folder of lldpd captures) ------------------------
expect_rc 1 "$FL" diff --format json "$d/lldp-design.xml" "$d/lldp"
cp "$TMP/out" "$TMP/lldp.json"
expect_eq "$(rules_of "$TMP/lldp.json")" \
  "diff.misconnected diff.missing diff.swapped diff.unexpected" "lldp findings"
expect_grep "$TMP/lldp.json" 'cable from \\"host-03\\" eth0 lands on \\"leaf-01\\" swp5; the plan puts it on \\"leaf-01\\" swp3'
expect_grep "$TMP/lldp.json" 'planned cable \\"leaf-04\\" swp52 - \\"spine-02\\" Eth12 is not there'
expect_grep "$TMP/lldp.json" 'swap the two cable ends at \\"host-06\\" eth0 and \\"host-06\\" eth1'
expect_grep "$TMP/lldp.json" 'cable \\"leaf-02\\" swp10 - \\"leaf-03\\" swp10 is not in the plan'
# the same files given one by one (several paths merge into one fabric)
args=()
for f in "$d"/lldp/*.xml; do args+=(--as-built "$f"); done
expect_rc 1 "$FL" diff --format json "$d/lldp-design.xml" "${args[@]}"
expect_eq "$(rules_of "$TMP/out")" \
  "diff.misconnected diff.missing diff.swapped diff.unexpected" "lldp files one by one"

# ---- 3. work order, text, options ----------------------------------------
expect_rc 1 "$FL" diff --format csv "$d/lldp-design.xml" "$d/lldp"
expect_eq "$(head -1 "$TMP/out" | tr -d '\r')" \
  "row,action,finding,a_node,a_port,a_rack,b_node,b_port,b_rack,from_node,from_port,cable,detail,fix,fingerprint,a_u,b_u,cable_b,media,length,part,from_rack,from_u,media_b,length_b,part_b" "csv header"
# the fix columns: the finding's fix in the words of JSON fix.description,
# and its fingerprint (the same finding in JSON and SARIF)
expect_grep "$TMP/out" '^[0-9]+,move,diff.misconnected,host-03,eth0,R01,leaf-01,swp3,R03,leaf-01,swp5,E005,move the cable end to the planned port,"move the cable end at ""leaf-01"" swp5 to ""leaf-01"" swp3",[0-9a-f]{16},,,,,,,R03,,,,'$'\r''$'
cp "$TMP/out" "$TMP/wo.csv"
expect_rc 1 "$FL" diff --format json "$d/lldp-design.xml" "$d/lldp"
expect_eq "$(jget "$TMP/out" "=[(f['fix']['kind'], f['fix']['description'], f['fingerprint']) for f in d['findings'] if f['rule'] == 'diff.misconnected']")" \
  "[('move', 'move the cable end at \"leaf-01\" swp5 to \"leaf-01\" swp3', '$(grep ',move,' "$TMP/wo.csv" | tr -d '\r' | awk -F, '{print $(NF-11)}')')]" "csv row = JSON finding"
expect_eq "$(tail -n +2 "$TMP/wo.csv" | cut -d, -f2 | sort | tr '\n' ' ')" "add move remove swap " "csv actions"
expect_grep "$TMP/wo.csv" '^[0-9]+,move,diff.misconnected,host-03,eth0,R01,leaf-01,swp3,R03,leaf-01,swp5,E005,'
expect_grep "$TMP/wo.csv" ',add,diff.missing,leaf-04,swp52,R03,spine-02,Eth12,R03,,,E024,'
expect_rc 1 "$FL" diff "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_grep "$TMP/out" '^4 error\(s\), 0 warning\(s\), 0 info; 9 rule\(s\) run$'
expect_grep "$TMP/out" 'rail-su8.design.xml:[0-9]+:[0-9]+: error: cables crossed: .* \[diff.swapped\]$'
expect_rc 0 "$FL" diff --fail-on never "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_rc 1 "$FL" diff --rules 'diff.swap*' -q "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_eq "$(wc -l <"$TMP/out")" 1 "--rules keeps one finding"
expect_rc 2 "$FL" diff --rules 'deadlock.*' "$d/rail-su8.design.xml" "$d/rail-su8.asbuilt.ibnetdiscover"
expect_rc 0 "$FL" diff --output "$TMP/report.txt" --fail-on never "$d/lldp-design.xml" "$d/lldp"
expect_grep "$TMP/report.txt" 'diff.swapped'
expect_rc 2 "$FL" diff --output "$d/lldp-design.xml" "$d/lldp-design.xml" "$d/lldp"

# ---- 4. same fabric, other sources -----------------------------------------
"$FL" gen rail-su --sus 1 --hosts-per-su 32 --rails 8 --speed HDR --no-lids -o "$TMP/rs.xml"
expect_rc 0 "$FL" diff "$TMP/rs.xml" "$src/fabrics/rail-su.ibnetdiscover"
expect_rc 0 "$FL" diff "$src/fabrics/rail-su.ibnetdiscover" "$src/fabrics/rail-su.g.ibnetdiscover"
# before/after a maintenance window: two dumps, LIDs ignored by default
expect_rc 1 "$FL" diff --format json "$src/fabrics/rail-su.ibnetdiscover" "$src/fabrics/rail-su-asbuilt.ibnetdiscover"
expect_eq "$(rules_of "$TMP/out")" "diff.different diff.swapped" "two dumps"
expect_grep "$TMP/out" 'runs at 1xHDR, planned 4xHDR'
expect_rc 1 "$FL" diff --format json "$TMP/rs.xml" "$src/fabrics/broken/rail-missing-nic.ibnetdiscover"
expect_eq "$(rules_of "$TMP/out")" "diff.missing-node" "missing NIC"

# ---- 5. real samples ---------------------------------------------------------
cp1=$ext/datacenter__acitoolkit__applications__cableplan__cable_plan.xml
cp2=$ext/datacenter__acitoolkit__applications__cableplan__cable_plan2.xml
cpt=$ext/datacenter__acitoolkit__applications__cableplan__test.xml
{
  expect_rc 1 "$FL" diff --format json "$cp1" "$cpt"
  expect_eq "$(rules_of "$TMP/out")" "diff.unexpected" "cable plan + 1 cable"
  expect_grep "$TMP/out" 'cable \\"fab3-spine2\\" eth2/4 - \\"fab3-leaf2\\" eth1/51 is not in the plan'
  expect_rc 0 "$FL" diff "$cp1" "$cp1"
  # cable_plan2's constraints: Spine1-Leaf3 needs >= 2 cables
  cat >"$TMP/built2.xml" <<'EOF'
<CISCO_NETWORK_TYPES xmlns="http://www.cisco.com/cableplan/Schema2">
 <DATA_CENTER>
  <CHASSIS_INFO sourceChassis="spine1">
   <LINK_INFO sourcePort="Ethernet1/1" destChassis="leaf1" destPort="Ethernet1/1"/>
   <LINK_INFO sourcePort="Ethernet1/2" destChassis="leaf2" destPort="Ethernet1/1"/>
   <LINK_INFO sourcePort="Ethernet1/7" destChassis="leaf3" destPort="Ethernet1/4"/>
  </CHASSIS_INFO>
  <CHASSIS_INFO sourceChassis="spine2">
   <LINK_INFO sourcePort="Ethernet1/1" destChassis="leaf1" destPort="Ethernet1/2"/>
   <LINK_INFO sourcePort="Ethernet1/2" destChassis="leaf2" destPort="Ethernet1/2"/>
   <LINK_INFO sourcePort="Ethernet1/3" destChassis="leaf3" destPort="Ethernet1/9"/>
  </CHASSIS_INFO>
 </DATA_CENTER>
</CISCO_NETWORK_TYPES>
EOF
  expect_rc 1 "$FL" diff --format json "$cp2" "$TMP/built2.xml"
  expect_eq "$(rules_of "$TMP/out")" "diff.missing" "cable_plan2 minPorts"
  expect_grep "$TMP/out" 'at least 2 cable\(s\) between \\"Spine1\\" \(any port\) and \\"Leaf3\\" \(any port\); 1 found'
}
topo=$ext/nmorey__ibutils__ibdm__Clusters__Buffalo8.topo
{
  expect_rc 0 "$FL" diff "$topo" "$topo"
  # drop one cable from both listings: exactly one diff.missing
  grep -v 'P4 -> Cougar H08 P1' "$topo" >"$TMP/b8.topo"
  expect_rc 1 "$FL" diff --format json "$topo" "$TMP/b8.topo"
  expect_eq "$(rules_of "$TMP/out")" "diff.missing-node" "topo: H08 unplugged is a missing host"
  expect_rc 0 "$FL" info "$ext/nmorey__ibutils__ibdiag__demo__network.topo"
  expect_grep "$TMP/out" '17 switches, 128 CAs, 0 routers, 256 links'
}
jn=$ext/napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_neighbors__normal__get-lldp-neighbors-information.xml
{
  expect_rc 0 "$FL" info --format json "$jn"
  expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 4 "junos links"
  # neighbours named by their system names, not their chassis ids (mutant
  # l2-junos-name); a parent interface "-" is no LAG (mutant l2-junos-lag)
  expect_rc 0 "$FL" convert "$jn" -o "$TMP/jn.xml" --format design
  expect_eq "$(grep -o '<node kind="switch" name="[^"]*"' "$TMP/jn.xml" | sed 's/.*name="//; s/"$//' | grep -v '^napalm' | sort | tr '\n' ' ')" \
    "lom-bjg61-r1-1 peer00.lab.demo rtr00.demo spine00 " "junos neighbour names"
  expect_eq "$(grep -c 'key="lag"' "$TMP/jn.xml")" 0 "junos: parent - is no LAG"
  jd=$ext/napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_neighbors_detail__normal_ex_fx_srx__get-lldp-interface-neighbors-information.xml
  expect_rc 0 "$FL" convert "$jd" -o "$TMP/jd.xml" --format design
  expect_eq "$(grep -o 'key="lag" value="[^"]*"' "$TMP/jd.xml" | tr '\n' ' ')" 'key="lag" value="ae0.0" ' "junos: the one LAG member"
}

# ---- 6. malformed inputs, usage ----------------------------------------------
expect_rc 2 "$FL" diff "$fx/bad-arrow.topo" "$d/lldp"
expect_grep "$TMP/err" 'bad-arrow.topo:3:6: bad link arrow'
expect_rc 2 "$FL" diff "$d/lldp-design.xml" "$fx/broken.lldp.xml"
expect_grep "$TMP/err" 'broken.lldp.xml:5:14: malformed XML'
expect_rc 2 "$FL" diff "$d/lldp-design.xml" "$fx/nolocal.junos.xml"
expect_grep "$TMP/err" 'nolocal.junos.xml:2: <lldp-neighbor-information> without'
expect_rc 2 "$FL" diff "$fx/bad-count.cisco.xml" "$d/lldp"
expect_grep "$TMP/err" 'bad-count.cisco.xml:5: minPorts=3 is above maxPorts=2'
expect_rc 2 "$FL" diff "$d/lldp-design.xml" "$fx/doctype.lldp.xml"
expect_grep "$TMP/err" 'DOCTYPE is not allowed'
expect_rc 2 "$FL" diff "$d/lldp-design.xml"
expect_grep "$TMP/err" 'diff needs DESIGN and AS_BUILT'
expect_rc 2 "$FL" diff "$d/lldp-design.xml" "$TMP/nonexistent"
expect_rc 2 "$FL" diff --design-format nosuch "$d/lldp-design.xml" "$d/lldp"
# a multi-vendor folder (lldpd and Junos files) loads file by file in diff,
# but `info`/`check` want one format per folder
mkdir -p "$TMP/mixed" && cp "$d/lldp/host-01.xml" "$jn" "$TMP/mixed/" 2>/dev/null
expect_rc 1 "$FL" diff "$d/lldp-design.xml" "$TMP/mixed"
expect_rc 2 "$FL" info "$TMP/mixed"
expect_grep "$TMP/err" 'mixes formats'
expect_rc 0 "$FL" diff --help
expect_grep "$TMP/out" 'usage: fabriclint diff'
finish
