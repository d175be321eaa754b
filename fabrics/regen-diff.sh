#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fabrics/regen-diff.sh — the as-designed vs as-built fixtures of
# `fabriclint diff` (issue #5), made with the real tools.
#
# Why: the diff must be tested on what ibnetdiscover and lldpd really print,
# not on hand-written imitations. Two fabrics, each with the same four
# scripted faults (a cable moved, one removed, one added, two swapped):
#
# 1. InfiniBand, rail-optimised (fabrics/diff/rail-su8.*):
#    `fabriclint gen rail-su --sus 8 --hosts-per-su 30` (240 DGX hosts,
#    1,920 HCAs, 96 switches; leaf ports 31-32 stay free) is the design
#    (rail-su8.design.xml). Its ibsim net file is edited (both ends of each
#    cable) and simulated as fabrics/regen.sh does (ibsim, `opensm -o`,
#    ibnetdiscover through ibsim-run): rail-su8.asbuilt.ibnetdiscover.
#      moved    dgx-003 mlx5_5: leaf-su01-r3 port 3 -> port 31 (same leaf)
#      removed  leaf-su02-r4 port 33 <-> spine-01 (its first uplink)
#      added    leaf-su03-r0 port 31 <-> leaf-su03-r1 port 31
#      swapped  dgx-010 mlx5_0 and mlx5_3 (rail-0 and rail-1 leaf cables)
#
# 2. Ethernet, LLDP (fabrics/diff/lldp-design.xml, fabrics/diff/lldp/):
#    14 network namespaces (2 spines SONiC-style `EthernetN`, 4 leaves
#    Cumulus-style `swpN`, 8 dual-homed hosts `eth0`/`eth1`) joined by veth
#    pairs, one `lldpd -d -u SOCKET` per namespace with its own host name
#    (`unshare -u`); switches send the ifname PortID subtype, hosts lldpd's
#    default (MAC, name in PortDescr). Host names are spelt as in the field
#    (SPINE-01, leaf-01.pod1.example.net, host-01) while the design writes
#    spine-01, leaf-01 and spine ports `Eth0`: the alias layer must match
#    them. Each namespace's `lldpcli -f xml show neighbors details` is saved
#    as lldp/<hostname>.xml.
#      moved    host-03 eth0: leaf-01 swp3 -> swp5
#      removed  leaf-04 swp52 <-> spine-02
#      added    leaf-02 swp10 <-> leaf-03 swp10
#      swapped  host-06 eth0 / eth1 (leaf-03 swp2, leaf-04 swp2)
#
# Each fault must come out as exactly one finding and nothing else
# (tests/cli/diff_headline.sh, diff_lldpd_live.sh).
#
# Usage:  fabrics/regen-diff.sh                 both fabrics into fabrics/diff/
#         fabrics/regen-diff.sh --lldp-only DIR capture the LLDP fabric into DIR
#                                               (the live test uses this)
# FL=path/to/fabriclint overrides the executable. Needs: ibsim, ibsim-run,
# opensm, ibnetdiscover; lldpd, lldpcli, ip (iproute2), unshare; root for the
# namespaces; python3. Everything it starts is stopped on exit (trap);
# namespaces are private (fldiff<pid>-*) and deleted; loopback/veth only.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
FL=${FL:-$here/../build/fabriclint}
start=$SECONDS
lldp_only=""
if [ "${1:-}" = "--lldp-only" ]; then
  lldp_only=${2:?--lldp-only needs a folder}
fi

. "$here/../tests/ibsim_lib.bash"
ibsim_init regen-diff
work=$ibsim_work
chmod 755 "$work" # lldpcli drops to the _lldpd user, which must reach the sockets
lldpd_pids=()
netns_list=()
NSP="${FL_NETNS_PREFIX:-fldiff$$}"

# the exit trap of ibsim_lib.bash calls this before it removes $work
ibsim_on_exit() {
  local p n
  for p in "${lldpd_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${lldpd_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for n in "${netns_list[@]}"; do ip netns del "$n" 2>/dev/null || true; done
}

