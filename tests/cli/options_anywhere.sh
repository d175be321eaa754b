# SPDX-License-Identifier: MIT
# Shell habits of every command (core/cli/cli_args.c): options may follow
# the inputs, `--` ends the options (so an input may be named -x), `-` is an
# operand, --name=value, unique prefixes, clustered flags; an option of
# another command, an unknown or ambiguous one is refused by name.
. "$(dirname "$0")/lib.bash"
AS="$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
PLAN="$FL_SRC/fabrics/rail-su.ibnetdiscover"
cd "$TMP" || exit 1
cp "$AS" ./-x            # an input whose name starts with a dash
cp "$PLAN" ./-plan       # and a design side named like an option

# ---- check -------------------------------------------------------------------
expect_rc 1 "$FL" check --format json "$AS"
cp "$TMP/out" before.json
expect_eq "$(jget before.json "=[d['summary'][k] for k in ('error', 'warning', 'info')]")" "[1, 1, 0]" "check summary"
expect_rc 1 "$FL" check "$AS" --format json
expect_eq "$(cmp -s "$TMP/out" before.json && echo same)" same "check: --format after the input"
expect_rc 1 "$FL" check "$AS" --format=json
expect_eq "$(cmp -s "$TMP/out" before.json && echo same)" same "check: --format=json after the input"
# getopt would stop at the first operand with POSIXLY_CORRECT; this does not
expect_rc 1 env POSIXLY_CORRECT=1 "$FL" check "$AS" --format json
expect_eq "$(cmp -s "$TMP/out" before.json && echo same)" same "check: POSIXLY_CORRECT"
# a unique prefix, as getopt_long allows; flags clustered
expect_rc 1 "$FL" check "$AS" --form json -qv
expect_eq "$(jget "$TMP/out" "=d['summary']['error']")" 1 "check: --form json -qv"
# -- ends the options: "-x" is read, and is the location of the findings
expect_rc 1 "$FL" check --format json -- -x
expect_eq "$(jget "$TMP/out" "=[d['summary'][k] for k in ('error', 'warning', 'info')]")" "[1, 1, 0]" "check -- -x: summary"
expect_eq "$(jget "$TMP/out" "=sorted({f['location']['file'] for f in d['findings'] if 'location' in f})")" "['-x']" "check -- -x: location"
# ... and an option after -- is an input too (which does not exist)
expect_rc 2 "$FL" check -- -x --format
expect_grep "$TMP/err" '^fabriclint: --format: cannot read'
# without --, -x is an option: refused, with how to read the file
expect_rc 2 "$FL" check -x
expect_eq "$(cat "$TMP/err")" "fabriclint: unknown option '-x' for check
(see fabriclint check --help)
(a file named '-x' exists: after --, it is read as an input: fabriclint check -- -x)" "check -x"
# values that look like options stay values
expect_rc 2 "$FL" check "$AS" --max-findings-per-rule -1
expect_grep "$TMP/err" "^fabriclint: --max-findings-per-rule: expected a count from 0 \(no cap\) to 1000000, got '-1'$"
# refusals that name the problem
expect_rc 2 "$FL" check "$AS" --design "$PLAN"
expect_grep "$TMP/err" '^fabriclint: --design does not apply to check \(it is an option of diff\)$'
expect_rc 2 "$FL" check "$AS" --formt json
expect_grep "$TMP/err" "^fabriclint: unknown option '--formt' for check \(did you mean --format\?\)$"
# two swapped pairs are two edits (optimal string alignment), not four
expect_rc 2 "$FL" check "$AS" --fromta json
expect_grep "$TMP/err" "^fabriclint: unknown option '--fromta' for check \(did you mean --format\?\)$"
expect_rc 2 "$FL" check "$AS" --p x
expect_grep "$TMP/err" "^fabriclint: option '--p' is ambiguous for check: --policy, --param, --plugin, --plugin-path, --plane$"
expect_rc 2 "$FL" check "$AS" --exit-zero=yes
expect_grep "$TMP/err" "^fabriclint: option '--exit-zero' takes no value$"
expect_rc 2 "$FL" check "$AS" --format
expect_grep "$TMP/err" "^fabriclint: option '--format' needs a value \(FORMAT\)$"

