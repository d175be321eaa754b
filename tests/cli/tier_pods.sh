#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/tier_pods.sh — tiers of a pod hanging off the top of a 3-tier
# fabric (core/model/derive.c step 6, class F16 of docs/real-fabrics.md:
# Selene's management spines MSPINE* cabled to the core, its management
# leaves MLG01-04/05 under them, ranked tiers 4-5 so that 14 core switches
# "had uplinks" and were "oversubscribed 15.75:1"). Fixtures: the repo's
# fabrics/fat-tree-3tier.net (written by `fabriclint gen`: 32 leaves, 32
# spines, 16 cores, 128 hosts) with cores 015 and 016 given a 9th port
# cabled to a pod spine "mspine-01", written here in the same ibsim format.
. "$(dirname "$0")/lib.bash"
NET="$FL_SRC/fabrics/fat-tree-3tier.net"
tiers() { "$FL" info --format json "$1" | python3 -c "import json,sys; print([(t['tier'], t['switches']) for t in json.load(sys.stdin)['tiers'] if t['tier'] > 0])"; }
sw() { # sw NAME GUIDHEX PORTS LINE...
  local n=$1 g=$2 p=$3; shift 3
  printf '\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%s\nswitchguid=0x%s\nSwitch\t%s "%s"\t\t# "%s"\n' "$g" "$g" "$p" "$n" "$n"
  printf '%s\n' "$@"
}
ca() { # ca NAME GUIDHEX LEAF PORT
  printf '\nvendid=0x2c9\ndevid=0x101b\nsysimgguid=0x%s\ncaguid=0x%s\nCa\t1 "%s"\t\t# "%s"\n[1]\t"%s"[%s]\t\t# "%s"\n' "$2" "$2" "$1" "$1" "$3" "$4" "$3"
}
# mk OUT WHAT — WHAT: leaf-host (pod spine, pod leaf with a host), leaf
# (pod spine and leaf, no host), spine (pod spine alone), spine-host (pod
# spine alone carrying a host)
mk() {
  sed -E 's/^Switch\t8 "core-01([56])"/Switch\t9 "core-01\1"/' "$NET" |
    awk '/^Switch\t9 "core-015"/ { c = 15 } /^Switch\t9 "core-016"/ { c = 16 }
         { print } c && /^\[8\]/ { printf "[9]\t\"mspine-01\"[%d]\t\t# \"mspine-01\"\n", c - 14; c = 0 }' >"$TMP/$1.net"
  {
    local s=('[1]	"core-015"[9]' '[2]	"core-016"[9]')
    case $2 in
    leaf*) s+=('[3]	"mleaf-01"[1]') ;;
    spine-host) s+=('[3]	"mgmt-01 mlx5_0"[1]') ;;
    esac
    sw mspine-01 2c903019f0001 8 "${s[@]}"
    case $2 in
    leaf-host) sw mleaf-01 2c903019f0002 8 '[1]	"mspine-01"[3]' '[2]	"mgmt-01 mlx5_0"[1]'
      ca "mgmt-01 mlx5_0" 2c903029f0002 mleaf-01 2 ;;
    leaf) sw mleaf-01 2c903019f0002 8 '[1]	"mspine-01"[3]' ;;
    spine-host) ca "mgmt-01 mlx5_0" 2c903029f0002 mspine-01 3 ;;
    esac
  } >>"$TMP/$1.net"
}
expect_eq "$(tiers "$NET")" "[(1, 32), (2, 32), (3, 16)]" "3-tier base"
# a pod leaf with a host, 4 hops up: the pod ranks below the core
mk a leaf-host
expect_eq "$(tiers "$TMP/a.net")" "[(1, 33), (2, 33), (3, 16)]" "pod with a host"
# a pod leaf without hosts: 4 hops up is above any four-tier top: a pod
mk b leaf
expect_eq "$(tiers "$TMP/b.net")" "[(1, 33), (2, 33), (3, 16)]" "pod without hosts"
# boundary: one switch 3 hops up, no endpoints (a four-tier top): kept
mk c spine
expect_eq "$(tiers "$TMP/c.net")" "[(1, 32), (2, 32), (3, 16), (4, 1)]" "a fourth tier"
# one switch 3 hops up carrying a host: a leaf cabled to the core
mk d spine-host
expect_eq "$(tiers "$TMP/d.net")" "[(1, 33), (2, 32), (3, 16)]" "a leaf on the core"
# the core has no uplinks any more: no oversubscription finding at tier 3
expect_rc 0 "$FL" check --rules ecmp-balance.oversubscription,ecmp-balance.uplink-asymmetry --format json "$TMP/a.net"
expect_eq "$(jget "$TMP/out" "=[f['message'][:8] for f in d['findings'] if 'tier-3' in f['message'] or 'tier-4' in f['message']]")" "[]" "no tier-3/4 findings"
finish
