#!/usr/bin/env bash
# tests/data/cases/c09-triangle-port-index/make.sh — case c09 (issue 12): three
# DGX Spark-style hosts cabled back to back in a triangle (no switch), each
# with two ports enp1s0f0np0 (p0) and enp1s0f1np1 (p1), captured live by
# lldpd. The report this reproduces (luxingcom/aicad-nccl-optimization#1):
# two of the three cables joined equal port indexes (p0-p0, p1-p1) and one
# joined p1-p0, so NCCL's pairing of NICs by index across ranks failed; the
# fix was a crossed ring (every cable p0-p1).
#
#   asbuilt/  the report's cabling: spark-1 p0 - spark-2 p0,
#             spark-1 p1 - spark-3 p0, spark-2 p1 - spark-3 p1
#   fixed/    the same after swapping spark-2's two cables: a crossed ring,
#             spark-1 p0 - spark-2 p1, spark-2 p0 - spark-3 p1,
#             spark-3 p0 - spark-1 p1
#
# Each capture is a network namespace per host joined by veth pairs (no
# address is configured anywhere), one lldpd per namespace with its host
# name, and `lldpcli -f xml show neighbors details` saved per host. Hosts
# keep lldpd's defaults, as a Spark does: Station capability, MAC PortID,
# interface name in PortDescr.
#
# Usage: make.sh [DIR]   (default: beside this script; root; needs lldpd,
# lldpcli, ip, unshare). Namespaces are private (fl-c09<pid>-*, or
# $FL_NETNS_PREFIX) and deleted on exit, every lldpd stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
for tool in lldpd lldpcli ip unshare; do
  command -v "$tool" >/dev/null || { echo "make.sh: $tool not found" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/fl-c09.XXXXXX")
chmod 755 "$work" # lldpcli drops to the _lldpd user, which must reach the sockets
NSP=${FL_NETNS_PREFIX:-flc09$$}
pids=()
nss=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for n in "${nss[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  pids=()
  nss=()
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

hosts=(spark-1 spark-2 spark-3)
P0=enp1s0f0np0
P1=enp1s0f1np1

# capture NAME CABLE... — one live capture of the cables "hostA ifA hostB ifB"
# into $out/NAME/<host>.xml
capture() {
  local name=$1
  shift
  local cables=("$@") h c a ia b ib
  for h in "${hosts[@]}"; do
    ip netns add "$NSP-$name-$h"
    nss+=("$NSP-$name-$h")
    ip -n "$NSP-$name-$h" link set lo up
  done
  for c in "${cables[@]}"; do
    read -r a ia b ib <<<"$c"
    ip link add "$ia" netns "$NSP-$name-$a" type veth peer name "$ib" netns "$NSP-$name-$b"
    ip -n "$NSP-$name-$a" link set "$ia" up
    ip -n "$NSP-$name-$b" link set "$ib" up
  done
  for h in "${hosts[@]}"; do
    ip netns exec "$NSP-$name-$h" unshare -u sh -c \
      "hostname '$h' && exec lldpd -d -u '$work/$name-$h.sock' -I 'enp*'" \
      >"$work/$name-$h.log" 2>&1 </dev/null &
    pids+=($!)
  done
  for h in "${hosts[@]}"; do
    for _ in $(seq 1 50); do
      lldpcli -u "$work/$name-$h.sock" show configuration >/dev/null 2>&1 && break
      sleep 0.1
    done
    lldpcli -u "$work/$name-$h.sock" configure lldp tx-interval 1 >/dev/null
  done
  # every host sees both of its neighbours (bounded: 20 s each)
  for h in "${hosts[@]}"; do
    for t in $(seq 1 100); do
      got=$(lldpcli -u "$work/$name-$h.sock" -f xml show neighbors details | grep -c '<interface ' || true)
      [ "$got" -ge 2 ] && break
      [ "$t" -eq 100 ] && { echo "make.sh: $name: $h sees $got of 2 neighbours" >&2; exit 1; }
      sleep 0.2
    done
  done
  mkdir -p "$out/$name"
  for h in "${hosts[@]}"; do
    lldpcli -u "$work/$name-$h.sock" -f xml show neighbors details >"$out/$name/$h.xml"
  done
  stop_all
}

capture asbuilt "spark-1 $P0 spark-2 $P0" "spark-1 $P1 spark-3 $P0" "spark-2 $P1 spark-3 $P1"
capture fixed "spark-1 $P0 spark-2 $P1" "spark-2 $P0 spark-3 $P1" "spark-3 $P0 spark-1 $P1"
echo "make.sh: captured $(ls "$out/asbuilt" | wc -l) + $(ls "$out/fixed" | wc -l) lldpd listings into $out"