# ============================================================================
# helpers in python (net-file surgery, the LLDP design)
# ============================================================================
cat >"$work/helper.py" <<'PY'
import re, sys

def load_net(path):
    blocks, cur = [], None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r'^(Switch|Ca|Hca|Rt)\s+\d+\s+"([^"]+)"', line)
        if m:
            cur = [m.group(2), [line]]
            blocks.append(cur)
        elif cur is not None and line.startswith("["):
            cur[1].append(line)
        else:
            cur = None
            blocks.append([None, [line]])
    return blocks

def find(blocks, name):
    for b in blocks:
        if b[0] == name:
            return b
    sys.exit("regen-diff: no node %r in the net file" % name)

def port_line(b, port):
    for i, l in enumerate(b[1]):
        if l.startswith("[%d]" % port):
            return i
    return None

def remove(blocks, name, port):
    b = find(blocks, name)
    i = port_line(b, port)
    if i is None:
        sys.exit("regen-diff: %s port %d has no cable" % (name, port))
    m = re.match(r'^\[\d+\]\s+"([^"]+)"\[(\d+)\]', b[1][i])
    peer, pport = m.group(1), int(m.group(2))
    del b[1][i]
    pb = find(blocks, peer)
    j = port_line(pb, pport)
    del pb[1][j]

def add(blocks, a, ap, b, bp):
    for (n, p, o, op) in ((a, ap, b, bp), (b, bp, a, ap)):
        blk = find(blocks, n)
        if port_line(blk, p) is not None:
            sys.exit("regen-diff: %s port %d is not free" % (n, p))
        blk[1].append('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xHDR' % (p, o, op, o))

def save(blocks, path):
    with open(path, "w") as f:
        for b in blocks:
            f.write("\n".join(b[1]) + "\n")

def edit_rail(src, dst):
    bl = load_net(src)
    # moved: dgx-003 mlx5_5 from leaf-su01-r3 port 3 to port 31
    remove(bl, "dgx-003 mlx5_5", 1)
    add(bl, "dgx-003 mlx5_5", 1, "leaf-su01-r3", 31)
    # removed: leaf-su02-r4 port 33 (first uplink)
    remove(bl, "leaf-su02-r4", 33)
    # added: leaf-su03-r0 port 31 <-> leaf-su03-r1 port 31
    add(bl, "leaf-su03-r0", 31, "leaf-su03-r1", 31)
    # swapped: dgx-010 mlx5_0 <-> mlx5_3 (ports 10 of rail-0/rail-1 leaves)
    remove(bl, "dgx-010 mlx5_0", 1)
    remove(bl, "dgx-010 mlx5_3", 1)
    add(bl, "dgx-010 mlx5_0", 1, "leaf-su01-r1", 10)
    add(bl, "dgx-010 mlx5_3", 1, "leaf-su01-r0", 10)
    save(bl, dst)

# ---- the LLDP fabric ----------------------------------------------------
SPINES = ["spine-01", "spine-02"]
LEAVES = ["leaf-01", "leaf-02", "leaf-03", "leaf-04"]
HOSTS = ["host-%02d" % i for i in range(1, 9)]

def design_cables():
    c = []
    for h in range(8):
        la, lb = (0, 1) if h < 4 else (2, 3)
        port = h % 4 + 1
        c.append((HOSTS[h], "eth0", LEAVES[la], "swp%d" % port))
        c.append((HOSTS[h], "eth1", LEAVES[lb], "swp%d" % port))
    for j, leaf in enumerate(LEAVES):
        c.append((leaf, "swp51", "spine-01", "Ethernet%d" % (4 * j)))
        c.append((leaf, "swp52", "spine-02", "Ethernet%d" % (4 * j)))
    return c

def asbuilt_cables():
    c = design_cables()
    out = []
    for (a, ap, b, bp) in c:
        if (a, ap) == ("host-03", "eth0"):
            bp = "swp5"                      # moved
        if (a, ap) == ("leaf-04", "swp52"):
            continue                         # removed
        if a == "host-06":                   # swapped
            ap = "eth1" if ap == "eth0" else "eth0"
        out.append((a, ap, b, bp))
    out.append(("leaf-02", "swp10", "leaf-03", "swp10"))  # added
    return out

