# SPDX-License-Identifier: MIT
# `fabriclint explain RULE` / `rules --help RULE`: a rule's full help, its
# own parameters with units and defaults, what it needs, its docs page and
# an example; unknown names exit 2 with the closest rule ids. `rules` shows
# each rule's own parameters, and --rules filters plugin headers too.
. "$(dirname "$0")/lib.bash"

expect_rc 0 "$FL" explain ecmp-balance.link-load
cp "$TMP/out" "$TMP/x.txt"
expect_grep "$TMP/x.txt" '^ecmp-balance.link-load: link loads and effective bisection bandwidth under traffic patterns$'
expect_grep "$TMP/x.txt" '^  plugin    ecmp-balance 0\.1\.0 \(fabriclint, MIT\)$'
expect_grep "$TMP/x.txt" '^  severity  info$'
expect_grep "$TMP/x.txt" '^  runs      when selected \(opt-in\): --rules ecmp-balance.link-load'
# the published docs of this release (CMake FABRICLINT_DOCS_URL), not a
# local path (issue 36)
expect_grep "$TMP/x.txt" '^  docs      https://[^ ]+/v[0-9]+\.[0-9]+\.[0-9]+/docs/rules/ecmp-balance\.md#ecmp-balance\.link-load$'
expect_grep "$TMP/x.txt" '^  One finding per pattern: eBB as in Hoefler et al\.'
# exactly its own seven parameters, with type, range, default and unit
expect_eq "$(grep -E '^  [a-z-]+=<' "$TMP/x.txt" | sed 's/=.*//' | tr -d ' ' | tr '\n' ' ')" "routing patterns count seed shift top-links min-ebb link-loads ci " "link-load parameters"
expect_grep "$TMP/x.txt" '^  count=<int> \[1\.\.1000000\]  default 100 patterns$'
expect_grep "$TMP/x.txt" '^  fabriclint check --rules ecmp-balance.link-load topo.ibnetdiscover$'
expect_grep "$TMP/x.txt" '^      routing: auto$'
# needs: LFTs for a routing rule
expect_rc 0 "$FL" explain deadlock.forwarding-loop
expect_grep "$TMP/out" 'and LFTs \(opensm-lfts\.dump'
expect_grep "$TMP/out" '^  fabriclint check --rules deadlock.forwarding-loop topo.ibnetdiscover opensm-lfts.dump$'
expect_eq "$(grep -cE '^  [a-z-]+=<' "$TMP/out")" "5" "forwarding-loop parameters"
expect_rc 0 "$FL" explain deadlock.credit-loop
expect_eq "$(grep -E '^  [a-z-]+=<' "$TMP/out" | sed 's/=.*//' | tr -d ' ' | tr '\n' ' ')" "traffic vl-mode routing routing-engine " "credit-loop parameters"
expect_rc 0 "$FL" explain ecmp-balance.uplink-asymmetry
expect_grep "$TMP/out" '^  \(none\)$'

# rules --help RULE is explain RULE; rules --help alone is the help of
# rules, which names that form
expect_rc 0 "$FL" rules --help ecmp-balance.link-load
expect_eq "$(cmp -s "$TMP/out" "$TMP/x.txt" && echo same)" "same" "rules --help RULE"
expect_rc 0 "$FL" rules --help
expect_grep "$TMP/out" '^usage: fabriclint rules \[OPTIONS\]$'
expect_eq "$(tr '\n' ' ' < "$TMP/out" | grep -c 'fabriclint rules --help RULE\.\.\.` is `fabriclint explain RULE\.\.\.`')" 1 "rules --help names explain"
# ... and the help of fabriclint lists explain
expect_rc 0 "$FL" --help
expect_grep "$TMP/out" '^  explain \[OPTIONS\] RULE\.\.\. +a rule.s full help'

# the core's rules and a plugin name
expect_rc 0 "$FL" explain diff.swapped policy.expired-waiver
expect_grep "$TMP/out" '^diff.swapped: two cables are crossed$'
expect_grep "$TMP/out" '^  fabriclint diff --rules diff.swapped plan.xml asbuilt.ibnetdiscover$'
expect_grep "$TMP/out" '^  docs      https://[^ ]+/docs/ci\.md#policy\.expired-waiver$'
expect_rc 0 "$FL" explain rail-alignment
expect_eq "$(grep -c '^rail-alignment\.[a-z-]*: ' "$TMP/out")" "12" "every rail rule"

# unknown: exit 2 with the closest ids
expect_rc 2 "$FL" explain rail-alignment.swaped
expect_grep "$TMP/err" "^fabriclint: unknown rule 'rail-alignment.swaped'; closest: rail-alignment.swapped$"
expect_eq "$(wc -c < "$TMP/out")" "0" "nothing printed for an unknown rule"
expect_rc 2 "$FL" explain swapped
expect_grep "$TMP/err" "unknown rule 'swapped'; closest: rail-alignment.swapped, diff.swapped$"
expect_rc 2 "$FL" explain topology.lid zzzzzzzz
expect_grep "$TMP/err" "^fabriclint: unknown rule 'zzzzzzzz'$"
expect_rc 2 "$FL" explain
expect_grep "$TMP/err" 'explain: which rule\?'

