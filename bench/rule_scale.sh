#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/rule_scale.sh — every rule a default `fabriclint check` runs, at
# 8,192, 27,648 and 65,536 endpoints, with its time, peak memory and growth
# next to its documented complexity (issue 14: "every default rule at
# 65,536 endpoints within 2x of its documented complexity"; issue 19).
#
# Fabrics: `fabriclint gen fat-tree --radix K --tiers 3` for K in SIZES
# (default 32 48 64: k^3/4 = 8,192, 27,648 and 65,536 hosts; 5k^2/4
# switches; 3k^3/4 cables), as design XML — the plan a user checks before
# building, so the routing rules run their design-mode models (no LFTs).
# Each fabric is loaded once by build/bench/rule_scale (bench/rule_scale.c),
# which runs every selected rule alone in a child process with cold plugin
# caches (RUNS times, median) and reports wall and CPU seconds and peak RSS.
#
# Growth: for each rule, the measured CPU ratio between the largest and the
# smallest size is compared with the ratio its documented complexity
# predicts for the same two fat trees (the MODEL table below, written from
# docs/rules/*.md "Cost"); "ratio" = measured / predicted, and a rule is
# within 2x of its documented complexity when ratio <= 2 (below 1 it grew
# slower than documented: fixed costs weigh more at small sizes). The fitted
# exponent (least squares of log CPU over log N, all sizes) is printed too.
# Rules under MIN_MS milliseconds at the largest size are timer noise and
# are marked "tiny" instead of judged.
#
# Usage: bench/rule_scale.sh [OUT_DIR]
#   environment: BUILD (default build), SIZES ("32 48 64"), RUNS (3),
#                RULES (a --rules pattern; default: the default rules),
#                PARAMS (-P RULE.PARAM=VALUE ..., passed on), MIN_MS (5),
#                REUSE (1: keep a size's results already in OUT_DIR, e.g.
#                sizes measured with different RUNS: the 524,288-host
#                radix-128 plan once, the smaller ones three times)
# Output: the table on stdout; with OUT_DIR the fabrics and raw results are
# kept there (the 65,536-host plan is 38 MB).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$here/build}
SIZES=${SIZES:-32 48 64}
RUNS=${RUNS:-3}
MIN_MS=${MIN_MS:-5}
OUT=${1:-}
if [ -z "$OUT" ]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT"
[ -x "$BUILD/bench/rule_scale" ] || {
  echo "rule_scale.sh: build first ($BUILD/bench/rule_scale missing)" >&2
  exit 2
}
for k in $SIZES; do
  [ -s "$OUT/ft$k.xml" ] ||
    "$BUILD/fabriclint" gen fat-tree --radix "$k" --tiers 3 --allow-lid-overflow -o "$OUT/ft$k.xml"
  [ "${REUSE:-0}" = 1 ] && [ -s "$OUT/ft$k.txt" ] && continue
  # shellcheck disable=SC2086
  "$BUILD/bench/rule_scale" -r "$RUNS" ${PARAMS:-} "$OUT/ft$k.xml" \
    ${RULES:+"$RULES"} > "$OUT/ft$k.txt.part"
  mv "$OUT/ft$k.txt.part" "$OUT/ft$k.txt"
done

python3 - "$OUT" "$MIN_MS" $SIZES <<'PY'
import math, re, sys

out, min_ms, sizes = sys.argv[1], float(sys.argv[2]), [int(k) for k in sys.argv[3:]]

