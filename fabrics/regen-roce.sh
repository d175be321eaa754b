#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fabrics/regen-roce.sh — a live 2-rail RoCE fabric captured by lldpd
# (issue 13): the shape of tests/data/cases/roce (2 spines, rail leaves
# leaf-r0 and leaf-r1, 4 hosts whose NIC ens1f0np0 belongs on rail 0 and
# ens2f0np0 on rail 1) with host-03's two NICs swapped between the leaves,
# built from network namespaces joined by veth pairs and captured with
# `lldpcli -f xml show neighbors details`, one file per device.
#
# Names as in the field: leaves and spines SONiC-style `EthernetN` (leaf
# host ports Ethernet1-4, uplinks Ethernet31-32; spine port N faces leaf
# N), hosts systemd-style `ens1f0np0`/`ens2f0np0`. Switches forward (lldpd
# then advertises Router) and send the ifname PortID subtype; hosts keep
# lldpd's defaults (Station, MAC PortID, name in PortDescr).
#
# Speeds: a veth reports a fixed 10000 Mb/s over twisted pair, which lldpd
# advertises as MAU type `10GbaseT`; `ethtool -s` cannot change it (the
# veth driver refuses: "Operation not supported"). Every link of the
# capture is therefore 10G, which the test asserts link by link.
#
# Usage: fabrics/regen-roce.sh DIR   (root; needs lldpd, lldpcli, ip,
# unshare). Everything it starts is stopped on exit; namespaces are private
# (flroce<pid>-*) and deleted; veth only, no address is ever configured.
set -euo pipefail
out=${1:?usage: regen-roce.sh DIR}
for tool in lldpd lldpcli ip unshare; do
  command -v "$tool" >/dev/null || { echo "regen-roce: $tool not found" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/fl-regen-roce.XXXXXX")
chmod 755 "$work" # lldpcli drops to the _lldpd user, which must reach the sockets
NSP=${FL_NETNS_PREFIX:-flroce$$} # private prefix; a caller may name it to check the cleanup
pids=()
nss=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for n in "${nss[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

switches=(spine1 spine2 leaf-r0 leaf-r1)
hosts=(host-01 host-02 host-03 host-04)
# cables: devA ifA devB ifB (the as-built: host-03 swapped)
cables=()
for i in 1 2 3 4; do
  h=host-0$i
  if [ "$h" = host-03 ]; then
    cables+=("leaf-r1 Ethernet$i $h ens1f0np0" "leaf-r0 Ethernet$i $h ens2f0np0")
  else
    cables+=("leaf-r0 Ethernet$i $h ens1f0np0" "leaf-r1 Ethernet$i $h ens2f0np0")
  fi
done
for l in 0 1; do
  cables+=("leaf-r$l Ethernet31 spine1 Ethernet$((l + 1))"
    "leaf-r$l Ethernet32 spine2 Ethernet$((l + 1))")
done

# namespaces may only be 15-character interface names apart: short ids
nsname() { echo "$NSP-$1"; }
for d in "${switches[@]}" "${hosts[@]}"; do
  ip netns add "$(nsname "$d")"
  nss+=("$(nsname "$d")")
  ip -n "$(nsname "$d")" link set lo up
done
for d in "${switches[@]}"; do
  ip netns exec "$(nsname "$d")" sysctl -q -w net.ipv4.ip_forward=1
done
for c in "${cables[@]}"; do
  read -r a ia b ib <<<"$c"
  ip link add "$ia" netns "$(nsname "$a")" type veth peer name "$ib" netns "$(nsname "$b")"
  ip -n "$(nsname "$a")" link set "$ia" up
  ip -n "$(nsname "$b")" link set "$ib" up
done
for d in "${switches[@]}" "${hosts[@]}"; do
  ip netns exec "$(nsname "$d")" unshare -u sh -c \
    "hostname '$d' && exec lldpd -d -u '$work/$d.sock' -I 'Ethernet*,ens*'" \
    >"$work/$d.log" 2>&1 </dev/null &
  pids+=($!)
done
for d in "${switches[@]}" "${hosts[@]}"; do
  for _ in $(seq 1 50); do
    lldpcli -u "$work/$d.sock" show configuration >/dev/null 2>&1 && break
    sleep 0.1
  done
  lldpcli -u "$work/$d.sock" configure lldp tx-interval 1 >/dev/null
  case " ${switches[*]} " in
  *" $d "*) lldpcli -u "$work/$d.sock" configure lldp portidsubtype ifname >/dev/null ;;
  esac
done
# wait until every daemon lists each of its cables (bounded: 20 s each)
for d in "${switches[@]}" "${hosts[@]}"; do
  want=0
  for c in "${cables[@]}"; do
    read -r a _ b _ <<<"$c"
    [ "$a" = "$d" ] || [ "$b" = "$d" ] && want=$((want + 1))
  done
  for t in $(seq 1 100); do
    got=$(lldpcli -u "$work/$d.sock" -f xml show neighbors details | grep -c '<interface ' || true)
    [ "$got" -ge "$want" ] && break
    [ "$t" -eq 100 ] && { echo "regen-roce: $d sees $got of $want neighbours" >&2; exit 1; }
    sleep 0.2
  done
done
sleep 1.5 # one more TX round, so every record carries the ifname subtype
mkdir -p "$out"
for d in "${switches[@]}" "${hosts[@]}"; do
  lldpcli -u "$work/$d.sock" -f xml show neighbors details >"$out/$d.xml"
done
