# SPDX-License-Identifier: MIT
# SONiC cabling plans (core/io/sonic_xml.c): the sonic-mgmt LabConnectionGraph
# and the per-device minigraph, on the real public samples in
# tests/data/external (PROVENANCE.md): exact node, link and speed counts,
# every skipped record counted once with its first line, and a diff of the
# fleet plan against a copy with two cables crossed.
. "$(dirname "$0")/lib.bash"
E=$FL_EXTERNAL
LAB=sonic-net__sonic-mgmt__ansible__files__lab_connection_graph.xml
SLX=sonic-net__sonic-mgmt__ansible__files__lab_connection_graph_slx_t1.xml
NOKIA=sonic-net__sonic-mgmt__ansible__files__nokia_lab_connection_graph.xml
MINI=sonic-net__sonic-buildimage__src__sonic-config-engine__tests__simple-sample-graph.xml
LT2=sonic-net__sonic-buildimage__src__sonic-config-engine__tests__sample-lt2-p32o64-minigraph.xml
DUAL=sonic-net__sonic-buildimage__src__sonic-config-engine__tests__sample-arista-7260-dualtor-minigraph.xml
for f in $LAB $SLX $NOKIA $MINI $LT2 $DUAL; do need_external $f; done

# info --format json: "switches cas links" and the links by type
counts() {
  expect_rc 0 "$FL" info --format json "$E/$1"
  jget "$TMP/out" "=' '.join(str(d['fabric'][k]) for k in ('switches','cas','links'))"
}
speeds() {
  jget "$TMP/out" "=' '.join('%s=%s' % kv for kv in sorted(d['link_types'].items(), key=lambda kv: int(kv[0][2:-1])))"
}
# the topology.input messages of `check`, one per line
notes() {
  "$FL" check --format json "$E/$1" >"$TMP/check.json" 2>/dev/null
  jget "$TMP/check.json" "='\n'.join(f['message'].split(': ',1)[1] for f in d['findings'] if f['rule']=='topology.input')"
}

# ---- LabConnectionGraph -------------------------------------------------------
expect_eq "$(counts $LAB)" "3 1 34" "lab graph: 3 switches, 1 server, 34 cables"
expect_eq "$(speeds)" "1x40G=34" "lab graph: BandWidth 40000 Mb/s"
expect_eq "$(jget "$TMP/out" "=d['inputs'][0]['format']")" "sonic-lab-graph" "lab graph detected"
expect_eq "$(notes $LAB)" "" "lab graph: nothing skipped (console/BMC/power sections are not data cabling)"
# port names left-padded with spaces (25 of 32 links) match unpadded ones
expect_eq "$(counts $SLX)" "2 1 32" "slx: 31 DUT-fanout cables + 1 server cable"
expect_eq "$(speeds)" "1x40G=1 1x100G=31" "slx speeds"
expect_eq "$(notes $SLX)" "2 declared device(s) have no physical link; not loaded" "slx: the two unlinked devices"
# the Nokia lab: 1,324 links of which 840 join a port to itself; 2 devices
# declared twice; 30 ports used by two links (a topology error, as planned)
expect_eq "$(counts $NOKIA)" "64 11 484" "nokia: 1324 - 840 self links"
expect_eq "$(notes $NOKIA)" "2 device declaration(s) repeat a name already declared (first: ixr-vdk-board8, lines 125 and 129); the first declaration is used
73 declared device(s) have no physical link; not loaded
840 link(s) that join a port to itself skipped" "nokia notes"
expect_eq "$(jget "$TMP/check.json" "=sum(1 for f in d['findings'] if f['rule']=='topology.port-connected-twice')")" 30 "nokia: 30 ports with two cables"
expect_eq "$(jget "$TMP/check.json" "=[int(f['message'].split(':')[1]) for f in d['findings'] if f['rule']=='topology.input']")" "[129, 5, 640]" "note lines"

