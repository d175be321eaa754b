#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/cases_rest.sh — issue 12, the last real-world cases with an
# expected verdict in their README (files in tests/data/cases/, see
# PROVENANCE.md there):
#   c03  static-routing collision: dmodk LFTs clean; the collision LFTs give
#        one port-imbalance on leaf-0 and link load 2 under a shift pattern;
#   n07  ibsim tutorial: ibnetdiscover.out (vendid=0x0 devid=0x0) loads clean;
#        the ibsim console Dump output is refused (exit 2, file:line), never
#        loaded as a fabric without links;
#   n02  iblinkinfo --switches-only -l excerpt: loaded; the 1X link and the
#        Down/Polling port reported;
#   c06  NCCL topology XML and nvidia-smi topo -m: host profiles, which alone
#        describe no fabric (exit 2; on a fabric: host_profile.sh).
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$src/tests/data/cases

rules() { jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))"; }
# field RULE KEY — evidence KEY of the one finding of RULE
field() { jget "$TMP/out" "=[f['evidence']['$2'] for f in d['findings'] if f['rule']=='$1']"; }
msg() { jget "$TMP/out" "=' | '.join(f['message'] for f in d['findings'] if f['rule']=='$1')"; }

# ---- c03: NVIDIA/nccl#325, 2 leaves x 4 hosts, 4 spines ---------------------
c=$C/c03-nccl325-static-routing-collision
shift_load() { # LFTS — ecmp-balance with the link-load rule, shift pattern only
  expect_rc 0 "$FL" check --format json --rules ecmp-balance \
    --param ecmp-balance.patterns=shift "$c/topo.ibnetdiscover" "$c/$1"
}
expect_rc 0 "$FL" check --format json "$c/topo.ibnetdiscover" "$c/opensm-lfts-dmodk.dump"
expect_eq "$(rules)" "" "c03 dmodk: clean"
shift_load opensm-lfts-dmodk.dump
expect_eq "$(rules)" "ecmp-balance.link-load ecmp-balance.summary" "c03 dmodk: no port-imbalance"
expect_eq "$(field ecmp-balance.link-load max_link_load)" "[1]" "c03 dmodk: shift link load 1"
expect_eq "$(field ecmp-balance.link-load ebb)" "[1]" "c03 dmodk: shift eBB 1"

expect_rc 0 "$FL" check --format json "$c/topo.ibnetdiscover" "$c/opensm-lfts-collision.dump"
expect_eq "$(rules)" "ecmp-balance.port-imbalance" "c03 collision: one finding"
expect_eq "$(msg ecmp-balance.port-imbalance)" 'switch "leaf-0" routes unevenly over its 4 up ports: port 5 carries 2 destination LIDs, port 6 only 0 (mean 1.0, CV 0.707; tolerance 1)' "c03 collision: port-imbalance on leaf-0"
expect_eq "$(field ecmp-balance.port-imbalance dlids_per_port)" "[{'5': 2, '6': 0, '7': 1, '8': 1}]" "c03 collision: DLIDs per uplink"
shift_load opensm-lfts-collision.dump
expect_eq "$(field ecmp-balance.link-load max_link_load)" "[2]" "c03 collision: shift link load 2"
expect_eq "$(field ecmp-balance.link-load ebb)" "[0.875]" "c03 collision: shift eBB 0.875"
expect_eq "$(jget "$TMP/out" "=[(h['from'], h['from_port'], h['to'], h['max_load']) for f in d['findings'] if f['rule']=='ecmp-balance.link-load' for h in f['evidence']['hottest_links'][:2]]")" \
  "[('leaf-0', 5, 'spine-0', 2), ('spine-0', 2, 'leaf-1', 2)]" "c03 collision: gpu04+gpu05 share leaf-0 port 5"

# ---- n07: ibsim tutorial fabric, real captures (make.sh) ---------------------
n=$C/n07-ibsim-tutorial-dump-zero-devid
fab() { jget "$TMP/out" "=(d['fabric']['switches'], d['fabric']['cas'], d['fabric']['links'])"; }
expect_rc 0 "$FL" check --format json "$n/ibnetdiscover.out"
expect_eq "$(rules)" "" "n07 ibnetdiscover.out: clean"
expect_rc 0 "$FL" info --format json "$n/ibnetdiscover.out"
expect_eq "$(fab)" "(2, 2, 4)" "n07 ibnetdiscover.out: 2 switches, 2 CAs, 4 cables"
expect_rc 0 "$FL" info --format json "$n/tutorial.net"
expect_eq "$(fab)" "(2, 2, 4)" "n07 net file: the same fabric"
console="ibsim console output, not a net file: this is the text of the ibsim console's Dump command, whose port lines (\"GUID [port] ...\") a net file does not have; give the net file ibsim was started with, or ibnetdiscover output of the simulated fabric"
expect_rc 2 "$FL" check "$n/ibsim-console-dump.txt"
expect_eq "$(cat "$TMP/out")" "" "n07 console dump: no report"
expect_eq "$(head -1 "$TMP/err")" "fabriclint: $n/ibsim-console-dump.txt:1:1: $console" "n07 console dump: refused at its title"
# without the "# Net status" title: refused at the first port line
sed 1d "$n/ibsim-console-dump.txt" >"$TMP/notitle.txt"
first=$(grep -n $'^[0-9a-f]*\t\\[' "$TMP/notitle.txt" | head -1 | cut -d: -f1)
expect_eq "$first" 5 "n07: first console port line of the untitled dump"
expect_rc 2 "$FL" check "$TMP/notitle.txt"
expect_eq "$(head -1 "$TMP/err")" "fabriclint: $TMP/notitle.txt:5:1: $console" "n07 untitled dump: refused at line 5"
# one console port line pasted into a real net file's record: refused there
sed '3a 200000\t[5]\t\t  4x  2.5G Down/Polling' "$n/tutorial.net" >"$TMP/pasted.net"
expect_rc 2 "$FL" check "$TMP/pasted.net"
expect_eq "$(head -1 "$TMP/err")" "fabriclint: $TMP/pasted.net:4:1: $console" "n07 pasted line: refused at line 4"
expect_rc 2 "$FL" info "$n/ibsim-console-dump.txt"

