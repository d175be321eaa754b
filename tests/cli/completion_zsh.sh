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
# comp LINE — the sorted matches zsh offers at the end of "$FL LINE"
comp() { timeout 60 zsh -f "$DRIVER" "$DIR" "$FL $1" | LC_ALL=C sort -u; }
lines() { printf '%s\n' "$@" | LC_ALL=C sort; }
"$FL" rules --format json > "$TMP/rules.json"

expect_eq "$(comp 'check --rules rail-al')" \
  "$(jget "$TMP/rules.json" "='\n'.join(sorted(['rail-alignment'] + [r['id'] for p in d['plugins'] if p['name'] == 'rail-alignment' for r in p['rules']]))")" \
  "check --rules rail-al"
expect_eq "$(comp 'check --rules topology.lid,deadlock.cr')" "deadlock.credit-loop" "--rules A,B (after the comma)"
expect_eq "$(comp 'check --fail')" "--fail-on" "check --fail"
expect_eq "$(comp 'check plan.xml --for')" "--format" "option after an input"
expect_eq "$(comp 'check --fail-on ')" "$(lines error info never warning)" "check --fail-on"
expect_eq "$(comp 'diff --format ' | tr '\n' ' ')" "codequality csv dot html json junit sarif svg text " "diff --format"
expect_eq "$(comp 'info --format ' | tr '\n' ' ')" "json text " "info --format"
expect_eq "$(comp '')" "$(lines check compare convert diff explain gen help info perf rules)" "commands"
expect_eq "$(comp 'gen ')" "$(lines fat-tree rail-su ring torus)" "gen kinds"
expect_eq "$(comp 'gen fat-tree --ra')" "--radix" "gen fat-tree --ra"
expect_eq "$(comp 'gen rail-su --ra')" "--rails" "gen rail-su --ra"
expect_eq "$(comp 'gen fat-tree --tiers ')" "$(lines 2 3)" "gen --tiers"
expect_eq "$(comp 'help --completion ')" "$(lines bash zsh)" "help --completion"
finish
