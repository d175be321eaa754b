#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz/seeds.sh — build the seed corpus of every harness from the real
# inputs in the repository (fabrics/, tests/fixtures/, tests/fuzz/seeds/).
#
# Usage: tests/fuzz/seeds.sh OUTDIR [--external DIR]
#   Writes OUTDIR/<harness>/<seed> (OUTDIR is emptied first). A seed is the
#   selector byte (fuzz.h) when the harness has one, then the input file(s)
#   joined by the split line `#--fabriclint-fuzz-split--`. Seeds named
#   bad-* are inputs the loader must refuse; all others must be accepted
#   (ctest fuzz.seeds.<harness> replays them with `replay --check`).
#   --external DIR also adds the public samples of DIR (../shared/external
#   beside the repository; not in a user's clone) for fuzzing runs; they
#   are named ext-* and are not part of the checked corpus.
# Seeds larger than 256 KiB are left out (they slow the fuzzer down and add
# no format feature the smaller ones lack).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: seeds.sh OUTDIR [--external DIR]}
ext=""
[ "${2:-}" = "--external" ] && ext=${3:?--external needs a folder}
MAX=262144
FX=$src/tests/fixtures
SEEDS=$src/tests/fuzz/seeds
SPLIT='#--fabriclint-fuzz-split--'

rm -rf "$out"
mkdir -p "$out"

# seed HARNESS NAME SELECTOR FILE... — one seed; SELECTOR "" for none. The
# seed is only listed here (SEEDS_LIST) and write_seeds writes them all at
# the end in one process: written here, a seed cost a stat, a cat per file
# and a tail per file (1,160 processes for the corpus, 10 s of CPU, in the
# fixture every fuzz.seeds.* test waits for, in every build).
SEEDS_LIST=()
seed() {
  local f
  for f in "${@:4}"; do
    [ -r "$f" ] || { echo "seeds.sh: $f missing" >&2; exit 2; }
  done
  SEEDS_LIST+=("$1" "$2" "$3" "$(($# - 3))" "${@:4}")
}
# write_seeds — OUTDIR/<harness>/<name>: the selector, then the files joined
# by the split line, which starts a line of its own (a newline is added
# after a file of several that does not end in one); a seed whose files
# hold more than MAX bytes in all is left out. Debian's python3 when it is
# there (no version manager's shim to start).
write_seeds() {
  local py=python3
  [ -x /usr/bin/python3 ] && py=/usr/bin/python3
  printf '%s\0' "${SEEDS_LIST[@]}" | "$py" -c '
import os, sys
out, cap, split = os.fsencode(sys.argv[1]), int(sys.argv[2]), os.fsencode(sys.argv[3])
f = sys.stdin.buffer.read().split(b"\0")[:-1]
i = 0
while i < len(f):
    h, name, sel, n = f[i], f[i + 1], f[i + 2], int(f[i + 3])
    files = f[i + 4:i + 4 + n]
    i += 4 + n
    data = []
    for p in files:
        with open(p, "rb") as fh:
            data.append(fh.read())
    if sum(map(len, data)) > cap:
        continue
    os.makedirs(os.path.join(out, h), exist_ok=True)
    parts = [sel]
    for k, d in enumerate(data):
        if k:
            parts.append(split + b"\n")
        parts.append(d)
        # (the shell version tested $(tail -c 1 FILE), empty for a NUL too)
        if n > 1 and d[-1:] not in (b"", b"\n", b"\0"):
            parts.append(b"\n")
    with open(os.path.join(out, h, name), "wb") as fh:
        fh.write(b"".join(parts))
' "$out" "$MAX" "$SPLIT" || { echo "seeds.sh: writing the seeds failed" >&2; exit 2; }
}

# ---- ibnd: '0' ibnetdiscover (+ -g), '1' -p report, '2' ibsim net ----------
for f in "$src"/fabrics/*.ibnetdiscover "$src"/fabrics/broken/*.ibnetdiscover; do
  b=$(basename "$f" .ibnetdiscover)
  case $b in
    *.p) seed ibnd "ports-$b" 1 "$f" ;;
    truncated) seed ibnd "bad-$b" 0 "$f" ;;
    *) seed ibnd "ibnd-$b" 0 "$f" ;;
  esac
done
for f in "$src"/fabrics/*.net; do seed ibnd "net-$(basename "$f" .net)" 2 "$f"; done
for d in "$FX"/routing/*/; do
  b=$(basename "$d")
  seed ibnd "ibnd-$b" 0 "$d/topology.ibnetdiscover"
  seed ibnd "net-$b" 2 "$d/fabric.net"
