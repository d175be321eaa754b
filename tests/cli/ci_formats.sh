# SPDX-License-Identifier: MIT
# CI output formats: SARIF 2.1.0 (official schema + GitHub's requirements),
# JUnit XML (parses, right counts), GitLab Code Quality, --exit-zero, -q,
# stable fingerprints and byte-identical output for every format.
. "$(dirname "$0")/lib.bash"
EX="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out
PY=/usr/bin/python3 # Debian's, with python3-jsonschema (setup.sh)
# the official SARIF 2.1.0 schema (tests/data/external/PROVENANCE.md)
SARIF_SCHEMA=npm__microsoft-jest-sarif-1.0.0-beta.0__lib__schemas__sarif-2.1.0-rtm.5.json
need_external "$SARIF_SCHEMA"
SCHEMA="$FL_EXTERNAL/$SARIF_SCHEMA"
# Only the topology plugin and the test plugin "good" (a finding with no
# location): the tests do not depend on which other plugins are built.
NTOPO=$("$FL" rules --no-builtin-plugins --plugin "$FL_BUILD/plugins/topology.so" --format json | $PY -c 'import json,sys; print(len(json.load(sys.stdin)["plugins"][0]["rules"]))')
N=$((NTOPO + 1)) # rules run: topology's and tp-good.probe
# The capture's leaves lack 2-4 uplinks their peers have (topology.missing-uplinks,
# judged TRUE in docs/real-fabrics.md); here it serves as a fabric otherwise clean
# under the topology rules, so that rule is held to 1.2:1.
PL="--no-builtin-plugins --plugin $FL_BUILD/plugins/topology.so --plugin $FL_BUILD/tests/plugins/good.so --param topology.missing-uplinks.max-ratio=1.2"

# two cables listed from one end only (lines 11 and 30 deleted) -> 2 errors,
# plus the test plugin's warning
sed '11d;30d' "$EX" > "$TMP/two.out"
expect_rc 1 "$FL" check $PL --format sarif "$TMP/two.out"
cp "$TMP/out" "$TMP/a.sarif"

# validates against the SARIF 2.1.0 schema
if $PY "$FL_SRC/tests/cli/sarif_validate.py" "$SCHEMA" "$TMP/a.sarif"
then pass; else fail "SARIF does not validate against $SCHEMA"; fi

# GitHub code scanning's own requirements and our promises, checked one by one
if $PY - "$TMP/a.sarif" "$TMP/two.out" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1])); run = d["runs"][0]
bad = []
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
if ids != sorted(ids): bad.append("rules not sorted by id")
for r in rules:
    for k in ("shortDescription", "fullDescription", "help"):
        if not r[k]["text"]: bad.append(r["id"] + " empty " + k)
    if r["defaultConfiguration"]["level"] not in ("note", "warning", "error"): bad.append("level")
if "topology.one-sided-link" not in ids or "tp-good.probe" not in ids: bad.append("rules missing")
res = run["results"]
if len(res) != 3: bad.append("want 3 results, got %d" % len(res))
uri_ok = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$")
for x in res:
    loc = x["locations"][0]["physicalLocation"]
    if not uri_ok.match(loc["artifactLocation"]["uri"]): bad.append("uri " + loc["artifactLocation"]["uri"])
    if loc["region"]["startLine"] < 1: bad.append("startLine")
    if ids[x["ruleIndex"]] != x["ruleId"]: bad.append("ruleIndex")
    if not re.match(r"^[0-9a-f]{16}:[0-9]+$", x["partialFingerprints"]["primaryLocationLineHash"]): bad.append("fp")
