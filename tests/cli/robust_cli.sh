# SPDX-License-Identifier: MIT
# Robustness on the output / command-line / host side (issue 11): inputs in
# the wrong role, output files that must never be destroyed, parameter
# ranges, plugin trust along the whole path.
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/data/robustness"
R="$FL_SRC/tests/fixtures/routing/fat-tree-2tier-ftree"
"$FL" gen fat-tree --radix 4 -o "$TMP/ft4.xml" || fail "gen ft4.xml"

# ---- inputs in the wrong role ------------------------------------------------
# diff whose as-built side is only routing state: no topology, exit 2
expect_rc 2 "$FL" diff "$TMP/ft4.xml" "$R/opensm-lfts.dump"
expect_grep "$TMP/err" "^fabriclint: no topology among the as-built inputs: .*/opensm-lfts\.dump is lfts, which describes no cable"
expect_eq "$(wc -c <"$TMP/out")" 0 "diff with a routing-only side prints no report"
# ... and the design side likewise, also with --design / --as-built
expect_rc 2 "$FL" diff --design "$R/opensm-lfts.dump" --as-built "$R/topology.ibnetdiscover"
expect_grep "$TMP/err" "no topology among the design inputs: .*opensm-lfts\.dump is lfts"
# a topology plus routing on one side is fine
expect_rc 0 "$FL" diff --fail-on never --as-built "$R/topology.ibnetdiscover" --as-built "$R/opensm-lfts.dump" --design "$R/topology.ibnetdiscover"
# check/info with only routing state: exit 2 as well
expect_rc 2 "$FL" check "$R/opensm-lfts.dump"
expect_grep "$TMP/err" "no topology among the inputs"
# the flow-list annotation form of docs/rules/failure-domains.md is detected
expect_rc 0 "$FL" info "$TMP/ft4.xml" "$D/annotations-flow-list.yaml"
expect_grep "$TMP/out" "annotations-flow-list\.yaml \(annotations\)"
# ... and its entries are read: an unknown name in the flow list is an error
printf 'nodes: [{name: spine-p01-01, rack: R01}, {name: ghost, rack: R9}]\n' >"$TMP/ghost.yaml"
expect_rc 2 "$FL" info "$TMP/ft4.xml" "$TMP/ghost.yaml"
expect_grep "$TMP/err" 'ghost\.yaml:1:.*unknown node "ghost"'

# ---- outputs: nothing that existed before the run is ever removed ---------
# A symlink to /dev/full (as root, -o /dev/full itself used to be unlinked):
# every writer fails with exit 2 naming the path and the errno text, and the
# symlink is still there afterwards.
W="$TMP/w"; mkdir "$W"; ln -s /dev/full "$W/full"
full_case() {
  expect_rc 2 "$@"
  expect_grep "$TMP/err" "$W/full: cannot write.*: No space left on device"
  if [ -L "$W/full" ] && [ "$(readlink "$W/full")" = /dev/full ]; then pass; else fail "symlink removed by: $*"; fi
}
full_case "$FL" gen fat-tree --radix 4 -o "$W/full"
full_case "$FL" gen fat-tree --radix 4 --format ibnetdiscover -o "$W/full"
full_case "$FL" check --output "$W/full" "$TMP/ft4.xml"
full_case "$FL" check --format json --output "$W/full" "$TMP/ft4.xml"
full_case "$FL" check --write-baseline "$W/full" "$TMP/ft4.xml"
full_case "$FL" diff --format csv --output "$W/full" "$TMP/ft4.xml" "$R/topology.ibnetdiscover"
full_case "$FL" info --output "$W/full" "$TMP/ft4.xml"
full_case "$FL" rules --output "$W/full"
expect_eq "$(ls -A "$W")" "full" "no temporary file left beside the symlink"

# A regular file whose rewrite fails (file size limit: EFBIG) keeps its
# previous content and no temporary file is left behind.
echo previous >"$W/reg"
limited() { (trap '' XFSZ; ulimit -f 2; "$@"); }
expect_rc 2 limited "$FL" gen fat-tree --radix 8 -o "$W/reg"
expect_grep "$TMP/err" "^fabriclint gen: $W/reg: cannot write: File too large"
expect_eq "$(cat "$W/reg")" previous "gen -o: previous content kept"
expect_rc 2 limited "$FL" check --format json --output "$W/reg" "$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: $W/reg: cannot write the report: File too large"
expect_eq "$(cat "$W/reg")" previous "check --output: previous content kept"
expect_eq "$(ls -A "$W" | sort | tr '\n' ' ')" "full reg " "no temporary file left"
# a run that fails after opening --output (usage error) keeps the old report
expect_rc 2 "$FL" check --rules 'nosuch.*' --output "$W/reg" "$TMP/ft4.xml"
expect_eq "$(cat "$W/reg")" previous "failed check: previous report kept"

