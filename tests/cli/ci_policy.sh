# SPDX-License-Identifier: MIT
# --policy FILE (YAML): rule selection, severity overrides, typed parameters,
# waivers with expiry; every mistake is exit 2 with file:line:col.
. "$(dirname "$0")/lib.bash"
EX="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out
PY=/usr/bin/python3
# The capture's leaves lack 2-4 uplinks their peers have (topology.missing-uplinks,
# judged TRUE in docs/real-fabrics.md); here it serves as a fabric otherwise clean
# under the topology rules, so that rule is held to 1.2:1.
PL="--no-builtin-plugins --plugin $FL_BUILD/plugins/topology.so --plugin $FL_BUILD/tests/plugins/good.so --param topology.missing-uplinks.max-ratio=1.2"
NTOPO=$("$FL" rules --no-builtin-plugins --plugin "$FL_BUILD/plugins/topology.so" --format json | $PY -c 'import json,sys; print(len(json.load(sys.stdin)["plugins"][0]["rules"]))')
sed '11d;30d' "$EX" > "$TMP/two.out" # two one-sided cables (errors)

cat > "$TMP/policy.yaml" <<'EOF'
# fabriclint policy for the test fabric
version: 1
rules:
  disable: [topology.self-loop]
severity:
  "tp-good.*": error
params:
  topology.degraded-link:
    expected-width: 4
waivers:
  - rule: topology.one-sided-link
    nodes: ["a08-p1-dgx-04-c01 *"]
    reason: "RMA 4711: the HCA cable is replaced on 3 June"
    expires: 2025-12-31
    ticket: RMA-4711
  - rule: topology.one-sided-link
    ports: ["MF0;A10-P1-IBSPINE-03:MQM9701/U1/31"]
    reason: "spine 03 port 31 flaps"
    expires: 2025-01-31
  - rule: topology.duplicate-guid
    nodes: [nosuch]
    reason: "left over"
    expires: 2030-01-01
EOF

# On 2025-06-01 the first waiver holds, the second has expired: its finding
# counts again and the expired waiver is a warning at its line and column
# (16:5, the waiver's first key); the
# third matches nothing (info). tp-good's warning is raised to an error.
export FABRICLINT_TODAY=2025-06-01
expect_rc 1 "$FL" check $PL --policy "$TMP/policy.yaml" "$TMP/two.out"
expect_grep "$TMP/out" "^2 error\(s\), 1 warning\(s\), 1 info; $NTOPO rule\(s\) run; 1 waived \(not shown\)$"
expect_grep "$TMP/out" "policy.yaml:16:5: warning: waiver for topology.one-sided-link expired on 2025-01-31 \(1 finding\(s\) it matches count again\).* \[policy.expired-waiver\]$"
expect_grep "$TMP/out" "policy.yaml:20:5: info: waiver for topology.duplicate-guid matches no finding.* \[policy.unused-waiver\]$"
expect_grep "$TMP/out" "error: test finding.* \[tp-good.probe\]$"
expect_grep "$TMP/out" "error: cable MF0;A10-P1-IBSPINE-03.* \[topology.one-sided-link\]$"
if grep -q "a08-p1-dgx-04-c01 mlx5_5 port 1 ->" "$TMP/out"; then fail "a waived finding is shown in text"; else pass; fi

# JSON: the waived finding is there, marked; the summary counts it apart
expect_rc 1 "$FL" check $PL --policy "$TMP/policy.yaml" --format json "$TMP/two.out"
expect_eq "$(jget "$TMP/out" "['summary']")" "{'error': 2, 'warning': 1, 'info': 1, 'suppressed': 1}" "json summary"
expect_eq "$(jget "$TMP/out" "=[f['suppressed'] for f in d['findings'] if 'suppressed' in f]")" \
  "[{'kind': 'waiver', 'reason': 'RMA 4711: the HCA cable is replaced on 3 June', 'expires': '2025-12-31', 'policy': '$TMP/policy.yaml:11:5'}]" "json suppressed marker"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['location']['line']) for f in d['findings'] if f['rule'].startswith('policy.')]")" \
  "[('policy.expired-waiver', 16), ('policy.unused-waiver', 20)]" "policy findings"

# SARIF: the waived result carries a suppression; the log still validates
expect_rc 1 "$FL" check $PL --policy "$TMP/policy.yaml" --format sarif "$TMP/two.out"
cp "$TMP/out" "$TMP/p.sarif"
expect_eq "$(jget "$TMP/p.sarif" "=[(x['ruleId'], x['suppressions']) for x in d['runs'][0]['results'] if 'suppressions' in x]")" \
  "[('topology.one-sided-link', [{'kind': 'external', 'status': 'accepted', 'justification': 'RMA 4711: the HCA cable is replaced on 3 June', 'properties': {'expires': '2025-12-31', 'policy': '$TMP/policy.yaml:11:5'}}])]" "sarif suppression"
