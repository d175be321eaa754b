# SPDX-License-Identifier: MIT
# Reading inputs robustly (issue 11): every file is read once by one
# reader, so FIFOs, pipes, /dev/stdin, <(...) and `-` load like files;
# devices that never end are refused; size, include and nesting limits
# give exit 2 naming what was exceeded; NUL bytes and DOCTYPEs are refused
# wherever they are; --output never overwrites a file the run read.
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/data/robustness"
TOPO="$FL_SRC/fabrics/rail-su-asbuilt.ibnetdiscover"
counts() { jget "$TMP/out" "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]"; }

# --- the same fabric through a file, a FIFO, a pipe, /dev/stdin, <(...), -
expect_rc 0 "$FL" info --format json "$TOPO"
expect_eq "$(counts)" "[12, 256, 512]" "file counts"
mkfifo "$TMP/fifo"
(cat "$TOPO" >"$TMP/fifo") &
expect_rc 0 timeout 20 "$FL" info --format json "$TMP/fifo"
wait
expect_eq "$(counts)" "[12, 256, 512]" "FIFO counts"
expect_eq "$(jget "$TMP/out" "['inputs'][0]['format']")" ibnetdiscover "FIFO format"
expect_rc 0 sh -c 'cat "$1" | "$2" info --format json /dev/stdin' sh "$TOPO" "$FL"
expect_eq "$(counts)" "[12, 256, 512]" "/dev/stdin counts"
expect_rc 0 bash -c '"$2" info --format json <(cat "$1")' sh "$TOPO" "$FL"
expect_eq "$(counts)" "[12, 256, 512]" "process substitution counts"
expect_rc 0 sh -c '"$2" info --format json - <"$1"' sh "$TOPO" "$FL"
expect_eq "$(counts)" "[12, 256, 512]" "'-' counts"
expect_eq "$(jget "$TMP/out" "['inputs'][0]['path']")" "-" "'-' named as given"
# the policy is read through the same reader: '-' is standard input too
expect_rc 2 sh -c 'printf "bogus: 1\n" | "$2" check --policy - "$1"' sh "$TOPO" "$FL"
expect_grep "$TMP/err" "^fabriclint: -:1:1: unknown key 'bogus' at the top of the policy"

# --- devices that never end: refused at once, for every kind of file
DEV="not a regular file \(a character device, which may never end\)"
expect_rc 2 timeout 20 "$FL" info --input-format ibnetdiscover /dev/zero
expect_grep "$TMP/err" "^fabriclint: /dev/zero: $DEV; expected the input as a file"
expect_rc 2 timeout 20 "$FL" info --input-format lldpd-xml /dev/zero
expect_grep "$TMP/err" "^fabriclint: /dev/zero: $DEV"
expect_rc 2 timeout 20 "$FL" info /dev/zero
expect_grep "$TMP/err" "^fabriclint: /dev/zero: $DEV"
expect_rc 2 timeout 20 "$FL" check --policy /dev/zero "$TOPO"
expect_grep "$TMP/err" "^fabriclint: /dev/zero: $DEV; expected the policy as a file"
expect_rc 2 timeout 20 "$FL" info --node-name-map /dev/zero "$TOPO"
expect_grep "$TMP/err" "^fabriclint: /dev/zero: $DEV; expected the node-name-map"
expect_rc 2 timeout 20 "$FL" check --baseline /dev/zero "$TOPO"
expect_grep "$TMP/err" "^fabriclint: /dev/zero: $DEV; expected the baseline"
expect_rc 2 timeout 20 "$FL" info "$D/ibsim-include-devzero.net"
expect_grep "$TMP/err" "ibsim-include-devzero.net:3:1: include \"/dev/zero\": $DEV"

# --- the input size limit (FABRICLINT_MAX_INPUT_SIZE), for files and pipes
expect_rc 2 env FABRICLINT_MAX_INPUT_SIZE=1K "$FL" info "$TOPO"
expect_grep "$TMP/err" "rail-su-asbuilt.ibnetdiscover: input is larger than the input size limit of 1024 bytes \(set FABRICLINT_MAX_INPUT_SIZE to raise it\)"
expect_rc 2 sh -c 'cat "$1" | FABRICLINT_MAX_INPUT_SIZE=4096 "$2" info -' sh "$TOPO" "$FL"
expect_grep "$TMP/err" "^fabriclint: -: input is larger than the input size limit of 4096 bytes"
expect_rc 0 env FABRICLINT_MAX_INPUT_SIZE=1M "$FL" info "$TOPO"
expect_rc 2 env FABRICLINT_MAX_INPUT_SIZE=lots "$FL" info "$TOPO"
expect_grep "$TMP/err" "FABRICLINT_MAX_INPUT_SIZE='lots' is not a size"

