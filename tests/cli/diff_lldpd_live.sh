#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_lldpd_live.sh — the lldpd loader and `fabriclint diff` on a
# live LLDP fabric: fabrics/regen-diff.sh --lldp-only builds 14 network
# namespaces joined by veth pairs (loopback only: nothing leaves the host),
# runs one lldpd per namespace, captures `lldpcli -f xml show neighbors
# details` from each, and stops and deletes everything on exit. The capture
# must give exactly the four scripted faults against fabrics/diff/lldp-
# design.xml, like the committed captures in fabrics/diff/lldp/.
#
# Where namespaces cannot be made (not root, no lldpd, a container without
# CAP_SYS_ADMIN), the test falls back to the committed captures and says so.
# Bounded: the capture has 120 s.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$src/fabrics/diff

live=0
probe="flprobe$$"
if [ "$(id -u)" -eq 0 ] && command -v lldpd >/dev/null && command -v lldpcli >/dev/null &&
  ip netns add "$probe" 2>/dev/null; then
  ip netns del "$probe"
  # our own namespace prefix: another run of the suite may be capturing too
  nsp="fldiff$$"
  if FL="$FL" FL_NETNS_PREFIX="$nsp" timeout 120 bash "$src/fabrics/regen-diff.sh" --lldp-only "$TMP/lldp" \
    >"$TMP/capture.log" 2>&1; then
    live=1
  else
    sed 's/^/  capture: /' "$TMP/capture.log" | tail -5 >&2
    fail "live lldpd capture failed"
  fi
fi
if [ "$live" -eq 1 ]; then
  echo "diff_lldpd_live: live capture of $(ls "$TMP/lldp" | wc -l) lldpd namespaces"
  asbuilt=$TMP/lldp
  expect_eq "$(ls "$asbuilt" | wc -l)" 14 "capture files"
  expect_grep "$asbuilt/host-03.xml" '<id label="PortID" type="ifname">swp5</id>'
else
  echo "diff_lldpd_live: SKIP live part (needs root, lldpd and network namespaces); using fabrics/diff/lldp"
  asbuilt=$d/lldp
fi
# nothing of ours may be left behind
if [ "$live" -eq 1 ]; then
  expect_eq "$(ip netns list 2>/dev/null | grep -c "^$nsp-" || true)" 0 "namespaces left"
fi

expect_rc 1 "$FL" diff --format json "$d/lldp-design.xml" "$asbuilt"
expect_eq "$(jget "$TMP/out" "=' '.join(sorted(f['rule'] for f in d['findings']))")" \
  "diff.misconnected diff.missing diff.swapped diff.unexpected" "findings"
expect_rc 0 "$FL" info --format json "$asbuilt"
# 24 planned cables, one removed, one added: 24 cables, each seen from both ends
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 24 "cables"
expect_eq "$(jget "$TMP/out" "['fabric']['cas']")" 8 "hosts (Station capability)"
finish