expect_eq "$(jget "$TMP/p.sarif" "=sorted(r['id'] for r in d['runs'][0]['tool']['driver']['rules'] if r['id'].startswith('policy.'))")" \
  "['policy.expired-waiver', 'policy.unused-waiver']" "policy rules in the driver"
expect_eq "$(jget "$TMP/p.sarif" "=[r['defaultConfiguration']['level'] for r in d['runs'][0]['tool']['driver']['rules'] if r['id'] == 'tp-good.probe']")" "['error']" "overridden default level"
if $PY "$FL_SRC/tests/cli/sarif_validate.py" \
  "$FL_EXTERNAL/npm__microsoft-jest-sarif-1.0.0-beta.0__lib__schemas__sarif-2.1.0-rtm.5.json" "$TMP/p.sarif"; then pass; else fail "policy SARIF does not validate"; fi
expect_eq "$(jget "$TMP/p.sarif" "=[x['locations'][0]['physicalLocation']['region']['startLine'] for x in d['runs'][0]['results'] if x['ruleId'] == 'policy.expired-waiver']")" "[16]" "expired waiver line"

# JUnit: the waived finding is listed as such in <system-out>
expect_rc 1 "$FL" check $PL --policy "$TMP/policy.yaml" --format junit "$TMP/two.out"
expect_grep "$TMP/out" 'is listed only by .*\[waived\]'

# Before the second waiver expires both findings are waived: only tp-good fails
FABRICLINT_TODAY=2025-01-31 expect_rc 1 "$FL" check $PL --policy "$TMP/policy.yaml" "$TMP/two.out"
expect_grep "$TMP/out" "^1 error\(s\), 0 warning\(s\), 1 info; $NTOPO rule\(s\) run; 2 waived \(not shown\)$"
# ... and with tp-good disabled the run passes
sed 's/disable: \[topology.self-loop\]/disable: [topology.self-loop, tp-good]/' "$TMP/policy.yaml" > "$TMP/p2.yaml"
FABRICLINT_TODAY=2025-01-31 expect_rc 0 "$FL" check $PL --policy "$TMP/p2.yaml" "$TMP/two.out"
expect_grep "$TMP/out" "; $((NTOPO - 1)) rule\(s\) run; 2 waived"
expect_rc 2 env FABRICLINT_TODAY=2025-13-01 "$FL" check $PL --policy "$TMP/policy.yaml" "$TMP/two.out"

# parameters from the policy are used; --param on the command line wins
printf 'params:\n  topology.degraded-link:\n    expected-width: 8\n' > "$TMP/w8.yaml"
expect_rc 0 "$FL" check $PL --policy "$TMP/w8.yaml" --rules topology.degraded-link "$EX"
expect_grep "$TMP/out" '^0 error\(s\), [1-9][0-9]* warning\(s\)'
expect_rc 0 "$FL" check $PL --policy "$TMP/w8.yaml" --param topology.degraded-link.expected-width=4 --rules topology.degraded-link "$EX"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\)'
# a plugin name selects all its rules (params for a plugin, enable)
printf 'rules:\n  disable: [topology]\n' > "$TMP/off.yaml"
expect_rc 0 "$FL" check $PL --policy "$TMP/off.yaml" "$TMP/two.out"
expect_grep "$TMP/out" '; 1 rule\(s\) run$'

# ---- mistakes: exit 2, file:line:col, nothing run ---------------------------------------
bad() { # bad NAME YAML REGEX
  printf '%b' "$2" > "$TMP/$1.yaml"
  expect_rc 2 "$FL" check $PL --policy "$TMP/$1.yaml" "$TMP/two.out"
  expect_grep "$TMP/err" "$3"
  [ -s "$TMP/out" ] && fail "$1: a report was written" || pass
}
bad typo 'version: 1\nwaviers: []\n' \
  "typo.yaml:2:1: unknown key 'waviers' at the top of the policy \(known: version, rules, severity, params, waivers, max-waiver-days\); did you mean 'waivers'\?"
bad typo_nested 'rules:\n  enabel: [topology]\n' "typo_nested.yaml:2:3: unknown key 'enabel' in 'rules'.*did you mean 'enable'"
bad waiver_key 'waivers:\n  - rule: topology\n    reason: x\n    expires: 2030-01-01\n    node: [a]\n' "waiver_key.yaml:5:5: unknown key 'node' in a waiver.*did you mean 'nodes'"
bad blank_reason 'waivers:\n  - rule: topology\n    reason: "   "\n    expires: 2030-01-01\n' "blank_reason.yaml:2:5: a waiver's 'reason' is blank"
bad empty_reason 'waivers:\n  - rule: topology\n    reason: ""\n    expires: 2030-01-01\n' "empty_reason.yaml:2:5: a waiver's 'reason' is blank"
bad wrong_type 'params:\n  topology.degraded-link:\n    expected-width: four\n' \
  "wrong_type.yaml:3:21: params: topology.degraded-link.expected-width expects an integer, got 'four'"
