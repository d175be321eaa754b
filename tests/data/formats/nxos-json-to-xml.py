#!/usr/bin/env python3
"""Render NX-OS `show lldp neighbors detail | json` (or NX-API JSON) in the
element layout of `show lldp neighbors detail | xml`: NX-API builds its JSON
from that XML, so the keys are the element names, in the same order. The
envelope (nf:rpc-reply / nf:data / show / lldp / neighbors /
__XML__OPT_Cmd_lldp_show_neighbors_interface /
__XML__OPT_Cmd_lldp_show_neighbors_detail___readonly__ / __readonly__) is
the path a real consumer selects (tail-f's cisco-nx NED stylesheet).
Usage: nxos-json-to-xml.py IN.json > OUT.xml"""
import json, sys
from xml.sax.saxutils import escape

d = json.load(open(sys.argv[1]))
body = d["ins_api"]["outputs"]["output"]["body"] if "ins_api" in d else d
rows = body["TABLE_nbor_detail"]["ROW_nbor_detail"]
rows = rows if isinstance(rows, list) else [rows]
o = ['<?xml version="1.0" encoding="ISO-8859-1"?>',
     '<nf:rpc-reply xmlns:nf="urn:ietf:params:xml:ns:netconf:base:1.0" xmlns="http://www.cisco.com/nxos:1.0:lldp">',
     ' <nf:data>', '  <show>', '   <lldp>', '    <neighbors>',
     '     <__XML__OPT_Cmd_lldp_show_neighbors_interface>',
     '      <__XML__OPT_Cmd_lldp_show_neighbors_detail___readonly__>',
     '       <__readonly__>', '        <neigh_hdr>neigh_hdr</neigh_hdr>',
     '        <TABLE_nbor_detail>']
for r in rows:
    o.append('         <ROW_nbor_detail>')
    o += [f'          <{k}>{escape(str(v))}</{k}>' for k, v in r.items()]
    o.append('         </ROW_nbor_detail>')
o += ['        </TABLE_nbor_detail>', f'        <neigh_count>{body["neigh_count"]}</neigh_count>',
      '       </__readonly__>', '      </__XML__OPT_Cmd_lldp_show_neighbors_detail___readonly__>',
      '     </__XML__OPT_Cmd_lldp_show_neighbors_interface>', '    </neighbors>', '   </lldp>',
      '  </show>', ' </nf:data>', '</nf:rpc-reply>', ']]>]]>']
print("\n".join(o))
