# SPDX-License-Identifier: MIT
# bash completion (build/share/bash-completion/completions/fabriclint, made
# at build time by `fabriclint help --completion bash` from the option
# table): the script is sourced into this bash, `complete -p` names its
# function, and the function is driven through COMP_WORDS/COMP_CWORD as
# readline would. Expected values come from the executable itself (rules
# --format json, help --list), so the test holds for any set of plugins.
. "$(dirname "$0")/lib.bash"
SCRIPT="$FL_BUILD/share/bash-completion/completions/fabriclint"
[ -r "$SCRIPT" ] || { fail "not built: $SCRIPT"; finish; exit 1; }
expect_eq "$(cmp -s "$SCRIPT" <("$FL" help --completion bash) && echo same)" same "built script = help --completion bash"
bash -n "$SCRIPT" && pass || fail "bash -n $SCRIPT"
# shellcheck disable=SC1090
. "$SCRIPT"
spec=$(complete -p fabriclint)
expect_eq "$spec" "complete -F _fabriclint fabriclint" "complete -p fabriclint"
fn=${spec#complete -F }
fn=${fn%% *}

# comp WORD... — complete the last word of the line WORD..., the command
# being this build's executable; the sorted candidates, one per line
comp() {
  COMP_WORDS=("$FL" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="${COMP_WORDS[*]}"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  "$fn" 2>/dev/null
  printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
}
lines() { printf '%s\n' "$@" | LC_ALL=C sort; }
"$FL" rules --format json > "$TMP/rules.json"
ids() { # ids PLUGIN — the plugin's name and its rule ids, sorted
  jget "$TMP/rules.json" "='\n'.join(sorted(['$1'] + [r['id'] for p in d['plugins'] if p['name'] == '$1' for r in p['rules']]))"
}

# a rule id prefix: rail-al<TAB> gives the plugin and every rail-alignment rule
expect_eq "$(comp check --rules rail-al)" "$(ids rail-alignment | LC_ALL=C sort)" "check --rules rail-al"
expect_eq "$(comp check --rules rail-al | wc -l)" "$(($(jget "$TMP/rules.json" "=[len(p['rules']) for p in d['plugins'] if p['name'] == 'rail-alignment'][0]") + 1))" "rail-alignment: plugin + rules"
# after a comma, the previous patterns stay
expect_eq "$(comp check --rules topology.lid,rail-alignment.sw)" "topology.lid,rail-alignment.swapped" "--rules A,B<TAB>"
# --rules=VALUE: bash splits the word at '='
expect_eq "$(comp check --rules = deadlock.cr)" "deadlock.credit-loop" "--rules=deadlock.cr"
# parameters of one rule: RULE.PARAM=
expect_eq "$(comp check --param rail-alignment.swapped.)" \
  "$(jget "$TMP/rules.json" "='\n'.join(sorted('rail-alignment.swapped.' + q['name'] + '=' for p in d['plugins'] for r in p['rules'] if r['id'] == 'rail-alignment.swapped' for q in r['params']))")" \
  "--param rail-alignment.swapped."
# the plugins of the command line: --plugin-path and --no-builtin-plugins
mkdir "$TMP/pp" && cp "$FL_BUILD/tests/plugins/progress_steps.so" "$TMP/pp/"
expect_eq "$(comp check --no-builtin-plugins --plugin-path "$TMP/pp" --rules tp-)" "$(lines tp-progress tp-progress.again tp-progress.steps)" "plugins of the line"
expect_eq "$(comp check --no-builtin-plugins --plugin-path "$TMP/pp" --rules rail)" "" "no built-in rule without them"

# command options, also after inputs; values of fixed lists
expect_eq "$(comp check --fail)" "--fail-on" "check --fail"
expect_eq "$(comp check plan.xml --for)" "--format" "check plan.xml --for"
expect_eq "$(comp check --fail-on '')" "$(lines error info never warning)" "check --fail-on"
expect_eq "$(comp check --format '')" "$("$FL" help --list formats check | LC_ALL=C sort)" "check --format"
expect_eq "$(comp check --format '' | tr '\n' ' ')" "codequality dot html json junit sarif svg text " "check --format (the writers)"
expect_eq "$(comp diff --format '' | tr '\n' ' ')" "codequality csv dot html json junit sarif svg text xlsx " "diff --format"
expect_eq "$(comp info --format '' | tr '\n' ' ')" "json text " "info --format"
expect_eq "$(comp check --input-format '')" "$("$FL" help --list input-formats | LC_ALL=C sort)" "--input-format"
expect_eq "$(comp check --input-format lld)" "lldpd-xml" "--input-format lld"
expect_eq "$(comp diff --as)" "$(lines --as-built --as-built-format --as-built-plane --as-given)" "diff --as"
expect_eq "$(comp info --ba)" "" "info has no --baseline"
expect_eq "$(comp check --)" "$("$FL" help --list options check | grep '^--' | LC_ALL=C sort)" "every option of check"
# commands, gen kinds and their own options
expect_eq "$(comp '')" "$(lines --help --version bom check compare convert diff explain gen help info perf rules sweep)" "commands"
expect_eq "$(comp gen '')" "$(lines fat-tree rail-su ring torus)" "gen kinds"
expect_eq "$(comp gen fat-tree --ra)" "$(lines --rack-u --racks-per-row --radix)" "gen fat-tree --ra"
expect_eq "$(comp gen rail-su --ra)" "$(lines --rack-u --racks-per-row --rails)" "gen rail-su --ra"
expect_eq "$(comp gen --radix 8 fat-tree --ti)" "--tiers" "gen: kind after an option"
expect_eq "$(comp gen torus --hosts)" "$(lines --hosts-per-rack --hosts-per-switch)" "gen torus --hosts"
expect_eq "$(comp gen fat-tree --tiers '')" "$(lines 2 3)" "gen --tiers"
expect_eq "$(comp gen fat-tree --speed N)" "NDR" "gen --speed N"
expect_eq "$(comp help '')" "$(lines bom check compare convert diff explain gen help info perf rules sweep)" "help COMMAND"
expect_eq "$(comp convert --format '')" "$(lines design dot graphml ibnetdiscover ibsim ndt netbox-cables slurm-block slurm-tree slurm-yaml)" "convert --format"
expect_eq "$(comp convert --fo)" "$(lines --force --format)" "convert --fo"
expect_eq "$(comp help --completion '')" "$(lines bash zsh)" "help --completion"
# after --, every word is an input: a file name even if it starts with -
expect_eq "$(comp check -- --fail)" "" "check -- --fail: no option"
# file names for inputs and file options
cd "$FL_SRC" || exit 1
expect_eq "$(comp check fabrics/rail-su-a)" "fabrics/rail-su-asbuilt.ibnetdiscover" "input file"
expect_eq "$(comp check --policy fabrics/rail-su-a)" "fabrics/rail-su-asbuilt.ibnetdiscover" "--policy file"
expect_eq "$(comp check --plugin-path fabrics/sh)" "fabrics/shape" "--plugin-path folder"
expect_eq "$(comp check --format json fabrics/rail-su-a)" "fabrics/rail-su-asbuilt.ibnetdiscover" "input after an option's value"
expect_eq "$(comp check -- fabrics/rail-su-a)" "fabrics/rail-su-asbuilt.ibnetdiscover" "input after --"
finish
