# SPDX-License-Identifier: MIT
# ecmp-balance.link-load made proportional (issue 14): random patterns stop
# once the eBB's 99 % CI half-width is at most `ci` (after 10 patterns),
# patterns run in parallel workers with results independent of their
# number, the worst flow of shift/ring comes from the loading pass, and the
# all-to-all source sums are grouped per switch. Expected values are those
# of the former implementation (count patterns, one thread, per-flow
# recomputation), measured on the same generated fabrics.
. "$(dirname "$0")/lib.bash"
R="--rules ecmp-balance.link-load --format json"
# ev PATTERN KEY — the evidence field KEY of PATTERN's finding
ev() { jget "$TMP/out" "=[f['evidence']['$2'] for f in d['findings'] if f['evidence']['pattern'] == '$1'][0]"; }

# a 4x4 torus, 2 hosts per switch: bisect varies from pattern to pattern
"$FL" gen torus --x 4 --y 4 --hosts-per-switch 2 -o "$TMP/torus.xml"
expect_rc 0 "$FL" check $R --param ecmp-balance.patterns=bisect "$TMP/torus.xml"
expect_eq "$(ev bisect patterns) $(ev bisect ebb) $(ev bisect ebb_ci99)" \
  "100 0.605974 0.0162682" "torus: CI 0.016 > 0.001 after all 100 patterns"
# ci=0.02 stops at the first pattern count whose CI is within it: 74, with
# exactly the figures of count=74 (same seed, same patterns)
expect_rc 0 "$FL" check $R --param ecmp-balance.patterns=bisect --param ecmp-balance.ci=0.02 "$TMP/torus.xml"
expect_eq "$(ev bisect patterns) $(ev bisect ebb) $(ev bisect ebb_ci99) $(ev bisect max_link_load) $(ev bisect mean_link_load)" \
  "74 0.604126 0.0199032 2.5 1.03041" "torus: ci=0.02 stops at 74"
expect_rc 0 "$FL" check $R --param ecmp-balance.patterns=bisect --param ecmp-balance.ci=0 --param ecmp-balance.count=74 "$TMP/torus.xml"
expect_eq "$(ev bisect patterns) $(ev bisect ebb) $(ev bisect ebb_ci99) $(ev bisect max_link_load) $(ev bisect mean_link_load)" \
  "74 0.604126 0.0199032 2.5 1.03041" "torus: count=74"
# never fewer than 10 patterns
expect_rc 0 "$FL" check $R --param ecmp-balance.patterns=bisect --param ecmp-balance.ci=0.05 "$TMP/torus.xml"
expect_eq "$(ev bisect patterns) $(ev bisect ebb)" "10 0.601754" "torus: at least 10 patterns"

# a non-blocking fat tree under fluid ECMP: every pattern scores 1, the CI
# is 0 after 10 patterns, so 10 are drawn instead of 100
"$FL" gen fat-tree --radix 8 --tiers 3 -o "$TMP/ft8.xml"
expect_rc 0 "$FL" check $R --param ecmp-balance.patterns=bisect,permutation "$TMP/ft8.xml"
expect_eq "$(ev bisect patterns) $(ev bisect ebb) $(ev permutation patterns) $(ev permutation ebb)" \
  "10 1 10 1" "fat tree: 10 patterns each"
expect_rc 0 "$FL" check $R --param ecmp-balance.patterns=bisect --param ecmp-balance.ci=0 "$TMP/ft8.xml"
expect_eq "$(ev bisect patterns) $(ev bisect ebb)" "100 1" "fat tree: ci=0 draws all"

# the number of workers does not change a figure: one CPU (taskset) and
# all CPUs give the same JSON (on a one-CPU machine both runs use one)
if command -v taskset > /dev/null; then
  P="--param ecmp-balance.patterns=bisect,permutation --param ecmp-balance.count=37 --param ecmp-balance.ci=0"
  expect_rc 0 "$FL" check $R $P "$TMP/torus.xml"
  cp "$TMP/out" "$TMP/all.json"
  expect_rc 0 taskset -c 0 "$FL" check $R $P "$TMP/torus.xml"
  expect_eq "$(cmp -s "$TMP/out" "$TMP/all.json" && echo same)" "same" "1 worker = all workers"
  expect_eq "$(ev bisect ebb) $(ev permutation patterns) $(ev permutation ebb) $(ev permutation ebb_ci99)" \
    "0.605717 37 0.652748 0.0253711" "torus bisect and permutation, 37 patterns (as before)"
fi

# mixed host links (one HDR, one 1x among 4x NDR) and a missing leaf uplink:
# all-to-all sums sources per switch by injection (sorted, suffix sums);
# shift and ring take each flow's worst link from the loading pass
"$FL" gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft4.xml"
sed -e '/a="leaf-p01-01" a-port="3"/d' \
  -e '/a="node0001 mlx5_0"/s/speed="NDR"/speed="HDR"/' \
  -e '/a="node0005 mlx5_0"/s/width="4x"/width="1x"/' "$TMP/ft4.xml" > "$TMP/mix.xml"
expect_rc 0 "$FL" check $R --param ecmp-balance.ci=0 "$TMP/mix.xml"
expect_eq "$(ev all-to-all ebb) $(ev all-to-all max_link_load) $(ev all-to-all mean_link_load)" \
  "0.595238 12 6.85714" "mixed: all-to-all"
expect_eq "$(ev shift ebb) $(ev shift worst_flow_bandwidth) $(ev ring ebb) $(ev ring worst_flow_bandwidth)" \
  "0.6875 0.25 0.6875 0.25" "mixed: shift and ring, worst flow"
expect_eq "$(ev bisect patterns) $(ev bisect ebb)" "100 0.56125" "mixed: bisect"
finish