# ---- info --------------------------------------------------------------------
expect_rc 0 "$FL" info --format json "$AS"
cp "$TMP/out" info.json
expect_eq "$(jget info.json "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]")" "[12, 256, 512]" "info counts"
expect_rc 0 "$FL" info "$AS" --format json
expect_eq "$(cmp -s "$TMP/out" info.json && echo same)" same "info: --format after the input"
expect_rc 0 "$FL" info --format json -- -x
expect_eq "$(jget "$TMP/out" "=[(i['path'], i['format']) for i in d['inputs']]")" "[('-x', 'ibnetdiscover')]" "info -- -x"
expect_eq "$(jget "$TMP/out" "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]")" "[12, 256, 512]" "info -- -x counts"
expect_rc 2 "$FL" info -x
expect_grep "$TMP/err" "^fabriclint: unknown option '-x' for info$"
expect_rc 2 "$FL" info "$AS" --fail-on warning
expect_grep "$TMP/err" '^fabriclint: --fail-on does not apply to info \(it is an option of check, diff and compare\)$'

# ---- rules -------------------------------------------------------------------
expect_rc 0 "$FL" rules --format json --rules 'rail-alignment.*'
cp "$TMP/out" rules.json
expect_rc 0 "$FL" rules --rules 'rail-alignment.*' --format json
expect_eq "$(cmp -s "$TMP/out" rules.json && echo same)" same "rules: option order"
expect_rc 0 "$FL" rules --rules 'rail-alignment.*' --format json --
expect_eq "$(cmp -s "$TMP/out" rules.json && echo same)" same "rules: a trailing --"
expect_rc 2 "$FL" rules --input-format lfts
expect_grep "$TMP/err" '^fabriclint: --input-format does not apply to rules \(it is an option of check, info, diff, perf, convert, compare and bom\)$'

# ---- diff --------------------------------------------------------------------
expect_rc 1 "$FL" diff --format json "$PLAN" "$AS"
cp "$TMP/out" diff.json
expect_eq "$(jget diff.json "=sorted(f['rule'] for f in d['findings'])")" "['diff.different', 'diff.swapped']" "diff findings"
expect_rc 1 "$FL" diff "$PLAN" "$AS" --format json
expect_eq "$(cmp -s "$TMP/out" diff.json && echo same)" same "diff: --format after the inputs"
expect_rc 1 "$FL" diff "$PLAN" --format json "$AS"
expect_eq "$(cmp -s "$TMP/out" diff.json && echo same)" same "diff: --format between the inputs"
expect_rc 1 "$FL" diff --format json -- -plan -x
expect_eq "$(jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'])")" "['diff.different', 'diff.swapped']" "diff -- -plan -x"
expect_rc 1 "$FL" diff "$PLAN" "$AS" --format csv
expect_eq "$(head -1 "$TMP/out" | cut -d, -f1-3)" "$("$FL" diff --format csv "$PLAN" "$AS" | head -1 | cut -d, -f1-3)" "diff: --format csv after the inputs"
expect_eq "$(grep -c . "$TMP/out")" "$("$FL" diff --format csv "$PLAN" "$AS" | grep -c .)" "diff csv rows"
expect_rc 2 "$FL" diff -plan -x
expect_grep "$TMP/err" "^fabriclint: unknown option '-p' for diff$"

# ---- explain -----------------------------------------------------------------
expect_rc 0 "$FL" explain --format json rail-alignment.swapped
cp "$TMP/out" explain.json
expect_eq "$(jget explain.json "=[r['id'] for r in d['rules']]")" "['rail-alignment.swapped']" "explain RULE"
expect_rc 0 "$FL" explain rail-alignment.swapped --format json
expect_eq "$(cmp -s "$TMP/out" explain.json && echo same)" same "explain: --format after the rule"
# after --, -x is a rule id (which does not exist), not an option
expect_rc 2 "$FL" explain -- -x
expect_grep "$TMP/err" "unknown rule '-x'"
expect_rc 2 "$FL" explain -x
expect_grep "$TMP/err" "^fabriclint: unknown option '-x' for explain$"

