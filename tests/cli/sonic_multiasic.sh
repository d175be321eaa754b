# SPDX-License-Identifier: MIT
# SONiC multi-ASIC minigraph (core/io/sonic_xml.c): chassis-internal links
# are not cables. The sample is sonic-buildimage's
# src/sonic-config-engine/tests/multi_npu_data/sample-minigraph.xml
# (Apache-2.0, commit 086b03bd, blob be3938f2): a file of the real-fabric
# corpus (tests/data/real/captures, README.md there).
. "$(dirname "$0")/lib.bash"
NPU=sonic-net__sonic-buildimage__src__sonic-config-engine__tests__multi_npu_data__sample-minigraph.xml
need_corpus $NPU
E=$FL_CORPUS

# ---- multi-ASIC minigraph: chassis-internal links are not cables --------------
# multi_npu_platform_01 (4 ASICs) lists 4 front-panel cables to two T2s and
# 16 <ChassisInternal>true links: 8 front-panel port -> ASIC port (Ethernet1/1
# -> Eth0-ASIC0, ...) and 8 backplane links between ASICs. Read as cables
# they made Ethernet1/1 "connected twice" and the ASICs a PFC cycle.
npu_check() { # FILE LABEL
  expect_rc 0 "$FL" info --format json "$1"
  expect_eq "$(counts_of)" "3 0 4" "$2: the device and two T2s, 4 cables"
  expect_eq "$(notes_of "$1")" "16 chassis-internal link(s) of a multi-ASIC device are not cables and were not loaded: 8 front-panel port(s) mapped to ASIC ports (of multi_npu_platform_01), 8 backplane link(s) between ASICs; the device is one switch with its front-panel port names
2 declared device(s) have no physical link; not loaded" "$2: one note for the internal links; the ASICs are not 'devices without a link'"
  expect_eq "$(jget "$TMP/check.json" "=sorted(set(f['rule'] for f in d['findings']))")" "['topology.input']" "$2: no port-connected-twice, no PFC cycle"
  "$FL" convert --format design -o "$TMP/npu.xml" "$1" 2>/dev/null
  expect_eq "$(grep -o 'label="Ethernet1/[0-9]*"' "$TMP/npu.xml" | tr '\n' ' ')" 'label="Ethernet1/1" label="Ethernet1/2" label="Ethernet1/5" label="Ethernet1/6" ' "$2: front-panel ports named as the minigraph names them"
}
counts_of() { jget "$TMP/out" "=' '.join(str(d['fabric'][k]) for k in ('switches','cas','links'))"; }
notes_of() {
  "$FL" check --format json "$1" >"$TMP/check.json" 2>/dev/null
  jget "$TMP/check.json" "='\n'.join(f['message'].split(': ',1)[1] for f in d['findings'] if f['rule']=='topology.input')"
}
npu_check "$E/$NPU" "multi-NPU"
# the same links listed the other way round (ASIC as StartDevice)
python3 - "$E/$NPU" "$TMP/npu-rev.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
def flip(m):
    b = m.group(0)
    sd, sp = re.search(r'<StartDevice>(.*?)</StartDevice>', b).group(1), re.search(r'<StartPort>(.*?)</StartPort>', b).group(1)
    ed, ep = re.search(r'<EndDevice>(.*?)</EndDevice>', b).group(1), re.search(r'<EndPort>(.*?)</EndPort>', b).group(1)
    b = re.sub(r'<StartDevice>.*?</StartDevice>', '<StartDevice>%s</StartDevice>' % ed, b)
    b = re.sub(r'<StartPort>.*?</StartPort>', '<StartPort>%s</StartPort>' % ep, b)
    b = re.sub(r'<EndDevice>.*?</EndDevice>', '<EndDevice>%s</EndDevice>' % sd, b)
    return re.sub(r'<EndPort>.*?</EndPort>', '<EndPort>%s</EndPort>' % sp, b)
open(sys.argv[2], 'w').write(re.sub(r'<DeviceLinkBase[ >].*?</DeviceLinkBase>', flip, s, flags=re.S))
PY
expect_eq "$(grep -c '<StartDevice>ASIC' "$TMP/npu-rev.xml")" 16 "reversed copy: the ASIC ends first"
npu_check "$TMP/npu-rev.xml" "multi-NPU reversed"
# without <ChassisInternal> (older minigraphs): the Asic device type says it
grep -v '<ChassisInternal>' "$E/$NPU" >"$TMP/npu-noci.xml"
npu_check "$TMP/npu-noci.xml" "multi-NPU without ChassisInternal"

finish