SPELL = {"spine-01": "SPINE-01", "spine-02": "SPINE-02"}
for l in LEAVES:
    SPELL[l] = l + ".pod1.example.net"

def lldp_plan():
    """device hostname kind, then one line per cable end: ns ifname peer"""
    for d in SPINES + LEAVES + HOSTS:
        kind = "host" if d.startswith("host") else "switch"
        print("node %s %s %s" % (d, SPELL.get(d, d), kind))
    for (a, ap, b, bp) in asbuilt_cables():
        print("cable %s %s %s %s" % (a, ap, b, bp))

def lldp_design():
    ports = {}
    def num(dev, p):
        ports.setdefault(dev, [])
        if p not in ports[dev]:
            ports[dev].append(p)
        return ports[dev].index(p) + 1
    links = []
    for (a, ap, b, bp) in design_cables():
        links.append((a, num(a, ap), b, num(b, bp)))
    print('<?xml version="1.0" encoding="UTF-8"?>')
    print('<!-- LLDP demo fabric of fabrics/regen-diff.sh: the plan. Spine '
          'ports are written Eth<N> (the switches call them Ethernet<N>). -->')
    print('<fabric xmlns="urn:fabriclint:design:1" version="1" name="lldp-demo">')
    for d in SPINES + LEAVES + HOSTS:
        kind = "ca" if d.startswith("host") else "switch"
        tier = 0 if kind == "ca" else (1 if d.startswith("leaf") else 2)
        rack = "R%02d" % (1 + (HOSTS.index(d) // 4 if d in HOSTS else 2))
        print('  <node kind="%s" name="%s" tier="%d" rack="%s">' % (kind, d, tier, rack))
        for i, p in enumerate(ports[d]):
            lab = p.replace("Ethernet", "Eth") if d.startswith("spine") else p
            print('    <port num="%d" label="%s"/>' % (i + 1, lab))
        print('  </node>')
    for i, (a, ap, b, bp) in enumerate(links):
        print('  <link a="%s" a-port="%d" b="%s" b-port="%d" cable="E%03d"/>'
              % (a, ap, b, bp, i + 1))
    print('</fabric>')

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "edit-rail":
        edit_rail(sys.argv[2], sys.argv[3])
    elif cmd == "lldp-plan":
        lldp_plan()
    elif cmd == "lldp-design":
        lldp_design()
PY

# ============================================================================
# 2. the LLDP fabric in namespaces
# ============================================================================
capture_lldp() {
  local out=$1
  for tool in lldpd lldpcli ip unshare python3; do
    command -v "$tool" >/dev/null || { echo "regen-diff: $tool not found" >&2; return 2; }
  done
  mkdir -p "$out"
  python3 "$work/helper.py" lldp-plan >"$work/plan"
  declare -A host kind
  local n=0
  while read -r what a b c d; do
    case $what in
    node)
      host[$a]=$b kind[$a]=$c
      ip netns add "$NSP-$a"
      netns_list+=("$NSP-$a")
      ip -n "$NSP-$a" link set lo up
      # a switch forwards, so lldpd advertises the Router capability as
      # SONiC and Cumulus switches do (hosts advertise Station only)
      if [ "$c" = switch ]; then
        ip netns exec "$NSP-$a" sysctl -q -w net.ipv4.ip_forward=1
      fi
      ;;
    cable)
      n=$((n + 1))
      ip link add "$b" netns "$NSP-$a" type veth peer name "$d" netns "$NSP-$c"
      ip -n "$NSP-$a" link set "$b" up
      ip -n "$NSP-$c" link set "$d" up
      ;;
    esac
  done <"$work/plan"
  local dev
  for dev in "${!host[@]}"; do
    local sock=$work/$dev.sock
    ip netns exec "$NSP-$dev" unshare -u sh -c \
      "hostname '${host[$dev]}' && exec lldpd -d -u '$sock' -I 'swp*,Ethernet*,eth*'" \
      >"$work/$dev.log" 2>&1 </dev/null &
    lldpd_pids+=($!)
  done
  # configure each daemon as soon as its socket answers
  local want t
  for dev in "${!host[@]}"; do
    for _ in $(seq 1 50); do
      lldpcli -u "$work/$dev.sock" show configuration >/dev/null 2>&1 && break
      sleep 0.1
    done
    lldpcli -u "$work/$dev.sock" configure lldp tx-interval 1 >/dev/null
    if [ "${kind[$dev]}" = switch ]; then
      lldpcli -u "$work/$dev.sock" configure lldp portidsubtype ifname >/dev/null
    fi
  done
  # wait until every daemon lists every neighbour of the plan (bounded)
  for dev in "${!host[@]}"; do
    want=$(awk -v d="$dev" '$1 == "cable" && ($2 == d || $4 == d)' "$work/plan" | wc -l)
    for t in $(seq 1 100); do
      got=$(lldpcli -u "$work/$dev.sock" -f xml show neighbors details |
        grep -c '<interface ' || true)
      [ "$got" -ge "$want" ] && break
      [ "$t" -eq 100 ] && { echo "regen-diff: $dev sees $got of $want neighbours" >&2; return 1; }
      sleep 0.2
    done
  done
  sleep 1.5 # one more TX round, so every record carries the ifname subtype
  for dev in "${!host[@]}"; do
    lldpcli -u "$work/$dev.sock" -f xml show neighbors details >"$out/${host[$dev]}.xml"
  done
  return 0
}