# ---- n02: iblinkinfo --switches-only -l -------------------------------------
# An excerpt: the lines of two leaves. Loaded (docs/formats/iblinkinfo.md):
# the leaves and lab-spine01 (seen on two ports) are switches; the far ends
# seen on one port only are CAs, lab-spine02 among them (the excerpt does
# not show its own lines, and -l prints no node type). The 1X link with its
# "Could be 4X" hint and the Down/Polling port are reported.
f=$C/n02-iblinkinfo-output/iblinkinfo-l.out
expect_rc 0 "$FL" info --format json "$f"
expect_eq "$(jget "$TMP/out" "=(d['fabric'], d['link_types'], d['inputs'][0]['format'])")" \
  "({'switches': 3, 'cas': 5, 'routers': 0, 'links': 7}, {'1xSDR': 1, '4xSDR': 6}, 'iblinkinfo')" "n02: counts"
expect_rc 0 "$FL" check --format json --rules 'topology.*' "$f"
expect_eq "$(jget "$TMP/out" "=sorted((f['rule'], f['severity']) for f in d['findings'])")" \
  "[('topology.below-capability', 'warning'), ('topology.degraded-link', 'warning'), ('topology.input', 'info'), ('topology.port-down', 'info')]" \
  "n02: topology findings"
expect_eq "$(jget "$TMP/out" "=[(f['ports'], f['evidence']) for f in d['findings'] if f['rule'] == 'topology.below-capability']")" \
  "[([{'node': 'lab-leaf-r1', 'port': 34}, {'node': 'lab-spine02', 'port': 1}], {'could_be_width': '4x', 'seen': '1xSDR', 'seen_gbps': 2.5, 'supported': '4xSDR'})]" \
  "n02: the 1X link, could be 4X"
expect_eq "$(jget "$TMP/out" "=[(f['ports'], f['evidence'], f['location']['line']) for f in d['findings'] if f['rule'] == 'topology.port-down']")" \
  "[([{'node': 'lab-leaf-r2', 'port': 34}], {'physical_state': 'Polling', 'port_state': 'Down'}, 8)]" \
  "n02: lab-leaf-r2 port 34 Down/Polling"
{ printf '# iblinkinfo --switches-only -l\nsim> \n'; cat "$f"; } >"$TMP/titled.out"
expect_rc 0 "$FL" check --format json --rules topology.input "$TMP/titled.out"
expect_eq "$(jget "$TMP/out" "=sorted(f['message'] for f in d['findings'])")" \
  "['$TMP/titled.out:1: 2 line(s) that are not iblinkinfo output were skipped (the first is line 1)', '$TMP/titled.out:3: the capture lists the ports of switches only (iblinkinfo --switches-only or --cas-only): 6 node(s) are known only as the far end of their cables, which are listed from one end']" \
  "n02 with a title and a prompt: two lines skipped, said"

# ---- c06: NVIDIA/nccl#820, one host's PCIe view -----------------------------
d=$C/c06-nccl820-gpu-nic-affinity
# host profiles (issue 16): read, but alone they describe no fabric; on one
# they give the GPU<->NIC findings (tests/cli/host_profile.sh)
for f in nccl-topo.xml:nccl-topo nvidia-smi-topo-m.txt:nvidia-smi-topo; do
  expect_rc 2 "$FL" check "$d/${f%%:*}"
  expect_eq "$(cat "$TMP/err")" "fabriclint: no topology among the inputs: routing and attribute files (${f#*:}, ...) describe a fabric given by an ibnetdiscover dump, a design, an opensm-subnet.lst or LLDP captures" "c06 ${f%%:*} alone"
done
# an XML <system> without NCCL's <cpu> keeps the generic message
printf '<system version="1"/>\n' >"$TMP/system.xml"
expect_rc 2 "$FL" check "$TMP/system.xml"
expect_grep "$TMP/err" '^fabriclint: .*system.xml: XML root element <system> is not a format fabriclint reads'

finish