done
seed ibnd net-balance 2 "$FX/routing-balance/fabric.net"
# '3' iblinkinfo: every real capture (pre-sm.iblinkinfo, all LIDs 0 in the
# default form, must be refused) and case n02
for f in "$FX"/iblinkinfo/*/*iblinkinfo*; do
  b=$(basename "$(dirname "$f")")-$(basename "$f" .iblinkinfo)
  case $b in
    clean-pre-sm) seed ibnd "bad-blink-$b" 3 "$f" ;;
    *) seed ibnd "blink-$b" 3 "$f" ;;
  esac
done
seed ibnd blink-n02 3 "$src/tests/data/cases/n02-iblinkinfo-output/iblinkinfo-l.out"

# ---- routing: '0' lfts '1' fdbs '2' sl2vl '3' path-sl '4' saquery '5' lst --
for d in "$FX"/routing/*/; do
  b=$(basename "$d")
  t=$d/topology.ibnetdiscover
  seed routing "lfts-$b" 0 "$t" "$d/opensm-lfts.dump"
  seed routing "fdbs-$b" 1 "$t" "$d/opensm.fdbs"
  seed routing "lst-$b" 5 "$d/opensm-subnet.lst"
  if [ -f "$d/opensm-sl2vl.dump" ]; then
    seed routing "sl2vl-$b" 2 "$t" "$d/opensm-sl2vl.dump"
    seed routing "pathsl-$b" 3 "$t" "$d/path-sl.psl"
    seed routing "saquery-$b" 4 "$t" "$d/path-records.saquery"
  fi
done
for e in minhop ftree; do
  seed routing "lfts-balance-$e" 0 "$FX/routing-balance/topology-$e.ibnetdiscover" \
    "$FX/routing-balance/$e-lfts.dump"
done
M=$FX/routing-loaders/minhop
for f in opensm-lfts.dump dump_fts.out dump_lfts.out ibroute-sw1.out ibroute-n-sw2.out; do
  seed routing "lfts-minhop-$f" 0 "$M/topo.ibnetdiscover" "$M/$f"
done
seed routing fdbs-minhop 1 "$M/topo.ibnetdiscover" "$M/opensm.fdbs"
seed routing lst-minhop 5 "$M/opensm-subnet.lst"
L=$FX/routing-loaders/lash-qos
for f in opensm-sl2vl.dump smpquery-sl2vl-sw.out smpquery-sl2vl-ca.out; do
  seed routing "sl2vl-lash-$f" 2 "$L/topo.ibnetdiscover" "$L/$f"
done
seed routing saquery-lash 4 "$L/topo.ibnetdiscover" "$L/saquery-p.out"

