#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fabrics/director/make_net.py — write the ibsim net file of the director
demo fabric (fabrics/director/README.md) to standard output.

    make_net.py [--miswire]

The fabric: one director chassis "ufm-director" built like an NVIDIA
MCS8500 (Quantum ASICs, node descriptions "MF0;ufm-director:MCS8500/L01/U1"
for leaf-board ASICs and ".../S01/U1" for spine ASICs, one system image GUID
for all of them), cut down to 2 leaf blades x 2 ASICs and 2 spine ASICs;
4 1U leaf switches "MF0;leaf-0N:MQM8700/U1"; 8 hosts with 2 single-port HCAs
each ("host-01 ibp11s0f0", "host-01 ibp21s0f0").

Port numbering follows the real chassis (notes in docs/formats/ufm-ndt.md):
a leaf-board ASIC's ports 1-20 are front-panel ports, 21-40 go to the spine
ASICs (port 20+s to spine S0s); spine S0s port b + 20*(u-1) goes to leaf
blade b ASIC u.

Cabling: leaf-0L port 20+j -> director leaf ASIC j (L01/U1, L01/U2, L02/U1,
L02/U2) front-panel port L; host h's HCAs on leaf-0((h+1)/2) ports
1..4. --miswire moves one cable: leaf-03 port 22 lands on L02/U1 port 5
("Blade 02_Port 1/5") instead of L01/U2 port 3 ("Blade 01_Port 2/3").
"""
import sys

MISWIRE = "--miswire" in sys.argv[1:]
DIR = "ufm-director"
ASICS = [(1, 1), (1, 2), (2, 1), (2, 2)]  # (blade, asic) of the leaf boards
SPINES = [1, 2]
LEAVES = [1, 2, 3, 4]
HOSTS = range(1, 9)
HCAS = ["ibp11s0f0", "ibp21s0f0"]

def leaf_asic_id(b, u):
    return "%s L%02d/U%d" % (DIR, b, u)

def spine_id(s):
    return "%s S%02d/U1" % (DIR, s)

def leaf_id(l):
    return "leaf-%02d" % l

def hca_id(h, k):
    return "host-%02d %s" % (h, HCAS[k])

# links: (node id, port) <-> (node id, port)
links = []
for (b, u) in ASICS:
    for s in SPINES:
        links.append(((leaf_asic_id(b, u), 20 + s), (spine_id(s), b + 20 * (u - 1))))
for l in LEAVES:
    for j, (b, u) in enumerate(ASICS, start=1):
        far = (leaf_asic_id(b, u), l)
        if MISWIRE and l == 3 and (b, u) == (1, 2):
            far = (leaf_asic_id(2, 1), 5)
        links.append(((leaf_id(l), 20 + j), far))
for h in HOSTS:
    l = (h + 1) // 2
    for k in range(len(HCAS)):
        links.append(((leaf_id(l), ((h - 1) % 2) * 2 + k + 1), (hca_id(h, k), 1)))

ports = {}
for a, z in links:
    ports.setdefault(a[0], {})[a[1]] = z
    ports.setdefault(z[0], {})[z[1]] = a

desc = {}
for (b, u) in ASICS:
    desc[leaf_asic_id(b, u)] = "MF0;%s:MCS8500/L%02d/U%d" % (DIR, b, u)
for s in SPINES:
    desc[spine_id(s)] = "MF0;%s:MCS8500/S%02d/U1" % (DIR, s)
for l in LEAVES:
    desc[leaf_id(l)] = "MF0;%s:MQM8700/U1" % leaf_id(l)

out = ["# ibsim net file of the director demo fabric (fabrics/director/make_net.py%s)." % (" --miswire" if MISWIRE else ""),
       "# One MCS8500-style director (2 leaf blades x 2 ASICs, 2 spine ASICs, one",
       "# system image GUID), 4 MQM8700 leaves, 8 hosts x 2 HCAs.", ""]

def switch(node, guid, sysimg):
    out.extend(["vendid=0x2c9", "devid=0xd2f0", "sysimgguid=0x%x" % sysimg,
                "switchguid=0x%x" % guid,
                'Switch\t41 "%s"\t\t# "%s"' % (node, desc[node])])
    for p in sorted(ports[node]):
        far = ports[node][p]
        fd = desc.get(far[0], far[0])
        out.append('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xHDR' % (p, far[0], far[1], fd))
    out.append("")

chassis_guid = 0x0c42a10300e00000
n = 1
for (b, u) in ASICS:
    switch(leaf_asic_id(b, u), chassis_guid + n, chassis_guid)
    n += 1
for s in SPINES:
    switch(spine_id(s), chassis_guid + n, chassis_guid)
    n += 1
for l in LEAVES:
    g = 0x0c42a10300f00000 + l
    switch(leaf_id(l), g, g)
g = 0x0c42a10300a00000
for h in HOSTS:
    for k in range(len(HCAS)):
        node = hca_id(h, k)
        g += 0x10
        out.extend(["vendid=0x2c9", "devid=0x101b", "sysimgguid=0x%x" % g,
                    "caguid=0x%x" % g, 'Ca\t1 "%s"\t\t# "%s"' % (node, node)])
        far = ports[node][1]
        out.append('[1]\t"%s"[%d]\t\t# "%s" lid 0 4xHDR' % (far[0], far[1], desc[far[0]]))
        out.append("")
sys.stdout.write("\n".join(out))
