# SPDX-License-Identifier: MIT
# Progress and -v timing on a generated 65,536-host fat tree (issue #14,
# "Done when"): `check` under a pseudo-terminal (pty_run.py) shows a status
# line naming every rule, so every plugin, and the credit-loop walk's
# percentage; -v times every rule and plugin and gives the peak memory;
# without a terminal, the same report and nothing on stderr. Slow (two
# checks of a 38 MB plan): label "slow". progress_live.sh tests the display
# itself with a test plugin.
. "$(dirname "$0")/lib.bash"
PTY="$(dirname "$0")/pty_run.py"
segs() {
  python3 -c 'import re, sys
for s in re.split(r"[\r\n]+", open(sys.argv[1], "rb").read().decode()):
    if s.strip():
        print(s.rstrip())' "$1"
}
run_pty() {
  local cols=$1; shift
  PTY_RUN_MAXRSS="$TMP/rss" python3 "$PTY" "$cols" "$TMP/out" "$TMP/tty" "$@"
  local rc=$?
  segs "$TMP/tty" > "$TMP/segs"
  return $rc
}
P='^fabriclint: \[ *[0-9]+\.[0-9] s\] '

"$FL" gen fat-tree --radix 64 --tiers 3 --allow-lid-overflow -o "$TMP/ft.xml" || fail "gen"
run_pty 120 "$FL" check -v "$TMP/ft.xml"
# one subnet of 70,656 LIDs (gen refuses it without --allow-lid-overflow):
# the one error is topology.lid-space
expect_eq "$?" 1 "65,536 hosts: exit code"
expect_grep "$TMP/out" 'the subnet needs 70656 LIDs \(5120 switches x 1 \+ 65536 CA ports x 1 at LMC 0\).*\[topology\.lid-space\]'
expect_grep "$TMP/out" '^1 error\(s\), '
expect_grep "$TMP/segs" "${P}loading 1/1 .*/ft\.xml\$"
expect_grep "$TMP/segs" "${P}finalising the model\$"
# every default rule appears in the status line, numbered i/N, so every
# plugin's name does
n=$(grep -oE "${P#^}rule [0-9]+/[0-9]+ " "$TMP/segs" | sed -E 's/.* [0-9]+\/([0-9]+) $/\1/' | sort -u)
expect_eq "$(echo "$n" | wc -l)" 1 "one rule count N in 'rule i/N'"
expect_eq "$(grep -oE "${P#^}rule [0-9]+/$n [a-z-]+\.[a-z-]+" "$TMP/segs" | awk '{print $NF}' | sort -u | wc -l)" "$n" "N distinct rules shown"
"$FL" rules --format json > "$TMP/rules.json"
for plugin in $(jget "$TMP/rules.json" "=' '.join(p['name'] for p in d['plugins'])"); do
  expect_grep "$TMP/segs" "${P}rule [0-9]+/$n $plugin\\.[a-z-]+"
done
# the credit-loop walk reports its root switches: 2,048 leaves of radix 64
expect_grep "$TMP/segs" "${P}rule [0-9]+/$n deadlock\\.credit-loop +[0-9]+% \\([0-9,]+/2,048 root switches\\)\$"
expect_grep "$TMP/segs" "${P}rule [0-9]+/$n deadlock\\.credit-loop 100% \\(2,048/2,048 root switches\\)\$"
# every walk (the engine judged, then minhop for comparison) counts 2,048
expect_eq "$(grep 'root switches)' "$TMP/segs" | grep -vc '/2,048 root switches)$')" 0 "root switch totals"
# -v: per-plugin and per-rule times; each plugin's is the sum of its rules'
python3 - "$TMP/segs" "$n" <<'EOF' > "$TMP/sums" || fail "timing summary"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
plugins, rules, cur = {}, {}, None
for l in lines:
    m = re.match(r"^fabriclint:   plugin (\S+) +(\d+\.\d{3}) s$", l)
    if m:
        cur = m.group(1); plugins[cur] = float(m.group(2)); rules[cur] = []
        continue
    m = re.match(r"^fabriclint:     (\S+) +(\d+\.\d{3}) s +\d+\.\d MiB$", l)
    if m:
        assert cur and m.group(1).startswith(cur + "."), l
        rules[cur].append(float(m.group(2)))
assert sum(len(v) for v in rules.values()) == int(sys.argv[2]), rules
for p, t in plugins.items():
    assert abs(sum(rules[p]) - t) <= 0.001 * (len(rules[p]) + 1), (p, t, rules[p])
print(" ".join(sorted(plugins)))
EOF
expect_eq "$(cat "$TMP/sums")" "$(jget "$TMP/rules.json" "=' '.join(sorted(p['name'] for p in d['plugins']))")" "a time line for every plugin"
# the peak memory printed is the process's (ru_maxrss of wait4 in the
# parent), within 10 %: it is read just before the end
rss=$(sed -nE 's/^fabriclint: peak memory [0-9.]+ MiB \(ru_maxrss ([0-9]+) KiB\)$/\1/p' "$TMP/segs")
expect_eq "$(pyval "0.9 * $(cat "$TMP/rss") <= ${rss:-0} <= $(cat "$TMP/rss")")" True "peak memory ${rss:-?} KiB vs $(cat "$TMP/rss") KiB"
cp "$TMP/out" "$TMP/out.tty"
# without a terminal: the same report, and nothing at all on stderr
expect_rc 1 "$FL" check "$TMP/ft.xml"
expect_eq "$(cmp -s "$TMP/out" "$TMP/out.tty" && echo same)" same "65,536 hosts: report with and without a terminal"
expect_eq "$(wc -c < "$TMP/err")" 0 "65,536 hosts: stderr without a terminal"
finish