one = [x for x in res if x["ruleId"] == "topology.one-sided-link"]
if [x["level"] for x in one] != ["error", "error"]: bad.append("levels")
# the location is the line of the cable in the input, as an absolute file URI
if not one[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/two.out"): bad.append("uri file")
lines = open(sys.argv[2]).read().split("\n")
for x in one:
    ln = x["locations"][0]["physicalLocation"]["region"]["startLine"]
    # the port line of the cable: "[port]" ... "# <peer name>"
    port = x["properties"]["ports"][0]["port"]
    if not lines[ln - 1].startswith("[%d]" % port) or not any(n in lines[ln - 1] for n in x["properties"]["nodes"]):
        bad.append("line %d is not the cable's port line" % ln)
    names = [l["fullyQualifiedName"] for l in x["locations"][0]["logicalLocations"]]
    if x["properties"]["nodes"][0] not in names: bad.append("logical locations")
# a finding with no provenance points at line 1 of the first input
good = [x for x in res if x["ruleId"] == "tp-good.probe"][0]
if good["locations"][0]["physicalLocation"]["region"]["startLine"] != 1: bad.append("fallback line")
if run["invocations"][0]["executionSuccessful"] is not True: bad.append("executionSuccessful")
print("\n".join(bad), file=sys.stderr); sys.exit(1 if bad else 0)
EOF
then pass; else fail "SARIF misses GitHub's requirements"; fi

# fingerprints come from entity names, not lines: shifting every line keeps them
{ echo "# a comment line added on top"; echo "#"; cat "$TMP/two.out"; } > "$TMP/shifted.out"
"$FL" check $PL --format sarif "$TMP/shifted.out" > "$TMP/b.sarif"
FP='=[x["partialFingerprints"]["primaryLocationLineHash"] for x in d["runs"][0]["results"]]'
LN='=[x["locations"][0]["physicalLocation"]["region"]["startLine"] for x in d["runs"][0]["results"] if x["ruleId"] != "tp-good.probe"]'
expect_eq "$(jget "$TMP/b.sarif" "$FP")" "$(jget "$TMP/a.sarif" "$FP")" "fingerprints after a line shift"
expect_eq "$(jget "$TMP/b.sarif" "$LN")" "$(jget "$TMP/a.sarif" "=[n + 2 for n in $(jget "$TMP/a.sarif" "$LN")]")" "lines follow the shift"

# a clean fabric: valid SARIF with no results, exit 0
expect_rc 0 "$FL" check --no-builtin-plugins --plugin "$FL_BUILD/plugins/topology.so" --param topology.missing-uplinks.max-ratio=1.2 --format sarif "$EX"
expect_eq "$(jget "$TMP/out" "=len(d['runs'][0]['results'])")" 0 "clean results"
expect_eq "$(jget "$TMP/out" "=len(d['runs'][0]['tool']['driver']['rules'])")" "$NTOPO" "clean rules"

# a rule that could not run: exit 3, executionSuccessful false, JUnit <error>
expect_rc 3 "$FL" check $PL --plugin "$FL_BUILD/tests/plugins/check_fails.so" --format sarif "$TMP/two.out"
expect_eq "$(jget "$TMP/out" "['runs'][0]['invocations'][0]['executionSuccessful']")" False "executionSuccessful"
expect_grep "$TMP/out" 'rule tp-check-fails.probe could not run: the test plugin was told to fail'

# ---- JUnit ----------------------------------------------------------------------
JU='import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot(); s = t.find("testsuite")
cases = s.findall("testcase")
print(t.get("tests"), t.get("failures"), t.get("errors"), s.get("tests"), s.get("failures"), len(cases),
      sorted(c.get("name") for c in cases if c.find("failure") is not None),
      sorted(c.get("name") for c in cases if c.find("error") is not None),
      [len(c.find("failure").text.strip().split("\n")) for c in cases if c.find("failure") is not None],
      [c.get("classname") for c in cases if c.get("name") == "tp-good.probe"])'
expect_rc 1 "$FL" check $PL --format junit "$TMP/two.out"
cp "$TMP/out" "$TMP/a.xml"
# N rules run; one fails (2 errors, each a line plus a nodes line); the
# warning of tp-good is below --fail-on error: not a failure
expect_eq "$($PY -c "$JU" "$TMP/a.xml")" "$N 1 0 $N 1 $N ['topology.one-sided-link'] [] [4] ['tp-good']" "junit counts"
expect_grep "$TMP/a.xml" '<system-out>.*two.out:1: warning: test finding from tp-good'
need_tool xmllint
if xmllint --noout "$TMP/a.xml"; then pass; else fail "xmllint rejects the JUnit"; fi
# --fail-on warning: the warning fails its case too
expect_rc 1 "$FL" check $PL --format junit --fail-on warning "$TMP/two.out"
expect_eq "$($PY -c "$JU" "$TMP/out")" "$N 2 0 $N 2 $N ['topology.one-sided-link', 'tp-good.probe'] [] [4, 1] ['tp-good']" "junit --fail-on warning"
expect_rc 3 "$FL" check $PL --plugin "$FL_BUILD/tests/plugins/check_fails.so" --format junit "$TMP/two.out"
expect_eq "$($PY -c "$JU" "$TMP/out")" "$((N + 1)) 1 1 $((N + 1)) 1 $((N + 1)) ['topology.one-sided-link'] ['tp-check-fails.probe'] [4] ['tp-good']" "junit error"

# ---- GitLab Code Quality ------------------------------------------------------------
expect_rc 1 "$FL" check $PL --format codequality "$TMP/two.out"
expect_eq "$(jget "$TMP/out" "=sorted((x['check_name'], x['severity']) for x in d)")" \
  "[('topology.one-sided-link', 'critical'), ('topology.one-sided-link', 'critical'), ('tp-good.probe', 'major')]" "codequality"
expect_eq "$(jget "$TMP/out" "=len(set(x['fingerprint'] for x in d))")" 3 "codequality fingerprints unique"
expect_eq "$(jget "$TMP/out" "=all(x['location']['lines']['begin'] >= 1 and x['location']['path'] for x in d)")" True "codequality locations"

# ---- exit codes and -q ------------------------------------------------------------------
expect_rc 0 "$FL" check $PL --exit-zero "$TMP/two.out"
expect_grep "$TMP/out" "^2 error\\(s\\), 1 warning\\(s\\), 0 info; $N rule\\(s\\) run\$"
expect_rc 0 "$FL" check $PL --exit-zero --format sarif "$TMP/two.out"
expect_rc 3 "$FL" check $PL --exit-zero --plugin "$FL_BUILD/tests/plugins/check_fails.so" "$TMP/two.out"
expect_rc 2 "$FL" check $PL --exit-zero "$TMP/does-not-exist"
expect_rc 1 "$FL" check $PL -q "$TMP/two.out"
expect_eq "$(wc -l < "$TMP/out")" 3 "-q prints one line per finding"
expect_rc 2 "$FL" check $PL --format xml "$TMP/two.out"
expect_grep "$TMP/err" "expected text, json, sarif, junit, codequality, dot, svg or html"
expect_rc 2 "$FL" info --format sarif "$TMP/two.out"
expect_grep "$TMP/err" "'info' writes text or json only"
expect_rc 2 "$FL" rules --baseline "$TMP/x"

# ---- byte-identical output for identical inputs, every format -------------------------
for f in text json sarif junit codequality; do
  "$FL" check $PL --format $f --exit-zero "$TMP/two.out" > "$TMP/r1.$f"
  "$FL" check $PL --format $f --exit-zero --output "$TMP/r2.$f" "$TMP/two.out"
  if cmp -s "$TMP/r1.$f" "$TMP/r2.$f" && [ -s "$TMP/r1.$f" ]; then pass; else fail "$f output differs between runs"; fi
done
# ... also with all the built-in plugins (the fabric of a generated plan)
"$FL" gen fat-tree --radix 8 -o "$TMP/ft.xml"
for f in json sarif junit; do
  "$FL" check --format $f --exit-zero "$TMP/ft.xml" > "$TMP/g1.$f" 2>/dev/null
  "$FL" check --format $f --exit-zero "$TMP/ft.xml" > "$TMP/g2.$f" 2>/dev/null
  if cmp -s "$TMP/g1.$f" "$TMP/g2.$f"; then pass; else fail "$f output of all plugins differs between runs"; fi
done
finish