bad quoted_int 'params:\n  topology.degraded-link:\n    expected-width: "4"\n' "quoted_int.yaml:3:21: .*expects an integer, got the quoted string '4'"
bad no_param 'params:\n  topology.degraded-link:\n    expected-witdh: 4\n' "no_param.yaml:3:5: params: 'topology.degraded-link' has no parameter 'expected-witdh'"
bad no_rule 'params:\n  topology.nosuch:\n    x: 1\n' "no_rule.yaml:2:3: params: no loaded rule or plugin 'topology.nosuch'"
bad list_param 'params:\n  topology.degraded-link:\n    expected-width: [4]\n' "list_param.yaml:3:21: parameter 'expected-width': expected a value, got a list"
bad no_match 'rules:\n  enable: ["nosuch.*"]\n' "no_match.yaml:2:12: rules.enable: 'nosuch.\*' matches no loaded rule"
bad bad_sev 'severity:\n  topology.lid: fatal\n' "bad_sev.yaml:2:17: severity of 'topology.lid': expected error, warning or info, got 'fatal'"
bad no_expiry 'waivers:\n  - rule: topology.lid\n    reason: x\n' "no_expiry.yaml:2:5: a waiver needs 'expires'"
bad no_reason 'waivers:\n  - rule: topology.lid\n    expires: 2030-01-01\n' "no_reason.yaml:2:5: a waiver needs 'reason'"
bad bad_date 'waivers:\n  - rule: topology.lid\n    reason: x\n    expires: 2030-02-30\n' "bad_date.yaml:4:14: waiver expires: '2030-02-30' is not a date YYYY-MM-DD"
bad dup_key 'rules:\n  enable: [topology]\nrules:\n  disable: [topology]\n' "dup_key.yaml:3:1: duplicate key 'rules'"
bad syntax 'rules: [\n' "syntax.yaml:2:1: YAML "
bad version 'version: 2\n' "version.yaml:1:10: version: only version 1 is known"
expect_rc 2 "$FL" check $PL --policy "$TMP/does-not-exist.yaml" "$TMP/two.out"
expect_grep "$TMP/err" "does-not-exist.yaml: cannot open policy"
# `rules --policy` checks a policy without a fabric
expect_rc 0 "$FL" rules $PL --policy "$TMP/policy.yaml"
expect_rc 2 "$FL" rules $PL --policy "$TMP/wrong_type.yaml"
expect_rc 2 "$FL" info --policy "$TMP/policy.yaml" "$TMP/two.out"
# an empty policy changes nothing
: > "$TMP/empty.yaml"
expect_rc 1 "$FL" check $PL --policy "$TMP/empty.yaml" "$TMP/two.out"
expect_grep "$TMP/out" "^2 error\(s\), 1 warning\(s\), 0 info; $((NTOPO + 1)) rule\(s\) run$"
# max-waiver-days: a waiver that outlives the limit is refused (exit 2,
# at its expires value), one within it is applied; the limit is counted
# from today (FABRICLINT_TODAY), inclusive
mw() { printf 'max-waiver-days: %s\nwaivers:\n  - rule: topology.one-sided-link\n    reason: "RMA 12"\n    expires: %s\n' "$1" "$2" > "$TMP/mw.yaml"; }
mw 90 2099-01-01
FABRICLINT_TODAY=2025-06-01 expect_rc 2 "$FL" check $PL --policy "$TMP/mw.yaml" "$TMP/two.out"
expect_grep "$TMP/err" "mw\.yaml:5:14: waiver for topology\.one-sided-link expires 2099-01-01, 26877 days after today \(2025-06-01\): longer than the policy's max-waiver-days 90 \(line 1\)"
expect_eq "$(wc -c < "$TMP/out")" "0" "no report when a waiver is refused"
mw 90 2025-08-30 # 90 days after 2025-06-01: allowed (it waives both cables)
FABRICLINT_TODAY=2025-06-01 expect_rc 0 "$FL" check $PL --policy "$TMP/mw.yaml" "$TMP/two.out"
expect_grep "$TMP/out" "^0 error\(s\), 1 warning\(s\), 0 info; $((NTOPO + 1)) rule\(s\) run; 2 waived \(not shown\)$"
mw 90 2025-08-31 # 91 days
FABRICLINT_TODAY=2025-06-01 expect_rc 2 "$FL" check $PL --policy "$TMP/mw.yaml" "$TMP/two.out"
expect_grep "$TMP/err" "expires 2025-08-31, 91 days after today"
mw 0 2025-06-01 # 0: only a waiver for today
FABRICLINT_TODAY=2025-06-01 expect_rc 0 "$FL" check $PL --policy "$TMP/mw.yaml" "$TMP/two.out"
for bad in -1 36501 "'90'" 9.5 "[90]"; do
  mw "$bad" 2025-06-02
  expect_rc 2 "$FL" check $PL --policy "$TMP/mw.yaml" "$TMP/two.out"
  expect_grep "$TMP/err" "mw\.yaml:1:18: max-waiver-days: expected a whole number of days from 0 to 36500"
done
finish
