# SPDX-License-Identifier: MIT
# health.link-errors and host reboots (plugins/health/health.c
# reboot_pattern()): a host that reboots takes its link down, counted by the
# switch port's LinkDownedCounter, while the HCA's counters start again at 0.
# An outside tester's real NDR fabric (ibdiagnet .pm, not shipped: no
# licence) got 194 "inspect, reseat or replace the cable" warnings from
# exactly that. Data: tests/data/counters/make-reboots.sh (ibsim, OpenSM,
# ibsim's PerformanceSet, perfquery on every switch and CA LID):
#   leaf-p01-01 ports 1-4: LinkDowned 13 at the switch, 0 at the HCA -> info
#   leaf-p01-02 port 1: 12 at the switch, node0005's own 1 -> a flapping cable
#   leaf-p01-03 port 1: 15 and SymbolErrorCounter 5 -> a cable (physical error)
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/data/counters"
expect_rc 0 "$FL" check --rules health --format json "$D/reboots.ibnetdiscover" "$D/reboots-perfquery.txt"
expect_eq "$(jget "$TMP/out" "=sorted(tuple(sorted(f['nodes'])) for f in d['findings'] if f['rule'] == 'health.link-errors' and f['severity'] == 'warning')")" \
  "[('leaf-p01-02', 'node0005 mlx5_0'), ('leaf-p01-03', 'node0009 mlx5_0')]" "two erroring cables: the flapping one (HCA 1) and the one with symbol errors"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['cables'], f['evidence']['hosts']) for f in d['findings'] if f['rule'] == 'health.link-errors' and f['severity'] == 'info']")" \
  "[(4, ['node0001 mlx5_0', 'node0002 mlx5_0', 'node0003 mlx5_0', 'node0004 mlx5_0'])]" "one info: the 4 rebooted hosts"
expect_grep "$TMP/out" '4 host cable\(s\) went down only as seen from the switch'
# a lower threshold changes nothing about the pattern; at link-downed=13 the
# 13s are not over it (more than 13 is reported), the 15 and 12+1 stay
expect_rc 0 "$FL" check --rules health --param health.link-errors.link-downed=13 --format json "$D/reboots.ibnetdiscover" "$D/reboots-perfquery.txt"
expect_eq "$(jget "$TMP/out" "=sorted((f['severity'], tuple(sorted(f['nodes']))) for f in d['findings'] if f['rule'] == 'health.link-errors')")" \
  "[('warning', ('leaf-p01-03', 'node0009 mlx5_0'))]" "at 13: only the 15 with symbol errors (the flapping 12 is under it too)"
expect_rc 0 "$FL" check --rules health --param health.link-errors.link-downed=12 --format json "$D/reboots.ibnetdiscover" "$D/reboots-perfquery.txt"
expect_eq "$(jget "$TMP/out" "=sorted((f['severity'], f['evidence'].get('cables', 0)) for f in d['findings'] if f['rule'] == 'health.link-errors')")" \
  "[('info', 4), ('warning', 0)]" "at 12: the 13s are over it again (4 reboots), 12 is not, the 15 is"
finish
