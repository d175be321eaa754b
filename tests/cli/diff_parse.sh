#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_parse.sh — malformed port names in the diff loaders are
# parse errors (exit 2) with file:line and what was expected.
#
# 1. Cisco cable plan port sets: ranges out of bounds, with a missing end,
#    or with two separators.
. "$(dirname "$0")/lib.bash"

# ---- 1. Cisco port ranges --------------------------------------------------
cplan() { # cplan FILE SOURCEPORT
  printf '<CISCO_NETWORK_TYPES><DATA_CENTER><CHASSIS_INFO sourceChassis="a">\n<LINK_INFO sourcePort="%s" destChassis="b" minPorts="1"/></CHASSIS_INFO></DATA_CENTER></CISCO_NETWORK_TYPES>\n' "$2" >"$1"
}
i=0
for bad in 'eth1/1-eth1/2000000000' 'eth1/1-' '-eth1/3' 'eth1/1-eth1/1-eth1/3' \
  'eth1/5-eth1/3' 'eth1/1-eth2/3' 'eth1/1-eth1/70000' 'eth1/1, ,eth1/2'; do
  i=$((i + 1))
  cplan "$TMP/bad$i.xml" "$bad"
  expect_rc 2 "$FL" diff "$TMP/bad$i.xml" "$TMP/bad$i.xml"
  expect_grep "$TMP/err" "bad$i\\.xml:2: sourcePort='.*'.*expected a port .*range of ports with the same prefix"
done
for good in 'eth1/1-eth1/3' 'eth1/1-3, eth1/7' 'Eth1/1 - Eth1/4' 'xe-0/0/1' 'eth1/1-eth1/512'; do
  cplan "$TMP/good.xml" "$good"
  expect_rc 0 "$FL" diff "$TMP/good.xml" "$TMP/good.xml"
done

# IBDM .topo port numbers out of range, and a connection missing its port
# (the value is quoted as written, up to 20 bytes, then "...")
for bad in "P0:4:P0" "P65536:4:P65536" "P70000:4:P70000" "P99999999999999999999:4:P9999999999999999999\\.\\.\\."; do
  port=${bad%%:*}
  quoted=${bad##*:}
  printf 'MQM8700 sw1\n   %s -4x-HDR-> MQM8700 sw2 P1\n' "$port" > "$TMP/bad.topo"
  expect_rc 2 "$FL" info --input-format ibdm-topo "$TMP/bad.topo"
  col=${bad#*:}
  expect_grep "$TMP/err" "bad.topo:2:${col%%:*}: port number $quoted is out of range \(allowed P1 to P65535\)"
done
# the last allowed port number, P65535, at both ends (mutant l2-topo-p65535)
printf 'MQM8700 sw1\n   P65535 -4x-HDR-> MQM8700 sw2 P65535\n' > "$TMP/max.topo"
expect_rc 0 "$FL" info --format json --input-format ibdm-topo "$TMP/max.topo"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['links'], d['fabric']['switches'])")" "(1, 2)" "P65535: one cable between two switches"
printf 'MQM8700 sw1\n   P1 -4x-HDR-> MQM8700\n' > "$TMP/short.topo"
expect_rc 2 "$FL" info --input-format ibdm-topo "$TMP/short.topo"
expect_grep "$TMP/err" "short.topo:2:4: expected .PORT -> TYPE NAME PORT. \(5 fields\)"

finish
