# SPDX-License-Identifier: MIT
# JSON output is consistent (a port is always a number, names always
# strings, fixes and suppressions in one shape) and described by
# schema/findings.schema.json: every fixture's `check --format json`
# (every rule, opt-in ones included) and `diff --format json` validates,
# and the schema does refuse the inconsistencies it is there for.
. "$(dirname "$0")/lib.bash"
PY=/usr/bin/python3 # Debian's, with python3-jsonschema (setup.sh)
SCHEMA="$FL_SRC/schema/findings.schema.json"
ALL='topology,deadlock,rail-alignment,ecmp-balance,adaptive-routing,failure-domains'
n=0
for f in "$FL_SRC"/fabrics/*.ibnetdiscover "$FL_SRC"/fabrics/*/*.ibnetdiscover \
  "$FL_SRC"/fabrics/*/*.xml "$FL_SRC"/tests/data/cases/plans/*.xml \
  "$FL_SRC"/tests/data/cases/roce/*.xml "$FL_SRC"/tests/data/cases/*/*.topo \
  "$FL_SRC"/tests/fixtures/ibsim-faults/*.ibnetdiscover \
  "$FL_EXTERNAL"/*.out "$FL_EXTERNAL"/*.topo; do
  [ -r "$f" ] || continue
  n=$((n + 1))
  "$FL" check --rules "$ALL" --format json "$f" > "$TMP/c$n.json" 2> "$TMP/c$n.err"
  rc=$?
  # an input the loaders refuse (exit 2, a fixture of bad input) has no report
  if [ "$rc" -eq 2 ]; then rm -f "$TMP/c$n.json"; continue; fi
  [ "$rc" -le 1 ] || fail "check of $f exited $rc"
done
# routing inputs: LFTs, SL2VL and AR tables with their topologies
R="$FL_SRC/tests/fixtures/routing"
for d in "$R"/*/; do
  [ -r "$d/fabric.net" ] && [ -r "$d/opensm-lfts.dump" ] || continue
  n=$((n + 1))
  "$FL" check --rules "$ALL" --format json "$d/fabric.net" "$d/opensm-lfts.dump" > "$TMP/c$n.json" 2> "$TMP/c$n.err"
  [ $? -le 1 ] || { fail "check of $d"; rm -f "$TMP/c$n.json"; }
done
# diff: plans against as-builts (moves, swaps, missing, Ethernet labels)
P="$FL_SRC/tests/data/cases/plans"
for pair in "f07-plan-with-racks.xml f07-moved.ibnetdiscover" \
  "small-plan.xml f05-unplugged-hca.ibnetdiscover" \
  "small-plan.xml f06-other-guids.ibnetdiscover"; do
  set -- $pair
  n=$((n + 1))
  "$FL" diff --format json "$P/$1" "$P/$2" > "$TMP/c$n.json" 2> "$TMP/c$n.err"
  [ $? -le 1 ] || { fail "diff $pair"; rm -f "$TMP/c$n.json"; }
done
RC="$FL_SRC/tests/data/cases/roce"
# (repository cases: a missing one fails, it is never skipped)
n=$((n + 1))
"$FL" diff --format json "$RC/roce-design-swapped.xml" "$RC/lldp" > "$TMP/c$n.json" 2> "$TMP/c$n.err"
[ $? -le 1 ] || { fail "diff roce: $(head -2 "$TMP/c$n.err")"; rm -f "$TMP/c$n.json"; }
# back-to-back hosts (topology.direct-port-index evidence: ports and labels)
C9="$FL_SRC/tests/data/cases/c09-triangle-port-index/asbuilt"
n=$((n + 1))
"$FL" check --rules "$ALL" --format json "$C9" > "$TMP/c$n.json" 2> "$TMP/c$n.err"
[ $? -le 1 ] || { fail "check c09: $(head -2 "$TMP/c$n.err")"; rm -f "$TMP/c$n.json"; }
expect_eq "$(grep -c '"a_port": [0-9]' "$TMP/c$n.json" 2>/dev/null | awk '$1 > 0 {print "yes"}')" "yes" "direct-port-index ports validated"
set -- "$TMP"/c*.json
echo "validating $# reports"
expect_eq "$([ $# -ge 40 ] && echo many)" "many" "reports to validate ($#)"
if $PY - "$SCHEMA" "$@" <<'EOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
v = cls(schema)
bad = 0
for p in sys.argv[2:]:
    for e in sorted(v.iter_errors(json.load(open(p))), key=str)[:3]:
        print(p, "/".join(map(str, e.absolute_path)), e.message[:300], file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
EOF
then pass; else fail "JSON output does not validate against $SCHEMA"; fi
# the reports exercise what the schema is about: fixes, labels, evidence ports
expect_eq "$(cat "$@" | grep -c '"fix": {' | awk '$1 > 0 {print "yes"}')" "yes" "a fix validated"
expect_eq "$(cat "$@" | grep -c '"label": ' | awk '$1 > 0 {print "yes"}')" "yes" "a labelled port validated"
expect_eq "$(cat "$@" | grep -cE '"(leaf|now|fix)_port": [0-9]' | awk '$1 > 0 {print "yes"}')" "yes" "evidence ports validated"

# the schema refuses a port given as a string (in ports, in evidence, in a
# fix), a node that is not a string, and a misspelt key
f02="$TMP/f02.json"
"$FL" check --format json "$FL_SRC/tests/data/cases/plans/f02-swap.xml" > "$f02"
# (one interpreter for the seven: it prints one line per mutation,
# "refused" or "accepted", in order)
BAD=("d['findings'][0]['ports'][0]['port'] = '1'"
  "d['findings'][0]['evidence']['cables'][0]['now_port'] = '2'"
  "d['findings'][0]['fix']['changes'][0]['to']['port'] = '2'"
  "d['findings'][0]['fix']['changes'][0]['from'] = 'leaf'"
  "d['findings'][0]['nodes'][0] = 7"
  "d['findings'][0]['evidence']['nic'] = {'node': 3}"
  "d['findings'][0]['fixes'] = d['findings'][0].pop('fix')")
$PY - "$SCHEMA" "$f02" "${BAD[@]}" >"$TMP/bad.out" <<'EOF'
import copy, json, sys, jsonschema
schema, d0 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d0["findings"][0]["rule"] == "rail-alignment.swapped"
cls = jsonschema.validators.validator_for(schema)
v = cls(schema)
for bad in sys.argv[3:]:
    d = copy.deepcopy(d0)
    exec(bad)
    print("refused" if list(v.iter_errors(d)) else "accepted")
EOF
i=0
for bad in "${BAD[@]}"; do
  i=$((i + 1))
  [ "$(sed -n ${i}p "$TMP/bad.out")" = refused ] && pass || fail "the schema accepts: $bad"
done
finish
