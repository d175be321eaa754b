#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/capture_cut.sh — an ibnetdiscover capture saved twice into one
# file, and one cut short at a line boundary (outside tester, session 10):
#   - `ibnetdiscover >> topo.txt` run twice: refused (exit 2) at the second
#     banner, naming file, line and the number of blocks before it; a
#     banner before any block (the first, or repeated there) is fine;
#   - a dump cut after its switch blocks: the CAs' blocks are missing, one
#     topology.one-sided-link finding for the capture ("lacks the blocks of
#     N node(s)") instead of one per cable (646 before).
# The dump is `fabriclint gen ... --format ibnetdiscover` (ibnetdiscover's
# layout, banner included).
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 1 --hosts-per-su 8 --format ibnetdiscover -o "$TMP/one.ibnd"
n=$(wc -l <"$TMP/one.ibnd")
cat "$TMP/one.ibnd" "$TMP/one.ibnd" >"$TMP/twice.ibnd"
expect_rc 2 "$FL" check "$TMP/twice.ibnd"
banner=$(( n + $(grep -n 'Topology file:' "$TMP/one.ibnd" | cut -d: -f1) ))
expect_grep "$TMP/err" "twice\\.ibnd:$banner:[0-9]+: a second ibnetdiscover banner \"# Topology file:\" after 76 node block\\(s\\): the file holds two captures"
# the banner twice before the first block: one capture
{ head -3 "$TMP/one.ibnd"; cat "$TMP/one.ibnd"; } >"$TMP/banner2.ibnd"
expect_rc 0 "$FL" info "$TMP/banner2.ibnd"

# ---- cut after the switch blocks -------------------------------------------------
last_sw=$(grep -n '^Switch' "$TMP/one.ibnd" | tail -1 | cut -d: -f1)
first_ca=$(grep -n '^Ca' "$TMP/one.ibnd" | head -1 | cut -d: -f1)
head -n $(( first_ca - 5 )) "$TMP/one.ibnd" >"$TMP/cut.ibnd" # before the id lines
[ "$first_ca" -gt "$last_sw" ] && pass || fail "switch blocks come first"
expect_rc 1 "$FL" check --format json --rules topology.one-sided-link "$TMP/cut.ibnd"
expect_eq "$(jget "$TMP/out" "=[(f['severity'], f['evidence'].get('nodes_without_listing'), f['evidence'].get('cables_from_one_end')) for f in d['findings']]")" \
  "[('error', 64, 64)]" "cut dump: one finding, 64 HCAs' blocks missing"

# ---- duplicate GUIDs of one pattern: one cause ---------------------------------------
# the CAs' node GUIDs consecutive and each port GUID node GUID + 1 (as ibsim
# numbers ports): each port GUID is the next CA's node GUID, 3 collisions
# among 4 CAs, one finding; a node GUID used twice stays its own finding
"$FL" gen fat-tree --radix 4 --hosts 4 -o "$TMP/ft4.xml"
python3 - "$TMP/ft4.xml" >"$TMP/dup.xml" <<'PY'
import re, sys
out, k, ca = [], 0, False
for line in open(sys.argv[1]).read().split("\n"):
    s = line.lstrip()
    if s.startswith("<node "):
        ca = 'kind="ca"' in s
        if ca:
            k += 1
            g = 0x0002c90302000100 + k
            line = re.sub(r'(guid|sysimgguid)="0x[0-9a-f]+"', lambda m: '%s="0x%016x"' % (m.group(1), g), line)
    elif ca and s.startswith('<port num="1"'):
        line = re.sub(r'guid="0x[0-9a-f]+"', 'guid="0x%016x"' % (0x0002c90302000100 + k + 1), line)
    if s.startswith('<node kind="switch" name="spine-p01-02"'):
        line = re.sub(r'(guid|sysimgguid)="0x[0-9a-f]+"', lambda m: '%s="0x0002c90301000001"' % m.group(1), line)
    out.append(line)
sys.stdout.write("\n".join(out))
PY
expect_rc 1 "$FL" check --format json --rules topology.duplicate-guid "$TMP/dup.xml"
expect_eq "$(jget "$TMP/out" "=sorted((f['message'].split(';')[0], f['evidence'].get('count', 1) if 'count' in f['evidence'] else len(f['evidence'].get('members', [])) or 1) for f in d['findings'])")" \
  "[('3 GUIDs are the port GUID of one node and the node GUID of another', 3), ('GUID 0x0002c90301000001 is used 2 times (\"leaf-p01-01\" and \"spine-p01-02\")', 1)]" \
  "duplicate GUIDs: one finding for the pattern, one for the node GUID used twice"
finish
