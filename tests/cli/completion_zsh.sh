# SPDX-License-Identifier: MIT
# zsh completion (build/share/zsh/site-functions/_fabriclint, made at build
# time by `fabriclint help --completion zsh`): a real interactive zsh with
# compinit completes command lines in a pseudo-terminal (zsh_complete.zsh)
# and the matches it adds are compared with what the executable lists.
# SKIP (77) without zsh.
. "$(dirname "$0")/lib.bash"
command -v zsh >/dev/null || { echo "SKIP: zsh is not installed (setup.sh installs it)"; exit 77; }
FN="$FL_BUILD/share/zsh/site-functions/_fabriclint"
[ -r "$FN" ] || { fail "not built: $FN"; finish; exit 1; }
expect_eq "$(cmp -s "$FN" <("$FL" help --completion zsh) && echo same)" same "built file = help --completion zsh"
zsh -n "$FN" && pass || fail "zsh -n $FN"
expect_eq "$(head -1 "$FN")" "#compdef fabriclint" "#compdef line"
DRIVER="$(dirname "$0")/zsh_complete.zsh"
DIR=$(dirname "$FN")
# The command lines completed (after "$FL "), all in one zsh session
# (zsh_complete.zsh: compinit runs once); comp N prints the sorted matches
# zsh offers at the end of the N-th of them (from 0).
LINES_=('check --rules rail-al' 'check --rules topology.lid,deadlock.cr' 'check --fail'
  'check plan.xml --for' 'check --fail-on ' 'diff --format ' 'info --format ' ''
  'gen ' 'gen fat-tree --ra' 'gen rail-su --ra' 'gen fat-tree --tiers ' 'help --completion ')
args=()
for l in "${LINES_[@]}"; do args+=("$FL $l"); done
timeout 120 zsh -f "$DRIVER" "$DIR" "${args[@]}" >"$TMP/comp.out" 2>"$TMP/comp.err" ||
  fail "zsh_complete.zsh failed: $(head -3 "$TMP/comp.err")"
expect_eq "$(grep -c '^END-OF-LINE$' "$TMP/comp.out")" "${#LINES_[@]}" "one answer per command line"
comp() { awk -v n="$1" '/^END-OF-LINE$/ { i++; next } i == n' "$TMP/comp.out" | LC_ALL=C sort -u; }
lines() { printf '%s\n' "$@" | LC_ALL=C sort; }
"$FL" rules --format json > "$TMP/rules.json"

expect_eq "$(comp 0)" \
  "$(jget "$TMP/rules.json" "='\n'.join(sorted(['rail-alignment'] + [r['id'] for p in d['plugins'] if p['name'] == 'rail-alignment' for r in p['rules']]))")" \
  "check --rules rail-al"
expect_eq "$(comp 1)" "deadlock.credit-loop" "--rules A,B (after the comma)"
expect_eq "$(comp 2)" "--fail-on" "check --fail"
expect_eq "$(comp 3)" "--format" "option after an input"
expect_eq "$(comp 4)" "$(lines error info never warning)" "check --fail-on"
expect_eq "$(comp 5 | tr '\n' ' ')" "codequality csv dot html json junit sarif svg text xlsx " "diff --format"
expect_eq "$(comp 6 | tr '\n' ' ')" "json text " "info --format"
expect_eq "$(comp 7)" "$(lines bom check compare convert diff explain gen help info perf rules sweep)" "commands"
expect_eq "$(comp 8)" "$(lines fat-tree rail-su ring torus)" "gen kinds"
expect_eq "$(comp 9)" "$(lines --rack-u --racks-per-row --radix)" "gen fat-tree --ra"
expect_eq "$(comp 10)" "$(lines --rack-u --racks-per-row --rails)" "gen rail-su --ra"
expect_eq "$(comp 11)" "$(lines 2 3)" "gen --tiers"
expect_eq "$(comp 12)" "$(lines bash zsh)" "help --completion"
finish
