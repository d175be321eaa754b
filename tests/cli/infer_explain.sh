# SPDX-License-Identifier: MIT
# Inference with evidence (core/model/infer.c, fabriclint/infer.h,
# docs/inference.md): `info --explain` lists the tier of every switch and the
# scalable unit of every host and leaf with its evidence and confidence,
# text and JSON; default output carries none of it. SUs follow the site's
# names when they are consistent: on a generated 3-SU rail plan whose first
# SU's leaves the site named su03 (and whose hosts were renamed dgx-045...),
# dgx-045 under leaf-su03-* is SU 3 (grouping in node order said SU 1), in
# the JSON and in the rails picture; names that are inconsistent fall back
# to the groups, and the evidence says why.
. "$(dirname "$0")/lib.bash"

"$FL" gen rail-su --sus 3 --hosts-per-su 4 --format ibnetdiscover -o "$TMP/plan.ibnd" 2>/dev/null
# the site named the first SU's leaves su03 and the third's su01, and the
# first SU's hosts dgx-045..048
sed -e 's/leaf-su01-/leaf-suXX-/g' -e 's/leaf-su03-/leaf-su01-/g' -e 's/leaf-suXX-/leaf-su03-/g' \
  -e 's/"dgx-00\([1-4]\) /"dgx-04\1x /' "$TMP/plan.ibnd" |
  sed -e 's/"dgx-041x /"dgx-045 /' -e 's/"dgx-042x /"dgx-046 /' -e 's/"dgx-043x /"dgx-047 /' -e 's/"dgx-044x /"dgx-048 /' >"$TMP/site.ibnd"
expect_eq "$(grep -c '^Ca.*"dgx-045 mlx5' "$TMP/site.ibnd")" 8 "fixture: dgx-045 has 8 NICs"
expect_eq "$(grep -A1 '^Ca.*"dgx-045 mlx5_0"' "$TMP/site.ibnd" | grep -o 'leaf-su0[0-9]-r0')" leaf-su03-r0 "fixture: dgx-045 lands on leaf-su03-r0"

# host rows of the JSON: "node su-evidence (confidence)"
su_of() { jget "$TMP/out" "=[h['evidence'] + ' (' + h['confidence'] + ')' for h in d['inferences']['sus']['hosts'] if h['node'] == '$1'][0]"; }
tier_of() { jget "$TMP/out" "=[t['evidence'] + ' (' + t['confidence'] + ')' for t in d['inferences']['tiers'] if t['node'] == '$1'][0]"; }

# ---- SUs by the site's names ------------------------------------------------------
expect_rc 0 "$FL" info --explain --format json "$TMP/site.ibnd"
expect_eq "$(jget "$TMP/out" "['inferences']['sus']['source']")" names "SUs from the names"
expect_eq "$(su_of dgx-045)" "SU 3: its leaf leaf-su03-r0 is named for SU 3 (every leaf carrying hosts has su<N> in its name and no host reaches leaves of two numbers) (high)" "dgx-045: SU 3, with its evidence"
expect_eq "$(su_of dgx-005)" "SU 2: its leaf leaf-su02-r0 is named for SU 2 (every leaf carrying hosts has su<N> in its name and no host reaches leaves of two numbers) (high)" "dgx-005: SU 2"
expect_eq "$(jget "$TMP/out" "=len(d['inferences']['sus']['hosts'])")" 12 "one row per host"
expect_eq "$(jget "$TMP/out" "=len(d['inferences']['sus']['leaves'])")" 24 "one row per leaf"
expect_eq "$(jget "$TMP/out" "=sorted(set(h['evidence'].split(':')[0] for h in d['inferences']['sus']['hosts'] if h['node'] in ('dgx-045','dgx-046','dgx-047','dgx-048')))")" "['SU 3']" "the renamed hosts are all SU 3"
# tiers: what each rests on
expect_eq "$(tier_of spine-01)" "tier 2: 24 switch neighbour(s) at tier 1, 0 at tier 3, no endpoints (high)" "spine-01: tier 2 and why"
expect_eq "$(tier_of leaf-su03-r0)" "tier 1 (leaf): 4 compute endpoint(s), the fullest leaf holds 4; 16 switch neighbour(s) at tier 2 (high)" "leaf: tier 1 and why"
expect_eq "$(jget "$TMP/out" "=[t['tier'] for t in d['inferences']['tiers'] if t['node'] == 'spine-01'][0]")" 2 "JSON tier value"
# text
expect_rc 0 "$FL" info --explain "$TMP/site.ibnd"
expect_grep "$TMP/out" '^  scalable units of hosts \(from the site.s names\):$'
expect_grep "$TMP/out" '^    dgx-045: SU 3: its leaf leaf-su03-r0 is named for SU 3 .* \(confidence high\)$'
expect_grep "$TMP/out" '^    spine-01: tier 2: 24 switch neighbour\(s\) at tier 1, 0 at tier 3, no endpoints \(confidence high\)$'
# default output: no inferences (explain is opt-in)
expect_rc 0 "$FL" info "$TMP/site.ibnd"
expect_eq "$(grep -c 'inferences\|confidence' "$TMP/out")" 0 "info without --explain: unchanged"
expect_rc 0 "$FL" info --format json "$TMP/site.ibnd"
expect_eq "$(jget "$TMP/out" "='inferences' in d")" False "info JSON without --explain: unchanged"