# Documented complexity (docs/rules/*.md, "Cost") as a function of the
# radix k of a full 3-tier fat tree: N = k^3/4 endpoints, S = 5k^2/4
# switches, L = k^2/2 leaves (the destination switches), E = 3k^3/4 cables,
# ports per switch k. First match wins.
N = lambda k: k**3 / 4
S = lambda k: 5 * k**2 / 4
L = lambda k: k**2 / 2
E = lambda k: 3 * k**3 / 4
MODEL = [
    # (rule id regex, complexity as documented, cost function of k)
    # design mode on a nested fabric (a fat tree is): the graph counted
    # in closed form per switch, O(P log P) each (docs/rules/deadlock.md;
    # the walks, O(k (S + E) + S k^2), run on other fabrics)
    (r"deadlock\.(credit-loop|not-updown)$",
     "O(S k log k) closed form (nested)",
     lambda k: S(k) * k * math.log2(k)),
    # lossless Ethernet: one pass over the links finds none is Ethernet
    (r"deadlock\.pfc-cycle$", "O(links): no Ethernet link", lambda k: E(k)),
    (r"deadlock\.", "O(1) without LFTs / on InfiniBand", lambda k: 1),
    # nested fabric: the view's cover classes, destinations in groups per
    # switch, O(P log P) each (no D x S matrix; fabriclint/view.h)
    (r"ecmp-balance\.(mixed-speed-group|group-width)$",
     "O(S k log k) cover classes (nested)",
     lambda k: S(k) * k * math.log2(k)),
    (r"ecmp-balance\.port-imbalance$", "O(1) without LFTs", lambda k: 1),
    (r"ecmp-balance\.uplink-asymmetry$", "O(S k + S log S) ports, sort",
     lambda k: S(k) * k + S(k) * math.log2(S(k))),
    (r"ecmp-balance\.", "O(S k) switch ports", lambda k: S(k) * k),
    (r"adaptive-routing\.", "O(S k log k) cover classes (nested)",
     lambda k: S(k) * k * math.log2(k)),
    (r"rail-alignment\.", "O(N log N) NICs, host sort",
     lambda k: N(k) * math.log2(N(k))),
    (r"failure-domains\.", "O(V + E) (no domain values)",
     lambda k: N(k) + S(k) + E(k)),
    (r"topology\.(duplicate-guid|lid)$", "O(n log n) sort",
     lambda k: (N(k) + S(k)) * math.log2(N(k) + S(k))),
    (r"topology\.", "O(ports + links)", lambda k: N(k) + S(k) * k + E(k)),
    (r".", "(none documented)", None),
]

def model(rule):
    for rx, doc, fn in MODEL:
        if re.match(rx, rule):
            return doc, fn
    return "(none)", None

rows = {}
meta = {}
for k in sizes:
    for line in open(f"{out}/ft{k}.txt"):
        f = line.split()
        if f[0] == "fabric":
            meta[k] = dict(zip(f[2::2], f[3::2]))
            continue
        if len(f) < 12:
            print("failed:", line.strip())
            continue
        key = (f[0], f[1])
        d = dict(zip(f[2::2], f[3::2]))
        rows.setdefault(key, {})[k] = d

lo, hi = sizes[0], sizes[-1]
print(f"fat trees (3 tiers): " + ", ".join(
    f"k={k}: {meta[k]['cas']} CAs, {meta[k]['switches']} switches, "
    f"{meta[k]['links']} cables, load {float(meta[k]['load_s']):.2f} s, "
    f"RSS {float(meta[k]['rss_mb']):.0f} MB" for k in sizes))
head = ["rule"] + [f"cpu s N={int(N(k))}" for k in sizes] + \
    [f"wall s N={int(N(hi))}", f"peak MB", "documented", "fit N^x",
     "model N^x", "ratio", "verdict"]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for (kind, rule), per in rows.items():
    if any(k not in per for k in sizes):
        continue
    cpu = [float(per[k]["cpu"]) for k in sizes]
    doc, fn = model(rule) if kind == "rule" else ("(sum of its rules)", None)
    xs = [math.log(N(k)) for k in sizes]
    ys = [math.log(max(c, 1e-6)) for c in cpu]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    fit = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0
    mexp = ratio = None
    verdict = "-"
    if fn:
        mexp = math.log(fn(hi) / fn(lo)) / math.log(N(hi) / N(lo)) \
            if hi != lo else 0
        if lo == hi:
            verdict = "one size"
        elif cpu[-1] * 1000 < min_ms:
            verdict = f"tiny (< {min_ms:g} ms)"
        else:
            ratio = (cpu[-1] / cpu[0]) / (fn(hi) / fn(lo))
            verdict = "within 2x" if ratio <= 2 else "OUTSIDE 2x"
    name = rule if kind == "rule" else f"**{kind} {rule}**"
    cells = [name] + [f"{c:.4f}" for c in cpu] + [
        f"{float(per[hi]['seconds']):.4f}", f"{float(per[hi]['peak_mb']):.0f}",
        doc, f"{fit:.2f}", "-" if mexp is None else f"{mexp:.2f}",
        "-" if ratio is None else f"{ratio:.2f}", verdict]
    print("| " + " | ".join(cells) + " |")
PY
