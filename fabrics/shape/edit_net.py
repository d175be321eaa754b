#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fabrics/shape/edit_net.py — add production-like extras to an ibsim net file.

Reads an ibsim net file written by `fabriclint gen ... --format ibsim` and
writes a copy with the equipment real fat trees carry besides compute nodes
(issue 12, classes 3-4), so the dumps made from it by ibsim + OpenSM +
ibnetdiscover (fabrics/shape/regen.sh) are real tool output:

  service=SWITCH:HOST[,SWITCH:HOST...]  a one-port "HOST mlx5_0" HCA cabled to
                                         a new port of SWITCH (UFM, storage,
                                         login hosts on core switches)
  mgmt=NAME:UP1,UP2:HOSTS                a new 8-port leaf NAME with HOSTS
                                         one-port HCAs "mgmt-NN mlx5_0" on
                                         ports 1.. and two uplinks, to new
                                         ports of UP1 and UP2
  sharp                                  a SHARP Aggregation Node (devid
                                         0xcf09, "Mellanox Technologies
                                         Aggregation Node") on a new port of
                                         every switch, as on Quantum switches

Usage: edit_net.py IN.net OUT.net [service=...] [mgmt=...] [sharp]
Both ends of every new cable are written; GUIDs are new and unique.
"""
import re
import sys


def parse(text):
    """Blocks separated by blank lines; returns list of line lists."""
    blocks, cur = [], []
    for line in text.splitlines():
        if line.strip() == "":
            if cur:
                blocks.append(cur)
                cur = []
        else:
            cur.append(line)
    if cur:
        blocks.append(cur)
    return blocks


HDR = re.compile(r'^(Switch|Ca|Hca)\t(\d+) "([^"]+)"')


class Net:
    def __init__(self, blocks):
        self.blocks = blocks
        self.sw = {}
        for b in blocks:
            for i, line in enumerate(b):
                m = HDR.match(line)
                if m and m.group(1) == "Switch":
                    self.sw[m.group(3)] = (b, i)
        self.guid = 0x2c903ff00000000

    def next_guid(self):
        self.guid += 0x100  # ibsim derives port GUIDs from it
        return self.guid

    def add_port(self, switch, far, far_port):
        """New port on @switch cabled to far[far_port]; returns its number."""
        b, i = self.sw[switch]
        m = HDR.match(b[i])
        n = int(m.group(2)) + 1
        b[i] = b[i].replace("Switch\t%s " % m.group(2), "Switch\t%d " % n, 1)
        b.append('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xHDR' % (n, far, far_port, far))
        return n

    def add_ca(self, name, links, devid="0x101b", desc=None):
        g = self.next_guid()
        b = ["vendid=0x2c9", "devid=%s" % devid, "sysimgguid=0x%x" % g,
             "caguid=0x%x" % g,
             'Ca\t%d "%s"\t\t# "%s"' % (len(links), name, desc or name)]
        for k, (sw, port) in enumerate(links, 1):
            b.append('[%d]\t"%s"[%d]\t\t# lid 0 lmc 0 "%s" lid 0 4xHDR'
                     % (k, sw, port, sw))
        self.blocks.append(b)

    def add_switch(self, name, nports):
        g = self.next_guid()
        b = ["vendid=0x2c9", "devid=0xd2f0", "sysimgguid=0x%x" % g,
             "switchguid=0x%x" % g,
             'Switch\t%d "%s"\t\t# "%s"' % (nports, name, name)]
        self.blocks.append(b)
        self.sw[name] = (b, len(b) - 1)
        return b

    def text(self):
        return "\n\n".join("\n".join(b) for b in self.blocks) + "\n"


def service(net, spec):
    for item in spec.split(","):
        sw, host = item.split(":")
        ca = "%s mlx5_0" % host
        port = net.add_port(sw, ca, 1)
        net.add_ca(ca, [(sw, port)])


def mgmt(net, spec):
    name, ups, hosts = spec.split(":")
    b = net.add_switch(name, 8)
    for h in range(1, int(hosts) + 1):
        ca = "mgmt-%02d mlx5_0" % h
        b.append('[%d]\t"%s"[1]\t\t# "%s" lid 0 4xHDR' % (h, ca, ca))
        net.add_ca(ca, [(name, h)])
    for k, up in enumerate(ups.split(",")):
        local = 8 - k
        port = net.add_port(up, name, local)
        b.append('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xHDR' % (local, up, port, up))


def sharp(net):
    for k, sw in enumerate(sorted(net.sw), 1):
        an = "sharp-an-%03d" % k
        port = net.add_port(sw, an, 1)
        net.add_ca(an, [(sw, port)], devid="0xcf09",
                   desc="Mellanox Technologies Aggregation Node")


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as f:
        text = f.read()
    header = [l for l in text.splitlines() if l.startswith("#")]
    net = Net(parse("\n".join(l for l in text.splitlines()
                              if not l.startswith("#"))))
    for arg in argv[3:]:
        if arg.startswith("service="):
            service(net, arg[8:])
        elif arg.startswith("mgmt="):
            mgmt(net, arg[5:])
        elif arg == "sharp":
            sharp(net)
        else:
            sys.stderr.write("edit_net.py: unknown edit %r\n" % arg)
            return 2
    # ibsim table sizes: recompute the "Simulate with" line generously
    nodes = sum(1 for b in net.blocks for l in b if HDR.match(l))
    sws = len(net.sw)
    ports = sum(int(HDR.match(l).group(2)) + 1
                for b in net.blocks for l in b if HDR.match(l))
    out = [l for l in header if not l.startswith("# Simulate with:")]
    out.append("# Edited by fabrics/shape/edit_net.py %s" % " ".join(argv[3:]))
    out.append("# Simulate with: ibsim -s -N %d -S %d -P %d FILE"
               % (nodes + 8, sws + 4, ports + 64))
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n\n" + net.text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
