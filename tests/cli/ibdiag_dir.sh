# SPDX-License-Identifier: MIT
# An ibdiagnet output folder as one input (issue 36;
# docs/formats/ibdiagnet-dir.md), built from the real OpenSM/ibsim fixture
# of tests/fixtures/routing/fat-tree-2tier-ftree as ibdiagnet lays its files
# out: ibdiagnet2.db_csv (written from the layout for that capture,
# tests/fixtures/dbcsv/ftree-topology.db_csv), .ibnetdiscover, .lst and
# .fdbs (ibdiagnet writes them in those tools' formats), and files of no
# format fabriclint reads (.log, .sharp_an_info). The fabric comes from the
# db_csv alone (the .ibnetdiscover and .lst describe it again: one note
# each, no second plane), the .fdbs is loaded against it, the rest is named
# in one note; the findings are those of the db_csv and .fdbs given as two
# inputs. A folder of one format is read as before.
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/tests/fixtures/routing/fat-tree-2tier-ftree"
D="$TMP/ibdiagnet2"
mkdir -p "$D"
cp "$FL_SRC/tests/fixtures/dbcsv/ftree-topology.db_csv" "$D/ibdiagnet2.db_csv"
cp "$F/topology.ibnetdiscover" "$D/ibdiagnet2.ibnetdiscover"
cp "$F/opensm-subnet.lst" "$D/ibdiagnet2.lst"
cp "$F/opensm.fdbs" "$D/ibdiagnet2.fdbs"
printf -- '-I- Discovering ... 14 nodes (6 Switches & 8 CA-s) discovered.\n' >"$D/ibdiagnet2.log"
printf 'SW_GUID=0x0002c90301000001\nendianness = 0\n' >"$D/ibdiagnet2.sharp_an_info"

expect_rc 0 "$FL" info "$D"
expect_grep "$TMP/out" "ibdiagnet2 \(ibdiagnet-dir\)"
expect_grep "$TMP/out" "^fabric: 6 switches, 8 CAs, 0 routers, 16 links"
expect_grep "$TMP/out" "^routing: LFTs of 6 of 6 switches"

# the notes: the two other descriptions, the files of no readable format
expect_rc 0 "$FL" check --format json "$D"
N="=sorted(f['message'].split(': ', 1)[1] for f in d['findings'] if f['rule'] == 'topology.input')"
expect_eq "$(jget "$TMP/out" "$N")" "['2 files of the ibdiagnet folder in no format fabriclint reads, not read: ibdiagnet2.log, ibdiagnet2.sharp_an_info', 'ibdiagnet2.ibnetdiscover (ibnetdiscover) not read: it describes the same fabric; the fabric comes from ibdiagnet2.db_csv', 'ibdiagnet2.lst (subnet-lst) not read: it describes the same fabric; the fabric comes from ibdiagnet2.db_csv']" "the notes"

# the same findings as the db_csv and the .fdbs given as two inputs (the
# notes aside), and AR from the db_csv's AR_INFO
K="=sorted((f['rule'], f['severity'], f['message']) for f in d['findings'] if f['rule'] != 'topology.input')"
want=$(jget "$TMP/out" "$K")
expect_rc 0 "$FL" check --format json "$D/ibdiagnet2.db_csv" "$D/ibdiagnet2.fdbs"
expect_eq "$(jget "$TMP/out" "$K")" "$want" "findings of the folder"
expect_rc 0 "$FL" check --rules adaptive-routing --format json "$D"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['coverage_percent'] for f in d['findings'] if f['rule'] == 'adaptive-routing.summary']")" "[100]" "AR from the folder's db_csv"

# a second dump of AR state only (NODES, no LINKS) beside the full one: the
# full one describes the fabric, whatever the names; an empty file is named
cp "$FL_SRC/tests/fixtures/dbcsv/ar-on.db_csv" "$D/a-first.db_csv"
: >"$D/ibdiagnet2.pm"
expect_rc 0 "$FL" check --format json "$D"
expect_eq "$(jget "$TMP/out" "=[f['message'].split(': ', 1)[1] for f in d['findings'] if 'a-first' in f['message'] or 'empty' in f['message']]")" \
  "['a-first.db_csv (ibdiagnet-db) not read: it lists no cable (no LINKS section); the fabric comes from ibdiagnet2.db_csv', 'ibdiagnet2.pm is empty: not read (what it would hold is missing)']" "a dump without LINKS, an empty file"
expect_rc 0 "$FL" info "$D"
expect_grep "$TMP/out" "^fabric: 6 switches, 8 CAs, 0 routers, 16 links"
rm "$D/a-first.db_csv" "$D/ibdiagnet2.pm"

# the db_csv without its LINKS section: the fabric from the .ibnetdiscover
awk '/^START_LINKS/ { skip = 1 } !skip { print } /^END_LINKS/ { skip = 0 }' \
  "$D/ibdiagnet2.db_csv" >"$TMP/nolinks.db_csv"
cp "$TMP/nolinks.db_csv" "$D/ibdiagnet2.db_csv"
expect_rc 0 "$FL" info "$D"
expect_grep "$TMP/out" "^fabric: 6 switches, 8 CAs, 0 routers, 16 links"
expect_rc 2 "$FL" info "$TMP/nolinks.db_csv"
expect_grep "$TMP/err" "nolinks.db_csv: no LINKS section: the dump lists no cable"
cp "$FL_SRC/tests/fixtures/dbcsv/ftree-topology.db_csv" "$D/ibdiagnet2.db_csv"

# a NODES section past the first 64 KiB (a long first section): still the
# fabric, alone and in the folder
{ printf 'START_INDEX_TABLE\nTableName,Offset\n'
  for i in $(seq 1 4000); do printf 'T%05d,%d\n' "$i" "$i"; done
  printf 'END_INDEX_TABLE\n\n'
  cat "$FL_SRC/tests/fixtures/dbcsv/ftree-topology.db_csv"; } >"$TMP/late.db_csv"
expect_rc 0 "$FL" info "$TMP/late.db_csv"
expect_grep "$TMP/out" "late.db_csv \(ibdiagnet-db\)"
cp "$TMP/late.db_csv" "$D/ibdiagnet2.db_csv"
expect_rc 0 "$FL" info "$D"
expect_grep "$TMP/out" "ibdiagnet2 \(ibdiagnet-dir\)"
cp "$FL_SRC/tests/fixtures/dbcsv/ftree-topology.db_csv" "$D/ibdiagnet2.db_csv"

# without the db_csv: a folder of mixed formats, refused as before
rm "$D/ibdiagnet2.db_csv"
expect_rc 2 "$FL" info "$D"
expect_grep "$TMP/err" "folder .* mixes formats|unrecognised format"

# a file forced as the folder format
expect_rc 2 "$FL" info --input-format ibdiagnet-dir "$F/topology.ibnetdiscover"
expect_grep "$TMP/err" "ibdiagnet-dir is the format of an ibdiagnet output folder .*this is a file"
finish
