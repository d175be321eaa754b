# SPDX-License-Identifier: MIT
"""Independent re-verification of a deadlock.credit-loop witness.

Reads fabriclint's JSON report and OpenSM's opensm-lfts.dump (parsed here
with Python, sharing no code with fabriclint) and checks that every hop of
every reported cycle is a real dependency: the hop's switch forwards the
hop's DLID out of the hop's port, and the next switch forwards the same DLID
out of the next hop's port. Exit 0 when all cycles verify.
"""
import json
import re
import sys

report, lfts = sys.argv[1], sys.argv[2]
lft = {}
name = None
for line in open(lfts):
    m = re.match(r"Unicast lids \[.*\] of switch .* \('(.*)'\):", line)
    if m:
        name = m.group(1)
        lft[name] = {}
        continue
    m = re.match(r"0x([0-9a-f]+) (\d+)", line)
    if m and name is not None:
        lft[name][int(m.group(1), 16)] = int(m.group(2))

loops = [f for f in json.load(open(report))["findings"]
         if f["rule"] == "deadlock.credit-loop"]
if not loops:
    sys.exit("no credit-loop finding to verify")
for f in loops:
    cyc = f["evidence"]["cycle"]
    for k, hop in enumerate(cyc):
        nxt = cyc[(k + 1) % len(cyc)]
        dlid = hop["dlid"]
        assert hop["to"] == nxt["from"], (hop, nxt)
        assert lft[hop["from"]][dlid] == hop["from_port"], (hop, "first turn")
        assert lft[nxt["from"]][dlid] == nxt["from_port"], (hop, nxt, "second turn")
print("verified %d cycle(s), %s hops" % (len(loops), [len(f["evidence"]["cycle"]) for f in loops]))