# ---- the rails picture titles the SU as the site names it ----------------------------
# a clean fabric draws its first SU: SU 1 is the leaves named su01 and their
# hosts dgx-009..012 (grouping in node order drew dgx-045..048 as SU 1)
expect_rc 0 "$FL" check --format svg --view rails -o "$TMP/rails.svg" "$TMP/site.ibnd"
expect_eq "$(grep -o '<title>su&#45;SU+[0-9]*</title>' "$TMP/rails.svg")" '<title>su&#45;SU+1</title>' "rails picture: one SU drawn"
expect_eq "$(grep -o 'dgx-0[0-9]*' "$TMP/rails.svg" | sort -u | tr '\n' ' ')" "dgx-009 dgx-010 dgx-011 dgx-012 " "rails picture: SU 1 holds the hosts of the su01 leaves"
expect_eq "$(grep -c 'SU 2 to SU 3 (2): 32 NICs on 8 rails each' "$TMP/rails.svg")" 1 "rails picture: SU 2 and SU 3 (dgx-045..048) summed up in one line"

# ---- names that are not consistent: groups, and why ----------------------------------
# one leaf without su<N>
sed 's/leaf-su02-r5/leaf-x-r5/g' "$TMP/site.ibnd" >"$TMP/unnamed.ibnd"
expect_rc 0 "$FL" info --explain --format json "$TMP/unnamed.ibnd"
expect_eq "$(jget "$TMP/out" "['inferences']['sus']['source']")" groups "one unnamed leaf: groups"
expect_eq "$(su_of dgx-045)" "SU 3: leaf-su03-r0 and the leaves that share its hosts, numbered by the site's names (the 1st number in every leaf name is the same within each such group and differs between them); leaf leaf-x-r5 is named otherwise and left out (medium)" "unnamed leaf: the groups by cabling, numbered by the other leaves' names, and why"
# a host on leaves of two numbers (su02's r7 leaf renamed su01)
sed 's/leaf-su02-r7/leaf-su01-r7b/g' "$TMP/site.ibnd" >"$TMP/two.ibnd"
expect_rc 0 "$FL" info --explain --format json "$TMP/two.ibnd"
expect_eq "$(jget "$TMP/out" "['inferences']['sus']['source']")" groups "a host on two numbers: groups"
expect_eq "$(su_of dgx-005 | sed 's/.*not used: //')" "dgx-005 reaches leaves named su2 and su1 (low)" "two numbers: which host, which numbers"
# no names at all: groups at medium confidence
sed 's/leaf-su0\([0-9]\)-r\([0-9]\)/leaf-\1-\2/g' "$TMP/site.ibnd" >"$TMP/nonames.ibnd"
expect_rc 0 "$FL" info --explain --format json "$TMP/nonames.ibnd"
expect_eq "$(su_of dgx-045)" "SU 3: leaf-3-0 and the leaves that share its hosts, numbered by the site's names (the 1st number in every leaf name is the same within each such group and differs between them) (high)" "no su<N>, leaf-<SU>-<rail>: groups numbered by the names"
# the same without a number per SU in the names (leaf-<rail>-<serial>):
# groups in node order
python3 - "$TMP/nonames.ibnd" >"$TMP/serial.ibnd" <<'PY'
import re, sys
k = [0]
def ser(m):
    k[0] += 1
    return "leaf-r%s-n%d" % (m.group(2), k[0])
sys.stdout.write(re.sub(r"leaf-(\d)-(\d)", ser, open(sys.argv[1]).read()))
PY
expect_rc 0 "$FL" info --format json --explain "$TMP/serial.ibnd"
expect_grep "$TMP/out" 'numbered by their first leaf in node order; no leaf has su<N> in its name'
expect_eq "$(jget "$TMP/out" "=sorted(set(h['evidence'].split(':')[0] for h in d['inferences']['sus']['hosts']))")" "['SU 1', 'SU 2', 'SU 3']" "serial names: SUs 1 to 3, in node order"

# ---- a sparse leaf: the half-of-the-fullest boundary ---------------------------------
# leaf-su02-r0 carries the mlx5_0 NICs of dgx-005..008; NICs with a service
# role are no compute endpoints. 2 of 4 left: exactly half, still a full
# leaf (high); 1 of 4: fewer than half, a leaf by its spines (medium)
printf 'node,role\ndgx-005 mlx5_0,storage\ndgx-006 mlx5_0,storage\n' >"$TMP/half.csv"
expect_rc 0 "$FL" info --explain --format json "$TMP/site.ibnd" "$TMP/half.csv"
expect_eq "$(tier_of leaf-su02-r0)" "tier 1 (leaf): 2 compute endpoint(s), the fullest leaf holds 4; 16 switch neighbour(s) at tier 2 (high)" "exactly half the fullest leaf: high"
printf 'dgx-007 mlx5_0,storage\n' >>"$TMP/half.csv"
expect_rc 0 "$FL" info --explain --format json "$TMP/site.ibnd" "$TMP/half.csv"
expect_eq "$(tier_of leaf-su02-r0)" "tier 1 (leaf): 1 compute endpoint(s), the fullest leaf holds 4 (fewer than half: a leaf because a full leaf reaches all its switch neighbours); 16 switch neighbour(s) at tier 2 (medium)" "one past: fewer than half, medium"

# ---- pinned: a tier or an SU given by annotations -----------------------------------
printf 'node,tier,su\nspine-01,2,\ndgx-045,,7\n' >"$TMP/pins.csv"
expect_rc 0 "$FL" info --explain --format json "$TMP/site.ibnd" "$TMP/pins.csv"
expect_eq "$(tier_of spine-01)" "tier 2: given by an input (tier attribute) (given)" "tier pinned"
expect_eq "$(su_of dgx-045)" "SU 7: given by an input (su attribute) (given)" "SU pinned"

finish
