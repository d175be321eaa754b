# SPDX-License-Identifier: MIT
# ibdiagnet2.db_csv as a topology (issue 36; docs/formats/ibdiagnet-db.md):
# the dump ibdiagnet would write of the README's fabric (a real ibsim
# capture, fabrics/rail-su-asbuilt.ibnetdiscover), written by
# tests/fixtures/dbcsv/ibnd_to_dbcsv.py from the documented layout (no public
# db_csv was found; ibdiagnet is not in Debian), gives the same fabric as
# the capture: the same ibnetdiscover dump when converted, the same findings
# (the crossed pair and the 1x uplink with its 4 consequences), whatever the
# order of its sections and with cables listed twice. Beside the capture it
# adds its AR state and no node.
. "$(dirname "$0")/lib.bash"
CAP="$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
GEN="$FL_SRC/tests/fixtures/dbcsv/ibnd_to_dbcsv.py"
python3 "$GEN" "$CAP" >"$TMP/su.db_csv" || fail "writing the db_csv"
python3 "$GEN" "$CAP" --links-first --dup-links --ar >"$TMP/su2.db_csv" ||
  fail "writing the second db_csv"

# detected by content, whatever the file's name
cp "$TMP/su.db_csv" "$TMP/dump.txt"
expect_rc 0 "$FL" info "$TMP/dump.txt"
expect_grep "$TMP/out" "dump.txt \(ibdiagnet-db\)"

# the same fabric: the ibnetdiscover dump written from each is the same
expect_rc 0 "$FL" convert "$CAP" -o "$TMP/cap.ibnd" --format ibnetdiscover
for db in su su2; do
  expect_rc 0 "$FL" convert "$TMP/$db.db_csv" -o "$TMP/$db.ibnd" --format ibnetdiscover
  if cmp -s "$TMP/cap.ibnd" "$TMP/$db.ibnd"; then pass; else
    fail "$db.db_csv: not the capture's fabric"; diff "$TMP/cap.ibnd" "$TMP/$db.ibnd" | head -5 >&2; fi
done

# the same findings (rule, severity, nodes, ports, consequences)
F="=sorted((f['rule'], f['severity'], tuple(f['nodes']), len(f.get('consequences', []))) for f in d['findings'] if f['severity'] != 'info')"
expect_rc 1 "$FL" check --format json "$CAP"
want=$(jget "$TMP/out" "$F")
expect_rc 1 "$FL" check --format json "$TMP/su.db_csv"
expect_eq "$(jget "$TMP/out" "$F")" "$want" "db_csv findings"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings'] if f['severity'] != 'info']")" "['rail-alignment.swapped', 'topology.degraded-link']" "the two causes"
# located in the dump: the crossed pair at its cable's LINKS row
expect_rc 1 "$FL" check "$TMP/su.db_csv"
expect_grep "$TMP/out" "^$TMP/su.db_csv:[0-9]+:1: error: the cables of \"dgx-001 mlx5_0\" \(rail mlx5_0\) and \"dgx-001 mlx5_3\""

# port states and the cable's data reach the model
expect_rc 0 "$FL" convert "$TMP/su.db_csv" -o "$TMP/su.xml" --format design
# 512 cables, every port of every switch cabled (12 x 64 + 256 HCA ports)
expect_eq "$(grep -c 'key="state" value="Active/LinkUp"' "$TMP/su.xml")" "1024" "Active ports, 2 per cable"
expect_eq "$(grep -c 'key="cable-pn" value="MCP1650-H001E30"' "$TMP/su.xml")" "256" "host cables with a part number"

# beside the capture: AR state from AR_INFO, no second copy of any node
expect_rc 0 "$FL" info --format json "$CAP" "$TMP/su2.db_csv"
expect_eq "$(jget "$TMP/out" "['fabric']")" "{'switches': 12, 'cas': 256, 'routers': 0, 'links': 512}" "the fabric beside the capture"
expect_rc 0 "$FL" check --rules adaptive-routing --format json "$CAP" "$TMP/su2.db_csv"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['coverage_percent'] for f in d['findings'] if f['rule'] == 'adaptive-routing.summary']")" "[100]" "AR from the dump"

# the format named: the same; the routing-state role named instead, the
# dump alone describes no fabric
expect_rc 0 "$FL" info --format json --input-format ibdiagnet-db "$TMP/su.db_csv"
expect_eq "$(jget "$TMP/out" "['fabric']")" "{'switches': 12, 'cas': 256, 'routers': 0, 'links': 512}" "forced ibdiagnet-db"
expect_rc 2 "$FL" info --input-format ibdiagnet-db-csv "$TMP/su.db_csv"
expect_grep "$TMP/err" "no topology among the inputs"

# a port Initialize at one end: the link-state rule judges the dump's state
sed 's/^\(0x0002c90302000010,0x0002c90302000011,1,.*\),0,5,4,3841,N\/A,N\/A$/\1,0,5,2,3841,N\/A,N\/A/' "$TMP/su.db_csv" >"$TMP/init.db_csv"
expect_rc 1 "$FL" check --rules topology.link-inactive "$TMP/init.db_csv"
expect_grep "$TMP/out" "error: link \"leaf-su01-r7\" port 1 <-> \"dgx-001 mlx5_11\" port 1 is physically up \(LinkUp\) but Initialize at \"dgx-001 mlx5_11\" port 1"

# a real ibdiagnet dump, where one is at hand (none public was found):
# FL_IBDIAGNET_DUMP=FOLDER with the ibdiagnet2.db_csv and the
# ibdiagnet2.ibnetdiscover of one run give the same fabric
if [ -n "${FL_IBDIAGNET_DUMP:-}" ]; then
  expect_rc 0 "$FL" convert --input-format ibdiagnet-db "$FL_IBDIAGNET_DUMP/ibdiagnet2.db_csv" -o "$TMP/real-db.ibnd" --format ibnetdiscover
  expect_rc 0 "$FL" convert "$FL_IBDIAGNET_DUMP/ibdiagnet2.ibnetdiscover" -o "$TMP/real-ibnd.ibnd" --format ibnetdiscover
  if cmp -s "$TMP/real-db.ibnd" "$TMP/real-ibnd.ibnd"; then pass; else
    fail "the real dump's db_csv and ibnetdiscover differ"; diff "$TMP/real-db.ibnd" "$TMP/real-ibnd.ibnd" | head -5 >&2; fi
else
  echo "SKIP (part): no real ibdiagnet dump (set FL_IBDIAGNET_DUMP=FOLDER)"
fi

# a cable whose end NODES does not list: file:line:col
sed 's/^0x0002c90301000008,1,0x0002c90302000010,1$/0x0002c90301000008,1,0x0002c9030200ffff,1/' "$TMP/su.db_csv" >"$TMP/bad.db_csv"
expect_rc 2 "$FL" check "$TMP/bad.db_csv"
expect_grep "$TMP/err" "bad.db_csv:[0-9]+:22: section LINKS: node 0x0002c9030200ffff is not listed in NODES"
finish