if [ -n "$lldp_only" ]; then
  capture_lldp "$lldp_only"
  exit $?
fi

# ============================================================================
# 1. the InfiniBand fabric with ibsim
# ============================================================================
ibsim_need ibsim ibsim-run opensm ibnetdiscover python3
[ -x "$FL" ] || { echo "regen-diff: $FL not built" >&2; exit 2; }
ibsim_opensm_conf "$work/opensm.conf" "$work/opensm.log" "$work"
ibsim_start_wait=300

out=$here/diff
mkdir -p "$out" "$work/out"
gen=(rail-su --sus 8 --hosts-per-su 30 --rails 8 --speed HDR --no-lids)
"$FL" gen "${gen[@]}" -o "$work/out/rail-su8.design.xml"
"$FL" gen "${gen[@]}" --format ibsim -o "$work/rail-su8.net"
python3 "$work/helper.py" edit-rail "$work/rail-su8.net" "$work/asbuilt.net"
ibsim_start "$work/asbuilt.net" "$work/ibsim.log" || exit 1
ibsim_opensm "dgx-002 mlx5_0" "$work" "$work/opensm.out" -o -F "$work/opensm.conf" || {
  echo "regen-diff: opensm failed" >&2
  tail -20 "$work/opensm.out" >&2
  exit 1
}
SIM_HOST="dgx-002 mlx5_0" timeout 300 ibsim-run ibnetdiscover \
  >"$work/out/rail-su8.asbuilt.ibnetdiscover"
ibsim_stop

python3 "$work/helper.py" lldp-design >"$work/out/lldp-design.xml"
if [ "$(id -u)" -eq 0 ]; then
  rm -rf "$work/out/lldp"
  capture_lldp "$work/out/lldp"
  rm -rf "$out/lldp"
  mv "$work/out/lldp" "$out/lldp"
else
  echo "regen-diff: not root: the LLDP captures are left as they are" >&2
fi
mv "$work/out"/*.xml "$work/out"/*.ibnetdiscover "$out/"
printf '%s\n' "rail-su8: $(grep -c '^Switch' "$out/rail-su8.asbuilt.ibnetdiscover") switches," \
  "$(grep -c '^Ca' "$out/rail-su8.asbuilt.ibnetdiscover") CAs; lldp: $(ls "$out/lldp" | wc -l) files"
echo "regen-diff: done in $((SECONDS - start)) s"