# ---- minigraph --------------------------------------------------------------------
expect_eq "$(counts $MINI)" "2 0 1" "simple minigraph: one DeviceInterfaceLink"
expect_eq "$(speeds)" "1x1G=1" "simple minigraph: Bandwidth 1000 as planned"
expect_eq "$(jget "$TMP/out" "=d['inputs'][0]['format']")" "sonic-minigraph" "minigraph detected"
expect_eq "$(notes $MINI)" "2 link(s) that are not physical cables skipped (first: DeviceMgmtLink)
3 declared device(s) have no physical link; not loaded" "simple minigraph notes"
expect_eq "$(counts $LT2)" "89 0 88" "lt2: 88 peers, breakout sub-ports"
expect_eq "$(speeds)" "1x400G=64 1x800G=24" "lt2 speeds"
expect_eq "$(counts $DUAL)" "5 56 64" "dual ToR: 8 uplinks + 56 servers"
expect_eq "$(notes $DUAL)" "57 declared device(s) have no physical link; not loaded
56 link(s) that are not physical cables skipped (first: LogicalLink)" "dual ToR: mux logical links skipped"

# ---- diff: the fleet plan against a copy with two cables crossed ---------------
sed -e 's/EndPort="Ethernet1" StartDevice="str-msn2700-01" StartPort="Ethernet0"/EndPort="X" StartDevice="str-msn2700-01" StartPort="Ethernet0"/' \
  -e 's/EndPort="Ethernet2" StartDevice="str-msn2700-01" StartPort="Ethernet4"/EndPort="Ethernet1" StartDevice="str-msn2700-01" StartPort="Ethernet4"/' \
  -e 's/EndPort="X"/EndPort="Ethernet2"/' "$E/$LAB" >"$TMP/built.xml"
expect_rc 1 "$FL" diff --format json "$E/$LAB" "$TMP/built.xml"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" "['diff.swapped']" "one crossed pair, nothing else"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split('; fix: ')[1]")" 'swap the two cable ends at "str-msn2700-01" Ethernet0 and "str-msn2700-01" Ethernet4' "the fix"

# ---- errors: file:line and what was expected -----------------------------------
sed '10s/ StartPort="Ethernet0"//' "$E/$LAB" >"$TMP/noport.xml"
expect_rc 2 "$FL" check "$TMP/noport.xml"
expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/noport.xml:10: link without StartPort; expected StartDevice, StartPort, EndDevice and EndPort" "missing end"
sed '10s/BandWidth="40000"/BandWidth="40G"/' "$E/$LAB" >"$TMP/bw.xml"
expect_rc 2 "$FL" check "$TMP/bw.xml"
expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/bw.xml:10: bandwidth \"40G\" is not a number; expected Mb/s, e.g. 100000" "bad bandwidth"
printf '<LabConnectionGraph><Devices/></LabConnectionGraph>\n' >"$TMP/empty.xml"
expect_rc 2 "$FL" check "$TMP/empty.xml"
expect_grep "$TMP/err" "empty.xml: no link: expected <DeviceInterfaceLink> elements"

# ---- the format names come from the registry -------------------------------------
expect_rc 0 "$FL" check --input-format list
expect_grep "$TMP/out" '^auto, .*sonic-lab-graph, sonic-minigraph, .*ibnetdiscover, '
expect_rc 2 "$FL" check --input-format sonic "$E/$LAB"
expect_grep "$TMP/err" "^fabriclint: --input-format: unknown format 'sonic'; expected auto, .*sonic-minigraph"
expect_rc 0 "$FL" info --input-format sonic-lab-graph "$E/$LAB"

# A lab graph is a fleet of separate testbeds: its islands are by design
# (info, evidence fleet), real-corpus class F15; the same cabling as a DOT
# plan carries no such mark and its islands are errors again
expect_rc 0 "$FL" check --format json --rules topology.disconnected "$E/$NOKIA"
expect_eq "$(jget "$TMP/out" "=sorted({(f['severity'], f['evidence'].get('fleet')) for f in d['findings']})")" "[('info', 'lab-graph')]" "lab graph: islands are info"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 11 "lab graph: eleven testbeds beside the largest"
"$FL" convert "$E/$NOKIA" -o "$TMP/nokia.dot" --format dot 2>/dev/null
expect_rc 1 "$FL" check --format json --rules topology.disconnected "$TMP/nokia.dot"
expect_eq "$(jget "$TMP/out" "=sorted({f['severity'] for f in d['findings']}), len(d['findings'])")" "(['error'], 11)" "the same cabling as DOT: errors"
finish
