# SPDX-License-Identifier: MIT
# Format detection by structure wherever it appears (core/io/load.c,
# docs/cli.md "Format detection"):
# 1. a real `ibnetdiscover -s` capture (tests/fixtures/ibnd-s/make.sh:
#    ibsim + ibnetdiscover on fabrics/rail-su.net) whose 758 progress lines
#    (73,014 bytes) fill the first 64 KiB window is read as ibnetdiscover;
# 2. the search bound, 64 MiB: a dump whose first identifying line ends on
#    the last byte of the bound is found, one byte later it is not;
# 3. an input two formats fit (a support capture holding ibnetdiscover and
#    iblinkinfo output, both orders) is read as the first in the detection
#    order, with one note naming both and the option to read it as the other;
# 4. an input detected by a guess (found after the first window, or two
#    formats fit) whose loader refuses a line says the line, what was
#    expected, and what the input was read as.
. "$(dirname "$0")/lib.bash"
S=$FL_SRC/tests/fixtures/ibnd-s/rail-su-s.ibnetdiscover
IBL=$FL_SRC/tests/data/cases/n02-iblinkinfo-output/iblinkinfo-l.out
IBND=$FL_SRC/fabrics/fat-tree-2tier.ibnetdiscover

counts() {
  jget "$TMP/out" "=' '.join(str(d['fabric'][k]) for k in ('switches','cas','links'))"
}
notes() {
  "$FL" check --format json "$1" >"$TMP/check.json" 2>/dev/null
  jget "$TMP/check.json" "='\n'.join(f['message'].split(': ',1)[1] for f in d['findings'] if f['rule']=='topology.input')"
}

# ---- 1. ibnetdiscover -s ---------------------------------------------------------
first=$(grep -b -m1 '^#' "$S" | cut -d: -f1)
expect_eq "$first" 73014 "the progress lines fill the first 64 KiB window (73,014 bytes)"
expect_rc 0 "$FL" info --format json "$S"
expect_eq "$(jget "$TMP/out" "=d['inputs'][0]['format']")" ibnetdiscover "-s capture detected"
expect_eq "$(counts)" "12 256 512" "-s capture: 12 switches, 256 CAs, 512 cables"
expect_eq "$(notes "$S")" "758 line(s) that are not ibnetdiscover output were skipped (the first is line 1)" "-s: the progress lines, one note"
# the same cabling as the committed dump of that net file
expect_rc 0 "$FL" diff --format json "$FL_SRC/fabrics/rail-su.ibnetdiscover" "$S"
expect_eq "$(jget "$TMP/out" "=len([f for f in d['findings'] if f['severity'] in ('error','warning')])")" 0 "-s capture: same cables as fabrics/rail-su.ibnetdiscover"

# ---- 2. the 64 MiB bound ---------------------------------------------------------
# progress lines, then the dump; the first identifying line of the dump
# (switchguid=...) ends (newline included) at byte @1 of the file
pad_to() {
  python3 - "$1" "$S" "$2" <<'PY'
import sys
end, src, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
data = open(src, 'rb').read()
topo = data[data.index(b'\n#\n') + 1:]
k = topo.index(b'\nswitchguid=') + 1
k = topo.index(b'\n', k) + 1          # bytes of the dump up to that line's end
line = data.split(b'\n', 1)[0] + b'\n'  # a real progress line
pad = end - k
with open(out, 'wb') as f:
    n = pad // len(line) - 1
    f.write(line * n)
    rest = pad - n * len(line)
    f.write(b'#' * (rest - 1) + b'\n')  # a comment line to fill to the byte
    f.write(topo)
PY
}
MAX=$((64 * 1024 * 1024))
pad_to $MAX "$TMP/at.txt"
expect_rc 0 "$FL" info --format json "$TMP/at.txt"
expect_eq "$(counts)" "12 256 512" "first identifying line ends on the last byte of the 64 MiB bound: found"
pad_to $((MAX + 1)) "$TMP/past.txt"
expect_rc 2 "$FL" info "$TMP/past.txt"
expect_eq "$(grep -cF 'past.txt: unrecognised format (searched the first 64 MiB of the input): expected ' "$TMP/err")" 1 "one byte past the bound: not found, and the message says how far it searched"
rm -f "$TMP/at.txt" "$TMP/past.txt"

