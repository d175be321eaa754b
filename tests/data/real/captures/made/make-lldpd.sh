#!/usr/bin/env bash
# tests/data/real/made/make-lldpd.sh — a real lldpd capture of a public
# Ethernet plan for the real-fabric corpus (docs/real-fabrics.md): the
# cabling of datacenter/acitoolkit's cable_plan.xml (2 spines, 3 leaves,
# ../datacenter__acitoolkit__applications__cableplan__cable_plan.xml) built
# from network namespaces joined by veth pairs, one lldpd per device
# (system capabilities bridge and router enabled, as a switch advertises;
# a neutral system description instead of the build machine's kernel),
# and `lldpcli -f xml show neighbors details` saved per device into
# made/aci-fab3-lldpd/<device>.xml. Interface names are the plan's with "/"
# written "-" (Linux names cannot hold "/"): eth1/50 -> eth1-50.
#
# Usage: make-lldpd.sh (root; needs lldpd, lldpcli, ip, unshare). Namespaces
# are private (fl-real<pid>-*) and deleted on exit, every lldpd stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/aci-fab3-lldpd
plan=$here/../datacenter__acitoolkit__applications__cableplan__cable_plan.xml
for tool in lldpd lldpcli ip unshare; do
  command -v "$tool" >/dev/null || { echo "make-lldpd.sh: $tool not found" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/fl-real.XXXXXX")
chmod 755 "$work" # lldpcli drops to the _lldpd user, which must reach the sockets
NSP=flreal$$
pids=()
nss=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for n in "${nss[@]}"; do ip netns del "$n" 2>/dev/null || true; done
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

# the plan's cables: "SOURCE SPORT DEST DPORT" per LINK_INFO
mapfile -t cables < <(awk -F'"' '
  /<CHASSIS_INFO/ { for (i = 1; i < NF; i++) if ($i ~ /sourceChassis=$/) src = $(i + 1) }
  /<LINK_INFO/ {
    for (i = 1; i < NF; i++) {
      if ($i ~ /sourcePort=$/) sp = $(i + 1)
      if ($i ~ /destChassis=$/) dc = $(i + 1)
      if ($i ~ /destPort=$/) dp = $(i + 1)
    }
    gsub("/", "-", sp); gsub("/", "-", dp)
    print src, sp, dc, dp
  }' "$plan")
mapfile -t hosts < <(printf '%s\n' "${cables[@]}" | awk '{print $1; print $3}' | sort -u)
for h in "${hosts[@]}"; do
  ip netns add "$NSP-$h"
  nss+=("$NSP-$h")
  ip -n "$NSP-$h" link set lo up
done
for c in "${cables[@]}"; do
  read -r a ia b ib <<<"$c"
  ip link add "$ia" netns "$NSP-$a" type veth peer name "$ib" netns "$NSP-$b"
  ip -n "$NSP-$a" link set "$ia" up
  ip -n "$NSP-$b" link set "$ib" up
done
for h in "${hosts[@]}"; do
  ip netns exec "$NSP-$h" unshare -u sh -c \
    "hostname '$h' && exec lldpd -d -u '$work/$h.sock' -I 'eth*'" \
    >"$work/$h.log" 2>&1 </dev/null &
  pids+=($!)
done
for h in "${hosts[@]}"; do
  for _ in $(seq 1 50); do
    lldpcli -u "$work/$h.sock" show configuration >/dev/null 2>&1 && break
    sleep 0.1
  done
  lldpcli -u "$work/$h.sock" configure system capabilities enabled bridge,router >/dev/null
  lldpcli -u "$work/$h.sock" configure system description "lldpd in a network namespace (fabriclint corpus)" >/dev/null
  lldpcli -u "$work/$h.sock" configure lldp tx-interval 1 >/dev/null
done
for h in "${hosts[@]}"; do
  want=$(printf '%s\n' "${cables[@]}" | awk -v h="$h" '$1 == h || $3 == h' | wc -l)
  for t in $(seq 1 100); do
    got=$(lldpcli -u "$work/$h.sock" -f xml show neighbors details | grep -c '<interface ' || true)
    [ "$got" -ge "$want" ] && break
    [ "$t" -eq 100 ] && { echo "make-lldpd.sh: $h sees $got of $want neighbours" >&2; exit 1; }
    sleep 0.2
  done
done
sleep 2 # one more advertisement with the capabilities set
mkdir -p "$out"
for h in "${hosts[@]}"; do
  lldpcli -u "$work/$h.sock" -f xml show neighbors details >"$out/$h.xml"
done
echo "make-lldpd.sh: ${#hosts[@]} devices, ${#cables[@]} cables captured into $out"
