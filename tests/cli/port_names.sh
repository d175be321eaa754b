#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/port_names.sh — findings name a port as the input names it
# (issue 30, class F14 of docs/real-fabrics.md): `Ethernet1/7`, never a bare
# index (`port 1`) the user cannot find on the switch; unlabelled ports
# (InfiniBand captures) keep `port N`. Inputs written by hand.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$src/tests/data/cases/names
msg() { jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == '$1'][0]"; }

expect_rc 1 "$FL" check --format json --rules topology.port-connected-twice "$d/twice.xml"
expect_eq "$(msg topology.port-connected-twice)" \
  'switch "spine1" Ethernet1/7 is connected 2 times (to "leaf1" Ethernet1/49 and "leaf2" Ethernet1/50); a port holds one cable' \
  "connected twice: labels"
expect_rc 0 "$FL" check --format json --rules topology.self-loop "$d/loopback.xml"
expect_eq "$(msg topology.self-loop)" \
  'cable loops back into the same switch: "spine1" Ethernet1/1 <-> Ethernet1/2' "loopback: labels"

# unlabelled ports (an InfiniBand design from `fabriclint gen`) keep numbers
"$FL" gen ring --switches 3 -o "$TMP/ring.xml" || fail "gen ring"
python3 - "$TMP/ring.xml" "$TMP/ring2.xml" <<'PY' || fail "ring edit"
import re, sys
s = open(sys.argv[1]).read()
# a second cable on port 1 of sw-x00: to a new CA
i = s.index('</fabric>')
s = s[:i] + '''  <node kind="ca" name="extra" guid="0x0002c903ffff0001" ports="1" desc="extra mlx5_0"/>
  <link a="sw-x00" a-port="1" b="extra" b-port="1"/>
''' + s[i:]
open(sys.argv[2], 'w').write(s)
PY
expect_rc 1 "$FL" check --format json --rules topology.port-connected-twice "$TMP/ring2.xml"
expect_grep "$TMP/out" 'switch \\"sw-x00\\" port 1 is connected 2 times'
finish