# ---- 3. two formats fit, both orders ---------------------------------------------
cat "$IBND" "$IBL" >"$TMP/ab.txt"
cat "$IBL" "$IBND" >"$TMP/ba.txt"
two='input fits two formats: ibnetdiscover output (Switch/Ca lines with "S-"/"H-" GUID ids) and iblinkinfo output (default, -l, --switches-only; "==( 4X ... Active/ LinkUp)==>" port lines); read as ibnetdiscover, the first of the two in the detection order (docs/cli.md, Format detection); `--input-format iblinkinfo` reads it as the other'
for f in ab ba; do
  expect_rc 0 "$FL" info --format json "$TMP/$f.txt"
  expect_eq "$(counts)" "24 128 256" "$f: the ibnetdiscover part is read"
  expect_eq "$(notes "$TMP/$f.txt" | grep -c 'fits two formats')" 1 "$f: one note"
  expect_eq "$(notes "$TMP/$f.txt" | grep 'fits two formats')" "$two" "$f: which, why, and how to read it as the other"
done
# the file fits one format alone: no such note
expect_eq "$(notes "$IBND" | grep -c 'fits two formats')" 0 "one format: no note"
expect_eq "$(notes "$IBL" | grep -c 'fits two formats')" 0 "iblinkinfo alone: no note"

# ---- 4. detected by a guess, refused by the format's grammar --------------------
# the -s capture with a broken port line after the progress lines: the error
# names the line, what was expected, and what the input was read as
n=$(grep -n -m1 '^\[1\]' "$S" | cut -d: -f1)
sed "${n}s/\"H-\([0-9a-f]*\)\"/\"H-0002c9030000zzzz\"/" "$S" >"$TMP/bad.txt"
# the deciding window starts on the line after the last whole line of the
# first 64 KiB
w=$(($(head -c 65536 "$S" | tr -cd '\n' | wc -c) + 1))
expect_eq "$w" 684 "the second window starts at line 684"
expect_rc 2 "$FL" check "$TMP/bad.txt"
expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/bad.txt:$n:8: GUID is not 16 hex digits (found 12) (read as ibnetdiscover: the input looks like ibnetdiscover output (Switch/Ca lines with \"S-\"/\"H-\" GUID ids) from line $w on; --input-format reads it as another format)" "the line, what was expected, what it was read as"
# the same in a file two formats fit
sed "11s/\"H-\([0-9a-f]*\)\"/\"H-0002c9030000zzzz\"/" "$TMP/ab.txt" >"$TMP/bad2.txt"
expect_rc 2 "$FL" check "$TMP/bad2.txt"
expect_eq "$(grep -c '11:8: GUID is not 16 hex digits (found 12) (read as ibnetdiscover: the input looks like ibnetdiscover output' "$TMP/err")" 1 "two formats fit: the error says what it was read as"
# a forced format, or a first window that fits one format alone: the
# loader's message as it is
expect_rc 2 "$FL" check --input-format ibnetdiscover "$TMP/bad.txt"
expect_eq "$(grep -c 'read as ibnetdiscover' "$TMP/err")" 0 "forced format: the loader's message"
sed "11s/\"H-\([0-9a-f]*\)\"/\"H-0002c9030000zzzz\"/" "$IBND" >"$TMP/bad3.txt"
expect_rc 2 "$FL" check "$TMP/bad3.txt"
expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/bad3.txt:11:8: GUID is not 16 hex digits (found 12)" "one format, first window: the loader's message"

# ---- 5. byte-order marks: a UTF-8 BOM is skipped, UTF-16 is said ----------------
# a real lldpd capture (`lldpcli -f xml show neighbors`, fabrics/diff/lldp)
# with a UTF-8 BOM is still XML; the same in UTF-16, both byte orders
# (iconv, with the BOM a Windows editor writes), is refused as UTF-16 text
LLDP=$FL_SRC/fabrics/diff/lldp/SPINE-01.xml
{ printf '\357\273\277'; cat "$LLDP"; } >"$TMP/bom.xml"
expect_rc 0 "$FL" info --format json "$TMP/bom.xml"
expect_eq "$(jget "$TMP/out" "=d['inputs'][0]['format']") $(counts)" "lldpd-xml $(
  "$FL" info --format json "$LLDP" >"$TMP/plain.json" && jget "$TMP/plain.json" "=' '.join(str(d['fabric'][k]) for k in ('switches','cas','links'))")" \
  "UTF-8 BOM: read as the lldpd XML it is, same counts"
{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$LLDP"; } >"$TMP/le.xml"
{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$LLDP"; } >"$TMP/be.xml"
for bo in le be; do
  expect_rc 2 "$FL" info "$TMP/$bo.xml"
  expect_eq "$(cat "$TMP/err")" "fabriclint: $TMP/$bo.xml:1:1: UTF-16 text: fabriclint reads UTF-8 (convert with \`iconv -f UTF-16 -t UTF-8\`)" "UTF-16 ($bo): said, not a NUL byte"
done

finish
