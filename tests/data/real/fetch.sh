#!/usr/bin/env bash
# tests/data/real/fetch.sh DEST — fetch the public capture files of the
# real-fabric corpus into DEST, byte for byte, from the repositories and
# commits that PROVENANCE.md names (needs git and network access), then
# remake the real-tool captures of captures/made/ (needs ibsim, OpenSM,
# infiniband-diags and lldpd: setup.sh installs them) and check every
# file's blob id against PROVENANCE.md. Then:
#   FL_REAL_CORPUS=DEST ctest --test-dir build -R real_corpus
# The same files are in the repository (captures/, licences in
# captures/LICENSES/); this checks them against upstream.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:?usage: fetch.sh DEST}
mkdir -p "$dest/.repos"
dest=$(cd "$dest" && pwd)
# rows: | `FILE` | OWNER/REPO | COMMIT | `PATH` | BYTES | BLOB | ...
grep -E '^\| `[^`]+` \| [A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+ \| [0-9a-f]{40} \|' "$here/PROVENANCE.md" |
  while IFS='|' read -r _ file repo commit path _bytes blob _rest; do
    file=$(echo "$file" | tr -d ' `')
    repo=$(echo "$repo" | tr -d ' ')
    commit=$(echo "$commit" | tr -d ' ')
    path=$(echo "$path" | sed 's/^ *`//; s/` *$//')
    blob=$(echo "$blob" | tr -d ' ')
    g=$dest/.repos/${repo//\//__}
    if [ ! -d "$g" ]; then
      git init -q --bare "$g"
      git -C "$g" remote add origin "https://github.com/$repo.git"
    fi
    git -C "$g" cat-file -e "$commit^{commit}" 2>/dev/null ||
      git -C "$g" fetch -q --depth 1 origin "$commit"
    git -C "$g" show "$commit:$path" >"$dest/$file"
    got=$(git hash-object "$dest/$file")
    [ "$got" = "$blob" ] || { echo "fetch.sh: $file: blob $got, PROVENANCE.md says $blob" >&2; exit 1; }
  done
# the real-tool captures (made/): remade from the fetched topologies
for s in "$here"/captures/made/make*.sh; do
  echo "fetch.sh: $s (see its header for what it needs)"
done
echo "fetch.sh: public files in $dest; remake made/ with the scripts above (their headers say how)"