# Success replaces a regular file in place, keeping its permission bits; a
# symlink stays a symlink and its target gets the new content.
chmod 640 "$W/reg"
expect_rc 0 "$FL" gen fat-tree --radix 4 -o "$W/reg"
expect_eq "$(stat -c %a "$W/reg")" 640 "mode of a replaced file"
expect_eq "$(cmp -s "$W/reg" "$TMP/ft4.xml" && echo same)" same "replaced content"
echo x >"$W/target"; ln -s target "$W/link"
expect_rc 0 "$FL" gen fat-tree --radix 4 -o "$W/link"
expect_eq "$(readlink "$W/link")" target "symlink kept"
expect_eq "$(cmp -s "$W/target" "$TMP/ft4.xml" && echo same)" same "symlink target written"
# a new file gets the umask's mode; a character device is written directly
(umask 027; "$FL" gen fat-tree --radix 4 -o "$W/new.xml") || fail "gen new.xml"
expect_eq "$(stat -c %a "$W/new.xml")" 640 "mode of a new file under umask 027"
expect_rc 0 "$FL" check --output /dev/stdout "$TMP/ft4.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\)'
expect_eq "$(ls -A "$W" | sort | tr '\n' ' ')" "full link new.xml reg target " "folder after the successful runs"

# ---- parameters: finite, typed, within the declared range -----------------
AR=(--rules 'adaptive-routing.*' "$R/topology.ibnetdiscover" "$R/opensm-lfts.dump" "$FL_SRC/tests/fixtures/ar/partial-group.far")
expect_rc 1 "$FL" check --fail-on warning --param adaptive-routing.coverage.threshold=100 "${AR[@]}"
expect_grep "$TMP/out" '^warning: .* \[adaptive-routing\.coverage\]$'
for v in nan -5 inf 1e999 100.5 0x1p99; do
  expect_rc 2 "$FL" check --param adaptive-routing.coverage.threshold=$v "${AR[@]}"
  expect_eq "$(cat "$TMP/err")" "fabriclint: --param adaptive-routing.coverage.threshold=$v: expected a finite number from 0 to 100 (%)" "threshold=$v"
done
for v in nan inf -0.1 2; do
  expect_rc 2 "$FL" check --rules ecmp-balance.link-load --param ecmp-balance.link-load.min-ebb=$v "$R/topology.ibnetdiscover"
  expect_grep "$TMP/err" "min-ebb=$v: expected a finite number from 0 to 1\$"
done
# integers: overflow, negative where the value is a count or a seed, bools
expect_rc 2 "$FL" check --param deadlock.max-examples=99999999999999999999 "$TMP/ft4.xml"
expect_grep "$TMP/err" '^fabriclint: --param deadlock\.max-examples=99999999999999999999: expected an integer from 1 to 1000000 \(findings\)$'
expect_rc 2 "$FL" check --param ecmp-balance.seed=-1 "$TMP/ft4.xml"
expect_grep "$TMP/err" 'ecmp-balance\.seed=-1: expected an integer >= 0$'
expect_rc 2 "$FL" check --param failure-domains.allow-single-homed=2 "$TMP/ft4.xml"
expect_grep "$TMP/err" 'allow-single-homed=2: expected true, false, 1 or 0$'
# the same check for policy values, with the policy's line and column
printf 'params:\n  deadlock.forwarding-loop:\n    max-examples: -3\n' >"$TMP/pol.yaml"
expect_rc 2 "$FL" check --policy "$TMP/pol.yaml" "$TMP/ft4.xml"
expect_grep "$TMP/err" "pol\.yaml:3:19: params: deadlock\.forwarding-loop\.max-examples=-3: expected an integer from 1 to 1000000 \(findings\)"
printf 'params:\n  adaptive-routing:\n    threshold: nan\n' >"$TMP/pol.yaml"
expect_rc 2 "$FL" check --policy "$TMP/pol.yaml" "$TMP/ft4.xml"
expect_grep "$TMP/err" "pol\.yaml:3:16: params: adaptive-routing\.threshold=nan: expected a finite number from 0 to 100"
# rules lists the range
expect_rc 0 "$FL" rules --rules adaptive-routing.coverage
expect_grep "$TMP/out" 'adaptive-routing\.coverage\.threshold=<double> \[0\.\.100\] \(default 100 %\)'
# a test plugin: an ABI 1.0-size declaration still gets the finite check,
# bounds apply inclusively, a rule reads exactly the value given
TP="$FL_BUILD/tests/plugins"
P=(--no-builtin-plugins --plugin "$TP/param_ranges.so" --fail-on never)
expect_rc 0 "$FL" check "${P[@]}" --param tp-params.probe.width=4 --param tp-params.share=1 --param tp-params.probe.ratio=7 "$TMP/ft4.xml"
expect_grep "$TMP/out" '^warning: width=4 share=1 ratio=7 \[tp-params\.probe\]$'
expect_rc 2 "$FL" check "${P[@]}" --param tp-params.probe.ratio=nan "$TMP/ft4.xml"
expect_eq "$(cat "$TMP/err")" "fabriclint: --param tp-params.probe.ratio=nan: expected a finite number" "ABI 1.0-size declaration"
expect_rc 2 "$FL" check "${P[@]}" --param tp-params.probe.width=5 "$TMP/ft4.xml"
expect_grep "$TMP/err" 'width=5: expected an integer from 2 to 4 \(lanes\)$'
expect_rc 2 "$FL" check "${P[@]}" --param tp-params.probe.width=1 "$TMP/ft4.xml"
# a plugin whose default lies outside its own range is refused: exit 3
expect_rc 3 "$FL" rules --no-builtin-plugins --plugin "$TP/bad_default.so"
expect_grep "$TMP/err" "bad_default\.so: rule 'tp-bad-default\.probe': parameter 'width': default '9' does not fit its declaration \(expected an integer from 2 to 4 \(lanes\)\)"