# ---- ar: topology, LFTs, .far (the 2-tier ftree tree of tests/cli/ar_*.sh) --
F=$FX/routing/fat-tree-2tier-ftree
for f in "$FX"/ar/*.far; do
  seed ar "far-$(basename "$f" .far)" "" "$F/topology.ibnetdiscover" "$F/opensm-lfts.dump" "$f"
  seed ar "far-nolft-$(basename "$f" .far)" "" "$F/topology.ibnetdiscover" "$f"
done

# ---- counters: topology, counter file(s) (tests/data/counters, make.sh) ------
C=$src/tests/data/counters
seed counters perfquery-1 0 "$C/asbuilt.ibnetdiscover" "$C/perfquery-1.txt"
seed counters perfquery-1-2 0 "$C/asbuilt.ibnetdiscover" "$C/perfquery-1.txt" "$C/perfquery-2.txt"
seed counters ibqueryerrors-1-2 1 "$C/asbuilt.ibnetdiscover" "$C/ibqueryerrors-1.txt" "$C/ibqueryerrors-2.txt"
seed counters ibqueryerrors-details 1 "$C/asbuilt.ibnetdiscover" "$C/ibqueryerrors-details.txt"
seed counters pm-2 2 "$C/asbuilt.ibnetdiscover" "$C/pm-2.pm"
seed counters prom-2 3 "$C/asbuilt.ibnetdiscover" "$C/prom-2.prom"
# ---- hostprof: topology, host profile ('0' NCCL XML, '1' nvidia-smi) -------
R=$src/fabrics/rail-su.ibnetdiscover
C6=$src/tests/data/cases/c06-nccl820-gpu-nic-affinity
X=$src/tests/data/external
seed hostprof c06-xml 0 "$R" "$C6/nccl-topo.xml"
seed hostprof c06-smi 1 "$R" "$C6/nvidia-smi-topo-m.txt"
seed hostprof asus-smi 1 "$R" "$X/luigifcruz__stelline__asus-esc8000a-e12__nvidia-smi-topo-m.txt"
seed hostprof bad-ncv4-no-host 0 "$R" "$X/NVIDIA__nccl__src__test__ncv4__topo.xml"
seed hostprof bad-ndv5-topo-input 0 "$R" "$X/NVIDIA__nccl__src__test__ndv5__ndv5-topo-new.xml"

# tests/fuzz/seeds/counters/<selector>.<name>.<ext>: written for the harness
for f in "$SEEDS"/counters/*; do
  [ -e "$f" ] || continue
  b=$(basename "$f")
  n=${b#*.}
  seed counters "${n%.*}" "${b%%.*}" "$C/asbuilt.ibnetdiscover" "$f"
done

# ---- dbcsv: topology, db_csv -------------------------------------------------
for f in "$FX"/dbcsv/*.db_csv; do
  seed dbcsv "dbcsv-$(basename "$f" .db_csv)" "" "$F/topology.ibnetdiscover" "$f"
done
# the topology role: the dump alone
seed dbcsv "dbcsv-alone-ftree-topology" "" "$FX/dbcsv/ftree-topology.db_csv"

# ---- annotations: topology, CSV/YAML side file ------------------------------
for f in "$SEEDS"/annotations/*; do
  seed annotations "$(basename "$f")" "" "$F/topology.ibnetdiscover" "$f"
done

# ---- design_xml: '0' built-in checks, '1' no_schema, '2' RelaxNG -----------
for f in "$src"/fabrics/diff/lldp-design.xml "$FX"/diff/names/design*.xml "$SEEDS"/design-xml/*.xml; do
  b=$(basename "$f" .xml)
  seed design_xml "checks-$b" 0 "$f"
  seed design_xml "lenient-$b" 1 "$f"
  seed design_xml "relaxng-$b" 2 "$f"
done

# ---- topo_ibdm ----------------------------------------------------------------
seed topo_ibdm bad-arrow "" "$FX/diff/bad-arrow.topo"
for f in "$SEEDS"/ibdm-topo/*; do seed topo_ibdm "$(basename "$f")" "" "$f"; done

# ---- ibnl: the definitions shipped in tests/data/external, one refused ----
for f in "$src"/tests/data/external/*.ibnl; do seed ibnl "$(basename "$f")" "" "$f"; done
mkdir -p "$out"
printf 'TOPSYSTEM X\nNODE SW 8 MT43132 U1\n   9 -> P1\n' >"$out/.bad-range.ibnl"
seed ibnl bad-port-range "" "$out/.bad-range.ibnl" # (removed once written)

# ---- nbr_xml: '0' lldpd, '1' Junos, '2' Cisco plan, '3'/'4' SONiC, ... -------
for f in "$src"/fabrics/diff/lldp/*.xml "$FX"/diff/names/built5/*.xml; do
  seed nbr_xml "lldpd-$(basename "$f" .xml)" 0 "$f"
done
seed nbr_xml bad-lldpd-broken 0 "$FX/diff/broken.lldp.xml"
seed nbr_xml bad-lldpd-doctype 0 "$FX/diff/doctype.lldp.xml"
seed nbr_xml bad-junos-nolocal 1 "$FX/diff/nolocal.junos.xml"
seed nbr_xml bad-cisco-count 2 "$FX/diff/bad-count.cisco.xml"
for f in "$SEEDS"/junos-xml/*; do seed nbr_xml "junos-$(basename "$f")" 1 "$f"; done
for f in "$SEEDS"/cisco-plan/*; do seed nbr_xml "cisco-$(basename "$f")" 2 "$f"; done
EXT=$src/tests/data/external
seed nbr_xml sonic-lab-slx 3 "$EXT/sonic-net__sonic-mgmt__ansible__files__lab_connection_graph_slx_t1.xml"
seed nbr_xml sonic-lab 3 "$EXT/sonic-net__sonic-mgmt__ansible__files__lab_connection_graph.xml"
seed nbr_xml sonic-minigraph 4 "$EXT/sonic-net__sonic-buildimage__src__sonic-config-engine__tests__simple-sample-graph.xml"
# '5' GraphML, '6' NX-OS LLDP, '7' NetBox cables, '8' DOT (issue #16)
FMT=$src/tests/data/formats
seed nbr_xml graphml-n2g 5 "$EXT/dmulyalin__N2G__tests__Output__should_be_test_lldp_drawing_yed_data_dict.graphml"
seed nbr_xml graphml-plan 5 "$FMT/n2g-plan.graphml"
seed nbr_xml nxos-json 6 "$EXT/NetApp__harvest__cmd__collectors__cisco__plugins__lldp__testdata__lldp.json"
seed nbr_xml nxos-nxapi 6 "$EXT/NetApp__harvest__cmd__collectors__cisco__plugins__lldp__testdata__lldp2.json"
seed nbr_xml nxos-xml 6 "$FMT/sa-tme-flexpod-9336-fx2-gg28-01.xml"
for f in "$FMT"/netbox-*.csv "$FMT"/flexpod-plan.csv; do
  seed nbr_xml "netbox-$(basename "$f" .csv)" 7 "$f"
done
seed nbr_xml dot-pod 8 "$FMT/pod-plan.dot"
seed nbr_xml bad-graphml-noport 5 "$FX/formats/noport.graphml"
seed nbr_xml bad-netbox-default-view 7 "$FX/formats/default-view.netbox.csv"

# ---- nodemap: map, then the topology it names -------------------------------
seed nodemap rail-names "" "$src/fabrics/rail-names.node-name-map" "$src/fabrics/rail-names.ibnetdiscover"
seed nodemap rail-names-alone "" "$src/fabrics/rail-names.node-name-map"

# ---- policy, baseline --------------------------------------------------------
for f in "$SEEDS"/policy/*; do seed policy "$(basename "$f")" "" "$f"; done
for f in "$SEEDS"/baseline/*; do seed baseline "$(basename "$f")" "" "$f"; done

# ---- diff: design selector, as-built selector, design, as-built --------------
# '0' design XML '1' ibnetdiscover '2' .topo '3' lldpd '4' Cisco '5' ibsim net
N=$FX/diff/names
seed diff names-leaf1 03 "$N/design5.xml" "$N/built5/leaf1.pod1.example.com.xml"
seed diff names-spine 63 "$N/design4.xml" "$N/built5/spine-p1.xml"
seed diff lldp-spine 03 "$src/fabrics/diff/lldp-design.xml" "$src/fabrics/diff/lldp/SPINE-01.xml"
seed diff ibnd-swap 11 "$src/fabrics/rail-su.ibnetdiscover" "$src/fabrics/broken/rail-swap.ibnetdiscover"
seed diff net-vs-ibnd 51 "$src/fabrics/fat-tree-2tier.net" "$src/fabrics/broken/one-sided.ibnetdiscover"
for f in "$SEEDS"/design-xml/*.xml; do
  seed diff "self-$(basename "$f" .xml)" 60 "$f" "$f"
done

# ---- pictures: view '0' tiers '1' rails '2' load '3' domains; +4: design XML;
# +8: the HTML report instead of the SVG ('8'..'?'); JUnit and SARIF always
R3=$FX/robustness-3
for v in 4 5 6 7; do
  seed pictures "flat-edge-$v" $v "$R3/svg-flat-edge-double-free.xml"
done
seed pictures dot-pod-tiers 0 "$FMT/pod-plan.dot"
seed pictures dot-pod-domains 3 "$FMT/pod-plan.dot"
seed pictures dot-fffe 0 "$R3/xml-noncharacter-fffe.dot"
seed pictures dot-cleaned 2 "$R3/names-equal-after-cleaning.dot"
seed pictures bad-dot-noport 0 "$R3/dot-parser-state-leak/c-one-line-error.dot"
seed pictures html-pod-tiers 8 "$FMT/pod-plan.dot"
seed pictures html-pod-load : "$FMT/pod-plan.dot"
seed pictures html-fffe 8 "$R3/xml-noncharacter-fffe.dot"
seed pictures name-markup-svg 0 "$SEEDS/pictures/name-markup.dot"
seed pictures name-markup-html 8 "$SEEDS/pictures/name-markup.dot"
seed pictures html-flat-edge-tiers '<' "$R3/svg-flat-edge-double-free.xml"
seed pictures html-flat-edge-domains '?' "$R3/svg-flat-edge-double-free.xml"
for f in "$SEEDS"/design-xml/*.xml; do
  seed pictures "html-$(basename "$f" .xml)" '=' "$f"
done

# ---- convert_rt: '0' DOT '1' GraphML '2' NDT '3' NetBox '4' ibnetdiscover
seed convert_rt dot-pod 0 "$FMT/pod-plan.dot"
seed convert_rt dot-port-257 0 "$R3/convert-unreadable-port-257.dot"
seed convert_rt dot-switch-0 0 "$R3/convert-unreadable-switch-0.dot"
seed convert_rt dot-duplicate 0 "$R3/dot-duplicate-cable-merged.dot"
seed convert_rt dot-cleaned 0 "$R3/names-equal-after-cleaning.dot"
seed convert_rt dot-fffe 0 "$R3/xml-noncharacter-fffe.dot"
seed convert_rt dot-fqdn 0 "$R3/fqdn-short-name-merge.dot"
seed convert_rt dot-long-names 0 "$R3/long-names-merge.dot"
seed convert_rt graphml-plan 1 "$FMT/n2g-plan.graphml"
seed convert_rt ndt-double-booked 2 "$R3/convert-ibsim-drops-double-booked-port.ndt"
seed convert_rt ndt-long-names 2 "$R3/long-names-merge.ndt"
seed convert_rt ndt-fqdn 2 "$R3/fqdn-short-name-merge.ndt"
seed convert_rt netbox-import 3 "$FMT/netbox-import.csv"
seed convert_rt netbox-roundtrip 3 "$R3/netbox-dot-roundtrip-node-lost.csv"
seed convert_rt ibnd-2tier 4 "$src/fabrics/fat-tree-2tier.ibnetdiscover"
seed convert_rt bad-dot-syntax 0 "$R3/dot-parser-state-leak/c-one-line-error.dot"

# ---- workload: '0' the reader alone, '1' also the model on a rail-su fabric
W=$SEEDS/workload
for f in "$W"/*.yaml; do
  b=$(basename "$f" .yaml)
  case $b in
    bad-*) seed workload "$b" 0 "$f" ;;
    *) seed workload "parse-$b" 0 "$f" ;;
  esac
done
for b in step-job step-zero3 step-moe step-ckpt all-ring-a2a hosts-list-ar \
  docs-placements; do
  seed workload "model-$b" 1 "$W/$b.yaml"
done
seed workload bad-ansi-shift 0 "$FX/robustness-3b/ansi-workload-shift.yaml"

# ---- nccl_tests: the nccl-tests log reader of perf --measured ---------------
for f in "$FX"/nccl-tests/*.log; do
  seed nccl_tests "$(basename "$f" .log)" "" "$f"
done
seed nccl_tests bad-a-workload "" "$W/step-job.yaml"

# ---- public samples for fuzzing runs (not checked) --------------------------
if [ -n "$ext" ] && [ -d "$ext" ]; then
  for f in "$ext"/*; do
    b=ext-$(basename "$f")
    case $f in
      *.topo) seed topo_ibdm "$b" "" "$f" ;;
      *ibnetdiscover*.out) seed ibnd "$b" 0 "$f" ;;
      *junos*.xml) seed nbr_xml "$b" 1 "$f" ;;
      *cableplan*.xml) seed nbr_xml "$b" 2 "$f" ;;
      *lab_connection_graph*.xml) seed nbr_xml "$b" 3 "$f" ;;
      *minigraph*.xml | *sample-graph.xml) seed nbr_xml "$b" 4 "$f" ;;
      *.graphml) seed nbr_xml "$b" 5 "$f" ;;
      *osm.fdbs) seed routing "$b" 1 "$f" ;;
    esac
  done
fi
write_seeds
rm -f "$out/.bad-range.ibnl"
n=$(find "$out" -type f | wc -l)
echo "seeds.sh: $n seeds in $(find "$out" -mindepth 1 -maxdepth 1 -type d | wc -l) harness folders under $out"
