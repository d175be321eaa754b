#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/dual_homing_one_switch.sh — failure-domains.dual-homing on a
# fabric of one switch (outside tester, session 11: a lab's single QDR
# switch with a host's two ConnectX ports on it was an error, "one switch
# failure disconnects both", where there is nowhere else to home a port).
# Boundary: the same host with a second switch in the fabric is judged.
# ibsim net files (the simulator's own input format, written as a person
# writes them), loaded as such.
. "$(dirname "$0")/lib.bash"
cat >"$TMP/one.net" <<'NET'
Switch 8 "S-sw1" # "lab-switch"
[1] "H-host1"[1]
[2] "H-host1"[2]
[3] "H-host2"[1]

Hca 2 "H-host1" # "host1 mlx4_0"
[1] "S-sw1"[1]
[2] "S-sw1"[2]

Hca 1 "H-host2" # "host2 mlx4_0"
[1] "S-sw1"[3]
NET
dh() {
  expect_rc "$1" "$FL" check --format json --rules failure-domains.dual-homing "$2"
  jget "$TMP/out" "=[(f['severity'], f['message'].split(':')[0]) for f in d['findings']]"
}
expect_eq "$(dh 0 "$TMP/one.net")" "[]" "one switch: the host's two ports on it are not judged"
# a second switch (cabled to the first, a host of its own): judged again
sed -e 's/^\[3\] "H-host2"\[1\]$/[3] "H-host2"[1]\n[4] "S-sw2"[1]/' "$TMP/one.net" >"$TMP/two.net"
cat >>"$TMP/two.net" <<'NET'

Switch 8 "S-sw2" # "lab-switch-2"
[1] "S-sw1"[4]
[2] "H-host3"[1]

Hca 1 "H-host3" # "host3 mlx4_0"
[1] "S-sw2"[2]
NET
expect_eq "$(grep -c '"S-sw2"\[1\]' "$TMP/two.net")" "1" "fixture: sw1 port 4 to sw2"
expect_eq "$(dh 1 "$TMP/two.net")" "[('error', 'the ports of dual-port HCA \"H-host1\" land on the same switch \"S-sw1\" (ports 1 and 2)')]" \
  "two switches: the dual-port HCA on one of them is an error"
finish