# JSON: the descriptor, plugin, docs and examples
expect_rc 0 "$FL" explain --format json adaptive-routing.coverage
expect_eq "$(jget "$TMP/out" "=[(r['id'], r['plugin'], [p['name'] for p in r['params']], r['docs'].endswith('adaptive-routing.md#adaptive-routing.coverage'), r['example'][0]) for r in d['rules']]")" \
  "[('adaptive-routing.coverage', 'adaptive-routing', ['threshold'], True, 'fabriclint check --rules adaptive-routing.coverage topo.ibnetdiscover')]" "explain json"

# a third-party plugin's rule: explained, no docs line
expect_rc 0 "$FL" explain --plugin "$FL_BUILD/tests/plugins/good.so" tp-good.probe
expect_grep "$TMP/out" '^tp-good.probe: '
expect_eq "$(grep -c '^  docs ' "$TMP/out")" "0" "no docs page for a vendor rule"

# a rule whose plugin's page exists but has no anchor for it: no docs line,
# no helpUri (a link must land on the rule, not on some page)
UNDOC="--no-builtin-plugins --plugin $FL_BUILD/tests/plugins/undocumented.so"
expect_rc 0 "$FL" explain $UNDOC topology.probe
expect_eq "$(grep -c '^  docs ' "$TMP/out")" "0" "no anchor, no docs line"
expect_rc 0 "$FL" check $UNDOC --format sarif "$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover" # a warning
expect_eq "$(jget "$TMP/out" "=[(r['id'], 'helpUri' in r) for r in d['runs'][0]['tool']['driver']['rules']]")" "[('topology.probe', False)]" "no anchor, no helpUri"

# rules: each rule's own parameters; a parameter of another rule is refused
expect_rc 0 "$FL" rules --format json
expect_eq "$(jget "$TMP/out" "=[(r['id'], len(r['params'])) for p in d['plugins'] if p['name'] == 'ecmp-balance' for r in p['rules']]")" \
  "[('ecmp-balance.uplink-asymmetry', 0), ('ecmp-balance.oversubscription', 1), ('ecmp-balance.mixed-speed-group', 1), ('ecmp-balance.group-width', 2), ('ecmp-balance.port-imbalance', 3), ('ecmp-balance.link-load', 9), ('ecmp-balance.summary', 9)]" "ecmp params per rule"
expect_eq "$(jget "$TMP/out" "=[(r['id'], [x['name'] for x in r['params']]) for p in d['plugins'] if p['name'] == 'adaptive-routing' for r in p['rules']]")" \
  "[('adaptive-routing.disabled', []), ('adaptive-routing.partial-group', []), ('adaptive-routing.coverage', ['threshold']), ('adaptive-routing.sl-restricted', ['required-sl-mask', 'sl-mask']), ('adaptive-routing.summary', [])]" "ar params per rule"
EX="$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
expect_rc 2 "$FL" check --param ecmp-balance.uplink-asymmetry.patterns=shift "$EX"
expect_grep "$TMP/err" "rule 'ecmp-balance.uplink-asymmetry' has no parameter 'patterns'"
expect_rc 2 "$FL" check --param deadlock.credit-loop.max-examples=5 "$EX"
# a plugin-wide value still reaches the rules that have the parameter
expect_rc 1 "$FL" check --param deadlock.max-examples=5 --param ecmp-balance.patterns=shift "$EX"
expect_rc 0 "$FL" rules
expect_eq "$(grep -c -- '--param ecmp-balance.uplink-asymmetry\.' "$TMP/out")" "0" "no parameter listed under uplink-asymmetry"
expect_eq "$(grep -c -- '--param ecmp-balance.link-load\.' "$TMP/out")" "9" "link-load's nine"
# --rules filters the plugin headers too; a pattern matching nothing exits 2
expect_rc 0 "$FL" rules --rules 'rail-alignment.*'
expect_eq "$(grep -c '^[a-z]' "$TMP/out")" "1" "one plugin header"
expect_grep "$TMP/out" '^rail-alignment 0\.1\.0 '
expect_rc 0 "$FL" rules --rules 'rail-alignment.*' --format json
expect_eq "$(jget "$TMP/out" "=[p['name'] for p in d['plugins']]")" "['rail-alignment']" "json plugins filtered"
expect_rc 2 "$FL" rules --rules 'nothing.*'
expect_grep "$TMP/err" "--rules 'nothing\.\*' selects no loaded rule"
expect_rc 2 "$FL" rules topology.lid
expect_grep "$TMP/err" "rules takes no arguments, got 'topology.lid' \(to list some rules only: --rules PATTERN; for one rule: fabriclint explain RULE\)"
finish