# --- ibsim includes: a budget of 1,000 files, 9 levels, no cycle
expect_rc 2 timeout 20 "$FL" info "$D/ibsim-include-fanout/top.net"
expect_grep "$TMP/err" "l6.net:7:1: include \".*/l7.net\": more than 1000 includes in one net file \(the include budget"
printf 'Switch 1 "a"\ninclude self.net\n' >"$TMP/self.net"
expect_rc 2 "$FL" info "$TMP/self.net"
expect_grep "$TMP/err" "self.net:2:1: include \".*self.net\": include cycle"

# --- nesting: YAML block and flow at 64 levels, XML at libxml2's 256
expect_rc 2 "$FL" check --policy "$D/policy-block-nesting-100.yaml" "$TOPO"
expect_grep "$TMP/err" "policy-block-nesting-100.yaml:3:129: YAML nested deeper than 64 levels"
python3 -c "print('rules:\n  enable:\n    ' + '- ' * 2000000 + 'x')" >"$TMP/deep.yaml"
expect_rc 2 timeout 20 "$FL" check --policy "$TMP/deep.yaml" "$TOPO"
expect_grep "$TMP/err" "deep.yaml:3:129: YAML nested deeper than 64 levels"
python3 -c "print('<lldp>' + '<a>' * 300 + '</a>' * 300 + '</lldp>')" >"$TMP/deep.xml"
expect_rc 2 "$FL" info "$TMP/deep.xml"
expect_grep "$TMP/err" "deep.xml:1:777: malformed XML: Excessive depth in document: 256"

# --- NUL bytes anywhere, with or without --input-format
expect_rc 2 "$FL" check "$D/nul-after-64k.ibnetdiscover"
expect_grep "$TMP/err" "nul-after-64k.ibnetdiscover:6:42: NUL byte"
expect_rc 2 "$FL" info --input-format ibnetdiscover "$D/nul-in-description.ibnetdiscover"
expect_grep "$TMP/err" "nul-in-description.ibnetdiscover:1:42: NUL byte"

# --- DOCTYPE in UTF-16: refused after decoding, as in UTF-8
expect_rc 2 "$FL" check --input-format lldpd-xml "$D/lldpd-utf16-doctype.xml"
expect_grep "$TMP/err" "lldpd-utf16-doctype.xml:[0-9]+: <!DOCTYPE is not allowed"
expect_rc 2 "$FL" check "$D/lldpd-utf16-doctype.xml"
expect_grep "$TMP/err" "lldpd-utf16-doctype.xml:1:1: UTF-16 text: fabriclint reads UTF-8"

# --- --output must not overwrite a file an ibsim include pulled in
cp -r "$D/output-overwrites-include" "$TMP/ow"
chmod -R u+w "$TMP/ow"
expect_rc 2 sh -c 'cd "$1" && "$2" check --output inc.net top.net' sh "$TMP/ow" "$FL"
expect_grep "$TMP/err" "^fabriclint: inc.net: --output would overwrite inc.net, a file this run read; refusing"
if cmp -s "$TMP/ow/inc.net" "$D/output-overwrites-include/inc.net"; then pass; else fail "inc.net was modified"; fi
expect_rc 2 sh -c 'cd "$1" && "$2" check --write-baseline inc.net top.net' sh "$TMP/ow" "$FL"
expect_grep "$TMP/err" "--write-baseline would overwrite inc.net"

# --- Cisco plans: one limit, 4096 ports per port set
expect_rc 0 "$FL" info --format json "$D/cisco-plan-range-4096.xml"
expect_eq "$(jget "$TMP/out" "=[d['fabric'][k] for k in ('switches', 'links')]")" "[2, 1]" "4096-port plan"
sed 's/eth1\/1-4096"/eth1\/1-4096, eth1\/5000"/' "$D/cisco-plan-range-4096.xml" >"$TMP/p4097.xml"
expect_rc 2 "$FL" info "$TMP/p4097.xml"
expect_grep "$TMP/err" "p4097.xml:1: sourcePort='eth1/1-4096, eth1/5000': more than 4096 ports in one port set"
finish
