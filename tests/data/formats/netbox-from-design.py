#!/usr/bin/env python3
"""Write the NetBox cable CSV fixtures of tests/cli/formats_netbox.sh from
fabrics/diff/lldp-design.xml (the plan of the LLDP demo fabric), in the three
header dialects NetBox produces (docs/formats/netbox-cables.md): the cable
table export of NetBox 2.x-3.2 and of 3.3+ (Device A/B columns added), and the
bulk-import CSV. Port labels and cable ids come from the design; each file
also carries rows a real export holds that are not fabric cables (3.3+: a
circuit termination, a breakout cable; import: a console cable). Hand-made following
NetBox's documented columns: no NetBox runs here.
Usage: netbox-from-design.py DESIGN.xml OUTDIR"""
import csv, sys, xml.etree.ElementTree as ET

ns = {"d": "urn:fabriclint:design:1"}
root = ET.parse(sys.argv[1]).getroot()
label = {}
for n in root.findall("d:node", ns):
    for p in n.findall("d:port", ns):
        label[(n.get("name"), p.get("num"))] = p.get("label")
links = [(l.get("a"), label[(l.get("a"), l.get("a-port"))], l.get("b"),
          label[(l.get("b"), l.get("b-port"))], l.get("cable"))
         for l in root.findall("d:link", ns)]
out = sys.argv[2]

def write(name, header, rows):
    with open(f"{out}/{name}", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")  # Django's CSV export ends rows with CRLF
        w.writerow(header)
        w.writerows(rows)

# NetBox 2.x-3.2: ID,Label,Side A,Termination A,Side B,Termination B,Status,Type,...
rows = [[i + 1, c, a, pa, b, pb, "Connected", "CAT6", "", "3 Meters", ""]
        for i, (a, pa, b, pb, c) in enumerate(links)]
write("netbox-3.2-export.csv",
      ["ID", "Label", "Side A", "Termination A", "Side B", "Termination B", "Status", "Type", "Tenant", "Length", "Color"], rows)

# NetBox 3.3+: Termination A,Termination B,Device A,Device B (Device A/B added to the view)
rows = [[i + 1, c, pa, pb, a, b, "Planned" if i == 0 else "Connected", "DAC (Passive)", "3 Meters",
         "first cable\nof the pod" if i == 0 else ""]
        for i, (a, pa, b, pb, c) in enumerate(links)]
rows.append([len(rows) + 1, "WAN-1", "Termination A", "Eth60", "", "spine-01", "Connected", "SMF", "", ""])
rows.append([len(rows) + 1, "BRK-1", "Eth62", "eth2,eth3", "spine-02", "host-07", "Connected", "DAC (Passive)", "", ""])
write("netbox-4-export.csv",
      ["ID", "Label", "Termination A", "Termination B", "Device A", "Device B", "Status", "Type", "Length", "Comments"], rows)

# bulk import (CableImportForm)
rows = [[a, "dcim.interface", pa, b, "dcim.interface", pb, "cat6", "connected", c, "", "3", "m"]
        for (a, pa, b, pb, c) in links]
rows.append(["host-01", "dcim.consoleport", "console", "leaf-01", "dcim.consoleserverport", "ttyS1", "cat6", "connected", "CON-1", "", "", ""])
write("netbox-import.csv",
      ["side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
       "type", "status", "label", "color", "length", "length_unit"], rows)