# ---- plugin trust: the file, its folder and every folder up to / ----------
# (sshd StrictModes: owned by root or us, not group/world writable; a sticky
# ancestor such as /tmp, which holds $TMP, is accepted)
GOOD="$FL_BUILD/tests/plugins/good.so"
K="$TMP/k"; mkdir -m 755 "$K"
mkdir -m 755 "$K/gf"; cp "$GOOD" "$K/gf/"; chmod 664 "$K/gf/good.so"
expect_rc 3 "$FL" rules --plugin-path "$K/gf"
expect_eq "$(cat "$TMP/err")" "fabriclint: $K/gf/good.so: refusing to load plugins: the plugin file is writable by its group (mode 664); run chmod g-w on it" "group-writable plugin file"
mkdir -m 775 "$K/gd"; cp "$GOOD" "$K/gd/"; chmod 775 "$K/gd"
expect_rc 3 "$FL" rules --plugin-path "$K/gd"
expect_grep "$TMP/err" "^fabriclint: $K/gd: refusing to load plugins: the plugin folder is writable by its group \(mode 775\)"
expect_rc 3 env FABRICLINT_PLUGIN_PATH="$K/gd" "$FL" rules
expect_grep "$TMP/err" "^fabriclint: $K/gd: .*writable by its group"
expect_rc 3 "$FL" rules --plugin "$K/gd/good.so"
expect_grep "$TMP/err" "^fabriclint: $K/gd: refusing to load plugins: the plugin's folder is writable by its group"
# a world-writable ancestor without the sticky bit: anyone could rename the
# folder below it and put their own .so in its place
mkdir -p "$K/ww/sub"; chmod 777 "$K/ww"; chmod 755 "$K/ww/sub"; cp "$GOOD" "$K/ww/sub/"
expect_rc 3 "$FL" rules --plugin-path "$K/ww/sub"
expect_eq "$(cat "$TMP/err")" "fabriclint: $K/ww: refusing to load plugins: a folder above the plugins is writable by other users (mode 777); run chmod go-w on it" "world-writable ancestor"
# ... also when reached through a symlink from a safe place (real path)
ln -s "$K/ww/sub/good.so" "$K/link.so"
expect_rc 3 "$FL" rules --plugin "$K/link.so"
expect_grep "$TMP/err" "^fabriclint: $K/ww: .*a folder above the plugins is writable by other users"
# the same ancestor with the sticky bit is accepted ...
chmod 1777 "$K/ww"
expect_rc 0 "$FL" rules --no-builtin-plugins --plugin-path "$K/ww/sub"
expect_grep "$TMP/out" '^tp-good '
# ... but a sticky world-writable plugin folder itself is not
mkdir -m 1777 "$K/st"; cp "$GOOD" "$K/st/"
expect_rc 3 "$FL" rules --plugin-path "$K/st"
expect_grep "$TMP/err" "^fabriclint: $K/st: refusing to load plugins: the plugin folder is writable by other users \(mode 777\)"
# the build tree itself passes (umask 022)
expect_rc 0 "$FL" rules --plugin "$GOOD"

finish
