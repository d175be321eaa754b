# SPDX-License-Identifier: MIT
# --write-baseline / --baseline: accepted findings are marked, not counted;
# only new ones fail the run; fingerprints ignore line numbers; the file is
# deterministic and sorted.
. "$(dirname "$0")/lib.bash"
EX="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out
# The capture's leaves lack 2-4 uplinks their peers have (topology.missing-uplinks,
# judged TRUE in docs/real-fabrics.md); here it serves as a fabric otherwise clean
# under the topology rules, so that rule is held to 1.2:1.
PL="--no-builtin-plugins --plugin $FL_BUILD/plugins/topology.so --param topology.missing-uplinks.max-ratio=1.2"
sed '11d' "$EX" > "$TMP/one.out"       # one one-sided cable
sed '11d;30d' "$EX" > "$TMP/two.out"   # ... and a second one

# adopt the gate: write the baseline of today's fabric
expect_rc 0 "$FL" check $PL --exit-zero --write-baseline "$TMP/base.json" "$TMP/one.out"
expect_eq "$(jget "$TMP/base.json" "['fabriclint_baseline']")" 1 "baseline version"
expect_eq "$(jget "$TMP/base.json" "=[(f['rule'], len(f['fingerprint'])) for f in d['findings']]")" "[('topology.one-sided-link', 16)]" "baseline entries"
expect_eq "$(jget "$TMP/base.json" "=sorted(d['findings'][0])")" "['fingerprint', 'key', 'message', 'rule']" "entry fields"
# deterministic: the same findings give the same bytes, ending with a newline
"$FL" check $PL --exit-zero --write-baseline "$TMP/base2.json" "$TMP/one.out" >/dev/null
if cmp -s "$TMP/base.json" "$TMP/base2.json"; then pass; else fail "baseline differs between runs"; fi
expect_eq "$(tail -c 1 "$TMP/base.json" | od -An -c | tr -d ' ')" '\n' "trailing newline"

# with the baseline the same fabric passes; the finding is shown, marked
expect_rc 0 "$FL" check $PL --baseline "$TMP/base.json" "$TMP/one.out"
expect_grep "$TMP/out" 'error: .* \[baseline\] \[topology.one-sided-link\]$'
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; [0-9]+ rule\(s\) run; 1 in the baseline \(not counted\)$'
expect_rc 0 "$FL" check $PL --baseline "$TMP/base.json" -q "$TMP/one.out"
expect_eq "$(wc -c < "$TMP/out")" 0 "-q hides baseline findings"

# lines moved (comments added on top): still matched
{ echo "# re-captured"; echo "#"; echo "#"; cat "$TMP/one.out"; } > "$TMP/moved.out"
expect_rc 0 "$FL" check $PL --baseline "$TMP/base.json" "$TMP/moved.out"

# a new finding fails the run; only it counts
expect_rc 1 "$FL" check $PL --baseline "$TMP/base.json" --format json "$TMP/two.out"
expect_eq "$(jget "$TMP/out" "['summary']")" "{'error': 1, 'warning': 0, 'info': 0, 'baseline': 1}" "summary with baseline"
expect_eq "$(jget "$TMP/out" "=[f.get('baseline', False) for f in d['findings']]")" "[False, True]" "baseline markers"
expect_rc 1 "$FL" check $PL --baseline "$TMP/base.json" --format sarif "$TMP/two.out"
expect_eq "$(jget "$TMP/out" "=[x['baselineState'] for x in d['runs'][0]['results']]")" "['new', 'unchanged']" "sarif baselineState"
expect_rc 1 "$FL" check $PL --baseline "$TMP/base.json" --format junit "$TMP/two.out"
expect_grep "$TMP/out" 'failures="1"'
expect_grep "$TMP/out" '\[baseline\]'

# the baseline is a multiset: two identical findings need two entries; the
# writer sorts by rule, key and message (not by line) -> diff-friendly
expect_rc 0 "$FL" check $PL --exit-zero --write-baseline "$TMP/base3.json" "$TMP/two.out"
expect_eq "$(jget "$TMP/base3.json" "=[f['key'] for f in d['findings']] == sorted(f['key'] for f in d['findings'])")" True "sorted by key"
expect_rc 0 "$FL" check $PL --baseline "$TMP/base3.json" "$TMP/two.out"
# updating in place: read, then rewritten
cp "$TMP/base.json" "$TMP/upd.json"
expect_rc 1 "$FL" check $PL --baseline "$TMP/upd.json" --write-baseline "$TMP/upd.json" "$TMP/two.out"
if cmp -s "$TMP/upd.json" "$TMP/base3.json"; then pass; else fail "updated baseline differs from a fresh one"; fi

# broken baselines: exit 2 naming the file
echo '{"findings": []}' > "$TMP/nover.json"
expect_rc 2 "$FL" check $PL --baseline "$TMP/nover.json" "$TMP/one.out"
expect_grep "$TMP/err" 'nover.json: not a fabriclint baseline'
echo '{"fabriclint_baseline": 1, "findings": [{"rule": "x"}]}' > "$TMP/nofp.json"
expect_rc 2 "$FL" check $PL --baseline "$TMP/nofp.json" "$TMP/one.out"
expect_grep "$TMP/err" 'baseline entry 1 has no "fingerprint"'
echo '{"fabriclint_baseline": 1,' > "$TMP/trunc.json"
expect_rc 2 "$FL" check $PL --baseline "$TMP/trunc.json" "$TMP/one.out"
expect_grep "$TMP/err" 'trunc.json:[0-9]+(:[0-9]+)?: cannot read baseline'
expect_rc 2 "$FL" check $PL --baseline "$TMP/none.json" "$TMP/one.out"
expect_rc 2 "$FL" check $PL --write-baseline "$TMP/no/such/dir/b.json" "$TMP/one.out"
finish
