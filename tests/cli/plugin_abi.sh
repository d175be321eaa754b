# SPDX-License-Identifier: MIT
# Plugin loading: ABI refusals, permissions, failing checks, rules listing.
. "$(dirname "$0")/lib.bash"
TP="$FL_BUILD/tests/plugins"
EX="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out

# built-in plugins are found beside the executable, with no option
expect_rc 0 "$FL" rules
expect_grep "$TMP/out" '^topology 0\.1\.0'
expect_grep "$TMP/out" 'topology\.one-sided-link +error'
expect_grep "$TMP/out" 'topology\.degraded-link\.expected-width=<int>'

expect_rc 0 "$FL" rules --format json
expect_eq "$(jget "$TMP/out" "=[p['name'] for p in d['plugins']]")" "['adaptive-routing', 'deadlock', 'ecmp-balance', 'failure-domains', 'health', 'planes', 'rail-alignment', 'topology']" "plugins in name order"
expect_eq "$(jget "$TMP/out" "=[p['abi'] for p in d['plugins']]")" "['1.7', '1.7', '1.7', '1.7', '1.7', '1.7', '1.7', '1.7']" "abi"
expect_eq "$(jget "$TMP/out" "=[len(p['rules']) for p in d['plugins']]")" "[5, 8, 7, 9, 4, 3, 12, 20]" "rule counts"

# a plugin built for ABI major 2 is refused, naming both versions: exit 3
expect_rc 3 "$FL" check --plugin "$TP/abi_major2.so" "$EX"
expect_grep "$TMP/err" 'built for fabriclint plugin ABI 2\.0; this fabriclint implements ABI 1\.7'
# a newer minor is refused too
expect_rc 3 "$FL" rules --plugin "$TP/abi_minor_newer.so"
expect_grep "$TMP/err" 'needs fabriclint plugin ABI 1\.9, newer than this fabriclint.s ABI 1\.7'
# no entry point
expect_rc 3 "$FL" rules --plugin "$TP/no_entry.so"
expect_grep "$TMP/err" 'no exported symbol fabriclint_plugin_v1'
# a check() that fails: exit 3, and the other rules' findings are still printed
expect_rc 3 "$FL" check --plugin "$TP/check_fails.so" "$EX"
expect_grep "$TMP/err" 'rule tp-check-fails\.probe could not run: the test plugin was told to fail'
expect_grep "$TMP/out" ' error\(s\), '
# a rule run once per plane (no FL_NEEDS_ALL_PLANES) that fails in plane 1
# only: the run stays failed although plane 2's run after it succeeds, and
# plane 2's finding is kept
"$FL" gen fat-tree --radix 8 --hosts 30 --planes 2 --no-lids -o "$TMP/p2.xml" || fail "gen --planes 2"
expect_rc 3 "$FL" check --no-builtin-plugins --plugin "$TP/fails_in_plane1.so" --format sarif "$TMP/p2.xml"
expect_eq "$(jget "$TMP/out" "['runs'][0]['invocations'][0]['executionSuccessful']")" False "plane-1 failure: executionSuccessful"
expect_eq "$(jget "$TMP/out" "=[r['message']['text'] for r in d['runs'][0]['results']]")" \
  "['test finding outside plane 1']" "plane-1 failure: plane 2's finding"
expect_grep "$TMP/out" 'rule tp-plane1-fails.probe could not run: the test plugin was told to fail in plane 1'
# a good third-party plugin runs beside the built-ins
expect_rc 0 "$FL" check --plugin "$TP/good.so" --fail-on never "$EX"
expect_grep "$TMP/out" 'warning: test finding from tp-good.* \[tp-good\.probe\]$'
# a plugin built for ABI 1.0 (no parameter ranges, no fixes) loads into this 1.7 host
expect_rc 0 "$FL" rules --plugin "$TP/good.so"
expect_grep "$TMP/out" '^tp-good .*ABI 1\.0\)'

# a world-writable plugin folder is refused
mkdir "$TMP/ww" && cp "$TP/good.so" "$TMP/ww/" && chmod 777 "$TMP/ww"
expect_rc 3 "$FL" rules --plugin-path "$TMP/ww"
expect_grep "$TMP/err" 'writable by other users \(mode 777\)'
# ... and through FABRICLINT_PLUGIN_PATH as well
expect_rc 3 env FABRICLINT_PLUGIN_PATH="$TMP/ww" "$FL" rules
# a world-writable plugin file too
mkdir "$TMP/wf" && cp "$TP/good.so" "$TMP/wf/" && chmod 666 "$TMP/wf/good.so"
expect_rc 3 "$FL" rules --plugin "$TMP/wf/good.so"
expect_grep "$TMP/err" 'the plugin file is writable by other users'
# FABRICLINT_PLUGIN_PATH with a good folder works
mkdir "$TMP/ok" && cp "$TP/good.so" "$TMP/ok/"
expect_rc 0 env FABRICLINT_PLUGIN_PATH="$TMP/ok" "$FL" rules
expect_grep "$TMP/out" '^tp-good 0\.0\.1'

# plugins are found relative to the executable, wherever the build is
mkdir -p "$TMP/elsewhere/plugins"
cp "$FL" "$FL_BUILD"/libfabriclint.so* "$TMP/elsewhere/"
cp "$FL_BUILD"/plugins/*.so "$TMP/elsewhere/plugins/"
expect_rc 0 "$TMP/elsewhere/fabriclint" rules
expect_grep "$TMP/out" "$TMP/elsewhere/plugins/topology.so"

# --rules selecting nothing, unknown --param: usage errors
expect_rc 2 "$FL" check --rules 'nosuch.*' "$EX"
expect_grep "$TMP/err" "selects no loaded rule"
expect_rc 2 "$FL" check --param topology.degraded-link.nosuch=1 "$EX"
expect_grep "$TMP/err" "has no parameter 'nosuch'"
expect_rc 2 "$FL" check --param nosuchplugin.profile=x "$EX"
expect_grep "$TMP/err" "no loaded rule or plugin 'nosuchplugin' with a parameter 'profile'"
expect_rc 2 "$FL" check --param topology.degraded-link.expected-width=four "$EX"
expect_grep "$TMP/err" "expected an integer"
finish
