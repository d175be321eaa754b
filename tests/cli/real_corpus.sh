#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/real_corpus.sh — issue 30: fabriclint's verdicts on the real-fabric
# corpus (tests/data/real/, docs/real-fabrics.md) are pinned: for every capture
# of corpus.tsv, the exit status, what was loaded, and per rule and severity
# above info the number of findings and the nodes they name
# (expected/ID.txt). A change fails until it is reviewed and the pins are
# regenerated with
#   python3 tests/cli/real_corpus.py --fl build/fabriclint --update
# and judgements.tsv / docs/real-fabrics.md updated. Findings judged FALSE
# are pinned as they are ("# KNOWN FALSE" in expected/), so a fix shows up
# here as an intentional update.
. "$(dirname "$0")/lib.bash"
src=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
# The pins and reviews (M) and the capture files (M/captures: third
# parties' data under licences that allow redistribution, PROVENANCE.md,
# captures/LICENSES) are in the repo, so this runs in CI on a clean clone;
# FL_REAL_CORPUS points it at another copy (e.g. one tests/data/real/fetch.sh
# fetched again from upstream).
M=$src/tests/data/real
R=${FL_REAL_CORPUS:-$M/captures}
if [ ! -r "$M/corpus.tsv" ]; then
  echo "SKIP: tests/data/real/corpus.tsv is missing"
  exit 77
fi
if [ ! -d "$R" ]; then
  echo "SKIP: the real-fabric corpus files are not here ($R; tests/data/real/README.md)"
  exit 77
fi
# every file a capture names is there (a packager may drop big samples)
while IFS=$'\t' read -r id files; do
  case $id in '#'* | '') continue ;; esac
  for f in $files; do
    if [ ! -r "$R/$f" ]; then
      echo "SKIP: corpus file $f of capture $id is missing from $R"
      exit 77
    fi
  done
done <"$M/corpus.tsv"

if python3 "$src/tests/cli/real_corpus.py" --fl "$FL" --meta "$M" --root "$R" >"$TMP/out" 2>"$TMP/err"; then
  pass
else
  fail "verdicts on the real-fabric corpus changed:"
  cat "$TMP/out" "$TMP/err" >&2
fi
tail -1 "$TMP/out"
# the corpus figures of docs/real-fabrics.md
expect_eq "$(grep -vc '^#' "$M/corpus.tsv")" "88" "captures in corpus.tsv"
expect_eq "$(find "$M/expected" -name "*.txt" | wc -l)" "88" "one pinned summary per capture"
# every pinned finding class above info is reviewed
expect_eq "$(grep -l '^# NOT REVIEWED' "$M"/expected/*.txt | wc -l)" "0" "every finding class reviewed (judgements.tsv)"
# each file in the folder has its PROVENANCE row, byte-exact
while IFS= read -r b; do
  f=$R/$b
  blob=$(git hash-object "$f" 2>/dev/null || python3 -c 'import hashlib,sys; d=open(sys.argv[1],"rb").read(); print(hashlib.sha1(b"blob %d\0" % len(d) + d).hexdigest())' "$f")
  if grep -q "^| \`$b\` |.*| ${blob}[ |]" "$M/PROVENANCE.md"; then pass; else fail "$b: no PROVENANCE.md row with blob $blob"; fi
done < <(cd "$R" && find . -type f ! -path './expected/*' ! -path './LICENSES/*' ! -name corpus.tsv ! -name judgements.tsv ! -name PROVENANCE.md ! -name README.md ! -name "make*.sh" | sed 's#^\./##' | sort)
finish