# ---- perf ----------------------------------------------------------------------
# case c03 (tests/data/cases/c03-...): 8 GPUs, balanced LFTs, one sendrecv
C03="$FL_SRC/tests/data/cases/c03-nccl325-static-routing-collision"
printf 'hosts: [gpu00, gpu01, gpu02, gpu03, gpu04, gpu05, gpu06, gpu07]\ncollectives:\n  - {op: sendrecv, shift: 4, bytes: 1073741824}\n' > job.yaml
cp "$C03/topo.ibnetdiscover" ./-topo
expect_rc 0 "$FL" perf --workload job.yaml --format json "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump"
cp "$TMP/out" perf.json
expect_eq "$(jget perf.json "=[c['op'] for c in d['collectives']]")" "['sendrecv']" "perf collectives"
expect_eq "$(jget perf.json "=round(d['collectives'][0]['busbw_GBps'], 6)")" "25.0" "perf busbw (HDR line rate, 25 GB/s)"
expect_rc 0 "$FL" perf "$C03/topo.ibnetdiscover" "$C03/opensm-lfts-dmodk.dump" --format json --workload job.yaml
expect_eq "$(cmp -s "$TMP/out" perf.json && echo same)" same "perf: options after the inputs"
expect_rc 0 "$FL" perf --format json --workload=job.yaml -- -topo "$C03/opensm-lfts-dmodk.dump"
expect_eq "$(jget "$TMP/out" "=round(d['collectives'][0]['busbw_GBps'], 6)")" "25.0" "perf -- -topo"
expect_rc 2 "$FL" perf -topo --workload job.yaml
expect_grep "$TMP/err" "^fabriclint: unknown option '-t' for perf$"
expect_rc 2 "$FL" perf "$C03/topo.ibnetdiscover" --routing ar
expect_grep "$TMP/err" '^fabriclint: perf needs --workload JOB\.yaml, --job JOB\.yaml or --measured \[OP:\]LOG$'

# ---- gen ---------------------------------------------------------------------
expect_rc 0 "$FL" gen fat-tree --radix 4 -o a.xml
expect_rc 0 "$FL" gen --radix 4 fat-tree -o b.xml
expect_rc 0 "$FL" gen -o c.xml --radix=4 -- fat-tree
expect_eq "$(cmp -s a.xml b.xml && cmp -s a.xml c.xml && echo same)" same "gen: options before, after and around KIND"
# 2 SUs x 32 hosts x 8 rails = 512 CAs; 16 leaves of radix 64 with 32
# uplinks each = 512 spine ports = 8 spines
expect_rc 0 "$FL" gen --dry-run rail-su --sus 2
expect_eq "$(grep -E '^(hosts|cas|switches) ' "$TMP/out" | tr '\n' ' ')" "hosts 64 cas 512 switches 24 " "gen rail-su --sus 2 counts"
expect_rc 2 "$FL" gen -- -x
expect_grep "$TMP/err" "^fabriclint gen: unknown KIND '-x' \(expected fat-tree, rail-su, ring or torus\)$"
expect_rc 2 "$FL" gen -x
expect_grep "$TMP/err" "^fabriclint: unknown option '-x' for gen$"
expect_rc 2 "$FL" gen fat-tree --radix 4 --sus 2
expect_grep "$TMP/err" '^fabriclint gen: --sus is an option of gen rail-su, not of fat-tree$'
expect_rc 2 "$FL" gen fat-tree torus --radix 4
expect_grep "$TMP/err" "^fabriclint gen: unexpected argument 'torus' \(gen takes one KIND, here 'fat-tree'\)$"

# ---- help --------------------------------------------------------------------
expect_rc 0 "$FL" check --help
cp "$TMP/out" check-help.txt
expect_grep check-help.txt '^usage: fabriclint check \[OPTIONS\] INPUT\.\.\.$'
expect_rc 0 "$FL" help check
expect_eq "$(cmp -s "$TMP/out" check-help.txt && echo same)" same "help check = check --help"
expect_rc 0 "$FL" help -- check
expect_eq "$(cmp -s "$TMP/out" check-help.txt && echo same)" same "help -- check"
expect_rc 0 "$FL" help --list options gen
expect_eq "$(head -3 "$TMP/out" | tr '\n' ' ')" "--format --output --radix " "help --list options gen"
expect_rc 0 "$FL" help gen --list options
expect_eq "$(head -3 "$TMP/out" | tr '\n' ' ')" "--format --output --radix " "help gen --list options"
expect_rc 2 "$FL" help -- -x
expect_grep "$TMP/err" "^fabriclint: help: unknown command '-x' \(fabriclint help --list commands\)$"
finish
