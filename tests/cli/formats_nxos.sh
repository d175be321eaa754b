#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/formats_nxos.sh — NX-OS `show lldp neighbors detail` (core/io/
# nxos_lldp.c) on the real NX-API JSON of NetApp Harvest's test data (a Nexus
# 9336C-FX2 with 13 neighbours, and 3 on another switch) and its rendering
# in the `| xml` layout (tests/data/formats/nxos-json-to-xml.py):
# 1. exact counts, kinds from capabilities, the LAG attribute;
# 2. diff against a NetBox plan of the same switch: exactly the swapped pair;
# 3. bad input: file:line, exit 2.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
h=NetApp__harvest__cmd__collectors__cisco__plugins__lldp__testdata
need_external ${h}__lldp.json ${h}__lldp2.json
L=sa-tme-flexpod-9336-fx2-gg28-01
d=$src/tests/data/formats
# the listing never names the local switch: the file does
cp "$FL_EXTERNAL/${h}__lldp2.json" "$TMP/$L.json"
cp "$FL_EXTERNAL/${h}__lldp.json" "$TMP/sw1.json"

# ---- 1. counts -----------------------------------------------------------------
for f in "$TMP/$L.json" "$d/$L.xml"; do
  expect_rc 0 "$FL" info --format json "$f"
  expect_eq "$(jget "$TMP/out" "=(d['inputs'][0]['format'], d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'], d['one_sided_links'])")" "('nxos-lldp', 3, 5, 13, 13)" "$(basename "$f") counts"
  expect_eq "$(jget "$TMP/out" "['link_types']")" "{'????': 13}" "no speed in NX-OS LLDP"
done
expect_rc 0 "$FL" info --format json "$TMP/sw1.json"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" "(1, 2, 3)" "bare | json counts"
# one switch's view: its neighbours' own listings are not given, so their
# cables are seen from one end (one info, class F4) and a controller with two
# ports on this switch is not judged single-homed (its cables to the switch
# that was not captured are unknown, class F3: docs/real-fabrics.md)
expect_rc 0 "$FL" check --format json "$TMP/$L.json"
# its switch's "upper" switches, the vPC peer and the management switch,
# are known from this end only: no uplink asymmetry judged (class F6)
expect_eq "$(jget "$TMP/out" "=sorted({f['rule'] + ':' + f['severity'] for f in d['findings']})")" "['topology.one-sided-link:info']" "check rules"
expect_eq "$(jget "$TMP/out" "=[f['evidence'] for f in d['findings'] if f['rule'] == 'topology.one-sided-link']")" \
  "[{'cables_from_one_end': 13, 'listing_devices': 1, 'neighbours_not_listed': 7}]" "one info: one device's view"
# NS224 shelf 021918000242: its IOMs A and B both advertise the shelf serial and
# port e0b, each with its own port MAC in port_desc: two ports, not one port
# connected twice (issue 30, F5)
for f in "$TMP/$L.json" "$d/$L.xml"; do
  expect_rc 0 "$FL" check --format json --rules topology.port-connected-twice,failure-domains.dual-homing "$f"
  expect_eq "$(jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'])")" "[]" "$(basename "$f"): shelf modules are two ports"
  rm -f "$TMP/shelf.dot"
  expect_rc 0 "$FL" convert "$f" -o "$TMP/shelf.dot" --format dot
  expect_eq "$(grep -c -- '-- 021918000242' "$TMP/shelf.dot")" 2 "$(basename "$f"): two cables to the shelf"
done

# ---- 2. diff against a NetBox plan ---------------------------------------------------
for f in "$TMP/$L.json" "$d/$L.xml"; do
  expect_rc 1 "$FL" diff --format json "$d/flexpod-plan.csv" "$f"
  expect_eq "$(jget "$TMP/out" "=' '.join(f['rule'] for f in d['findings'])")" diff.swapped "$(basename "$f") findings"
  expect_eq "$(jget "$TMP/out" "['findings'][0]['location']['line']")" 11 "plan line"
done
expect_grep "$TMP/out" 'built \\"sa-tme-flexpod-9336-fx2-gg28-01\\" Ethernet1/27 - \\"sa-tme-flexpod-afx-c2-01\\" e4b'

# ---- 3. bad input ------------------------------------------------------------------
sed '0,/"l_port_id": "Eth1\/2",/s///' "$TMP/$L.json" >"$TMP/noport.json"
expect_rc 2 "$FL" info --input-format nxos-lldp "$TMP/noport.json"
expect_grep "$TMP/err" 'noport\.json:61: neighbour 3 \(ROW_nbor_detail\) has no l_port_id$'
sed 's|<sys_name>sa-tme-flexpod-afx-c1-01</sys_name>||; s|<chassis_id>d039.ea53.77ed</chassis_id>||' "$d/$L.xml" >"$TMP/noname.xml"
expect_rc 2 "$FL" info "$TMP/noname.xml"
expect_grep "$TMP/err" 'noname\.xml:37: neighbour on Eth1/1 has neither sys_name nor chassis_id$'
sed 's|"port_id": "e0M",||' "$TMP/sw1.json" | sed 's|"port_desc": "null",||' >"$TMP/rport.json"
expect_rc 2 "$FL" info "$TMP/rport.json"
expect_grep "$TMP/err" 'rport\.json:5: neighbour na2a-mc1-nbg3 on mgmt0 has neither port_id nor port_desc$'
printf '{"TABLE_nbor_detail": {"ROW_nbor_detail": [}\n' >"$TMP/bad.json"
expect_rc 2 "$FL" info --input-format nxos-lldp "$TMP/bad.json"
expect_grep "$TMP/err" 'bad\.json:1:[0-9]+: malformed JSON: '
printf '<nf:rpc-reply xmlns:nf="urn:ietf:params:xml:ns:netconf:base:1.0"><nf:data><TABLE_nbor_detail><ROW_nbor_detail><l_port_id>Eth1/1</l_port_id>\n</nf:data></nf:rpc-reply>\n' >"$TMP/cut.xml"
expect_rc 2 "$FL" info "$TMP/cut.xml"
expect_grep "$TMP/err" 'cut\.xml:2:[0-9]+: malformed XML'
# a single neighbour is an object, not an array (NX-API); without enabled
# capabilities the system capabilities give the kind (S: a host)
printf '{"TABLE_nbor_detail": {"ROW_nbor_detail": {"l_port_id": "Eth1/1", "sys_name": "gpu-1", "port_type": "Interface Name", "port_id": "eth0", "enabled_capability": "not advertised", "system_capability": "S"}}}\n' >"$TMP/leaf-1.json"
expect_rc 0 "$FL" info --format json "$TMP/leaf-1.json"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])")" "(1, 1, 1)" "one-row object"
finish
