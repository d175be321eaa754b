#!/bin/bash
# SPDX-License-Identifier: MIT
# ci_layout.sh — core/ follows its stage order (core/STAGES) with no
# dependency cycle (tests/layout/check_layout.py) and prints nothing outside
# core/cli/, and the checker catches each kind of violation: an include of
# a higher stage, an include that does not name its stage, a cycle between
# two files of one stage, a print in the library, a public header that
# includes a core header, holds an algorithm (an inline body over 12
# lines) or, for the headers emptied by issue 29, grows past 249 lines. And
# the docs
# and file headers match the tree (tests/layout/check_docs.py): no merge-
# conflict marker, no opening comment naming a path that is not the file's,
# docs/testing.md's mutant counts those of tests/mutation/mutants.txt, no
# pipefail script ending a pipeline in a reader that stops early (grep -q).
. "$(dirname "$0")/lib.bash"
CHECK="python3 $FL_SRC/tests/layout/check_layout.py"

# the real tree: clean
expect_rc 0 $CHECK "$FL_SRC/core"
expect_eq "$(cat "$TMP/out")" "" "checker output on core/"
# the stage order is the one documented
expect_eq "$(grep -v '^#' "$FL_SRC/core/STAGES" | tr '\n' ' ')" \
  "util model io analysis host report diff cli " "stage order"

# a copy with one violation at a time
mutant() { rm -rf "$TMP/m"; mkdir -p "$TMP/m"; cp -r "$FL_SRC/core" "$FL_SRC/include" "$TMP/m/"; }

mutant   # the model reaching up into the plugin host
sed -i '0,/^#include "model\/fabric_impl.h"/s//&\n#include "host\/host.h"/' "$TMP/m/core/model/fabric.c"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/model/fabric\.c:[0-9]+: #include "host/host\.h": stage host is above model \(order: util < model < io < analysis < host < report < diff < cli\)$'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for an upward include"

mutant   # an internal include without its stage
sed -i 's|^#include "io/fileio.h"|#include "fileio.h"|' "$TMP/m/core/io/ibnd.c"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/io/ibnd\.c:[0-9]+: #include "fileio\.h" does not name its stage \(write "STAGE/fileio\.h"'

mutant   # the record store calling back into finalize: a cycle
cat >>"$TMP/m/core/model/fabric.c" <<'C'
void fl_b_mutant(fl_fabric *fab) { fl_fabric_free(fab); }
C
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/model/chassis\.c: include cycle among model/chassis\.c, model/counters\.c, model/derive\.c, model/fabric\.c, model/fabric_read\.c, model/finalize\.c, model/graph\.c, model/hostprof\.c, model/infer\.c, model/planes\.c, model/routing\.c, model/views\.c: .*model/fabric\.c -> model/finalize\.c \(fl_fabric_free\); .*model/finalize\.c -> model/fabric\.c \(fl_b_free_records\)'

mutant   # a hidden dependency through a local prototype is still seen
cat >>"$TMP/m/core/model/hashmap.c" <<'C'
void fl_derive_mutant(void);
void fl_hashmap_mutant(void) { fl_derive_mutant(); }
C
cat >>"$TMP/m/core/model/derive.c" <<'C'
void fl_hashmap_mutant(void);
void fl_derive_mutant(void) { fl_hashmap_mutant(); }
C
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/model/chassis\.c: include cycle among model/chassis\.c, model/derive\.c, model/fabric\.c, model/fabric_read\.c, model/hashmap\.c, model/portdir\.c: .*model/hashmap\.c -> model/derive\.c \(fl_derive_mutant\)(;|$)'

# a static function is the file's own even where another file defines one
# of that name (chassis.c's parse_num and ibnd_scan.c's): no dependency
expect_rc 0 $CHECK "$FL_SRC/core" --graph
expect_grep "$TMP/out" '^model/chassis\.c -> '
expect_eq "$(grep '^model/chassis\.c -> ' "$TMP/out" | grep -c 'io/')" 0 \
  "io/ files model/chassis.c depends on"

mutant   # the library printing a warning itself (issue 29): only cli/ prints
sed -i '0,/^static void api_log(/s//static void api_warn(void) { fputs("x\\n", stderr); }\n&/' "$TMP/m/core/host/host.c"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/host/host\.c:[0-9]+: stderr: the library prints nothing \(report through fl_error or the host.s event callback; only core/cli/ prints\)$'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for a print in the library"

mutant   # ... nor through printf; a printf format attribute is no print
sed -i '0,/^static void api_log(/s//static void api_say(void) { printf("x"); }\n&/' "$TMP/m/core/host/host.c"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/host/host\.c:[0-9]+: printf: the library prints nothing'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for a printf in the library"

mutant   # the util stage includes nothing above it
sed -i 's|^#include "util/natcmp.h"$|&\n#include "model/hashmap.h"|' "$TMP/m/core/util/natcmp.c"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/util/natcmp\.c:[0-9]+: #include "model/hashmap\.h": stage model is above util'

mutant   # a public header reaching into the core (the SDK ships include/ alone)
sed -i 's|^#include "fabriclint/routing.h"$|&\n#include "analysis/swview.h"|' "$TMP/m/include/fabriclint/view.h"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^include/fabriclint/view\.h:[0-9]+: #include "analysis/swview\.h": a public header includes only fabriclint/ and system headers'
expect_eq "$(grep -c 'public header includes only' "$TMP/out")" 1 "violations for an upward include from include/"

mutant   # an algorithm back in a public header (issue 29): a 13-line inline body
cat >>"$TMP/m/include/fabriclint/dist_split.h" <<'C'
static inline uint32_t fl_split_count(const uint32_t *a, uint32_t n) {
  uint32_t c = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (a[i] == 0)
      continue;
    if (a[i] > 1)
      c += 2;
    else
      c++;
    if (c > 1000)
      break;
  }
  return c;
}
C
expect_rc 0 $CHECK "$TMP/m/core" # 12 lines: a small inline accessor still
sed -i 's|^  return c;$|  c += n;\n&|' "$TMP/m/include/fabriclint/dist_split.h"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^include/fabriclint/dist_split\.h:[0-9]+: static inline fl_split_count\(\) has a 13-line body, more than 12: an algorithm belongs in the core'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for an algorithm in a public header"

mutant   # ... and the headers that were emptied stay small: 250 lines is one too many
n=$(wc -l <"$TMP/m/include/fabriclint/covers.h")
for _ in $(seq $((250 - n))); do echo '/* */' >>"$TMP/m/include/fabriclint/covers.h"; done
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^include/fabriclint/covers\.h: 250 lines, more than 249: declarations and inline wrappers only'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for a long emptied header"
sed -i '$d' "$TMP/m/include/fabriclint/covers.h" # 249: the boundary holds
expect_rc 0 $CHECK "$TMP/m/core"

expect_rc 2 $CHECK

# ---- docs and file headers (tests/layout/check_docs.py) ----
DOCS="python3 $FL_SRC/tests/layout/check_docs.py"
expect_rc 0 $DOCS "$FL_SRC"
expect_eq "$(cat "$TMP/out")" "" "checker output on the tree"
# the counts the docs state are the list's (the sentence the checker reads)
expect_grep "$FL_SRC/docs/testing.md" \
  "holds \*\*$(grep -c '^\[' "$FL_SRC/tests/mutation/mutants.txt") mutants\*\*"
dmutant() {
  rm -rf "$TMP/d"; mkdir -p "$TMP/d/tests"
  cp -r "$FL_SRC/core" "$FL_SRC/include" "$FL_SRC/plugins" "$FL_SRC/docs" "$TMP/d/"
  cp -r "$FL_SRC/tests/mutation" "$FL_SRC/tests/layout" "$TMP/d/tests/"
}

dmutant   # a conflict left in a doc
printf 'a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> topic\n' >>"$TMP/d/docs/mpi.md"
expect_rc 1 $DOCS "$TMP/d"
expect_grep "$TMP/out" '^docs/mpi\.md:[0-9]+: merge-conflict marker "<<<<<<< HEAD"$'
expect_grep "$TMP/out" '^docs/mpi\.md:[0-9]+: merge-conflict marker "======="$'
expect_grep "$TMP/out" '^docs/mpi\.md:[0-9]+: merge-conflict marker ">>>>>>> topic"$'
expect_eq "$(wc -l <"$TMP/out")" 3 "violations for one conflict"

dmutant   # ... and in a source file; a setext underline is no marker
printf '/*\n<<<<<<< HEAD\n */\n' >>"$TMP/d/core/model/graph.c"
printf 'Title\n=======\n' >>"$TMP/d/docs/perf.md"
expect_rc 1 $DOCS "$TMP/d"
expect_grep "$TMP/out" '^core/model/graph\.c:[0-9]+: merge-conflict marker "<<<<<<< HEAD"$'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for a marker in a source"

dmutant   # a header comment naming the file's old path (before core/ had stages)
sed -i '3s|core/model/graph\.c|core/graph.c|' "$TMP/d/core/model/graph.c"
expect_rc 1 $DOCS "$TMP/d"
expect_grep "$TMP/out" '^core/model/graph\.c:3: the opening comment names core/graph\.c, not this file \(core/model/graph\.c\)$'
expect_eq "$(wc -l <"$TMP/out")" 1 "violations for a stale path"

dmutant   # a plugin file split, its new header copied from the old file
sed -i '3s|rail_roles\.c|rail.c|' "$TMP/d/plugins/rail-alignment/rail_roles.c"
expect_rc 1 $DOCS "$TMP/d"
expect_grep "$TMP/out" '^plugins/rail-alignment/rail_roles\.c:3: the opening comment names plugins/rail-alignment/rail\.c'

dmutant   # the include name of a public header is a tail of its path: fine
expect_grep "$TMP/d/include/fabriclint/view.h" '^ \* fabriclint/view\.h'
expect_rc 0 $DOCS "$TMP/d"

dmutant   # a mutant added without the docs' count
printf '\n[dl-new] deadlock cdg.c\ndesc: d\nfrom: a\nto:   b\n' >>"$TMP/d/tests/mutation/mutants.txt"
expect_rc 1 $DOCS "$TMP/d"
n=$(grep -c '^\[' "$TMP/d/tests/mutation/mutants.txt")
expect_grep "$TMP/out" "^docs/testing\.md:[0-9]+: says $((n - 1)) mutants, tests/mutation/mutants\.txt has $n\$"
expect_grep "$TMP/out" '^docs/testing\.md:[0-9]+: says [0-9]+ deadlock mutants, tests/mutation/mutants\.txt has [0-9]+$'
expect_eq "$(wc -l <"$TMP/out")" 2 "violations for a new mutant"

dmutant   # the count sentence removed
sed -i 's/holds \*\*\([0-9]*\) mutants\*\*/holds \1 mutants/' "$TMP/d/docs/testing.md"
expect_rc 1 $DOCS "$TMP/d"
expect_grep "$TMP/out" '^docs/testing\.md: no "holds \*\*N mutants\*\*'

dmutant   # a pipeline that stops reading early under pipefail (stop 46's CI)
mkdir -p "$TMP/d/.ci"
# (the readers are spelt through $G and $H: this script sets pipefail too)
G=grep H=head
cat >"$TMP/d/tests/layout/p.sh" <<SH
#!/bin/bash
set -uo pipefail
ldd "\$1" | $G -Eq 'libfabriclint' && echo ok
ldd "\$1" | $G -E 'libfabriclint' >/dev/null && echo ok
# ldd "\$1" | $G -q x   (a comment)
x=\$(printf 'a\\nb\\n' | $H -1 || true)
y=\$(printf 'a\\nb\\n' | $H -1)
z=\$(ldd "\$1" | $G -m1 libc)
SH
printf '#!/bin/bash\nldd "$1" | %s -q x\n' "$G" >"$TMP/d/tests/layout/nopf.sh"
printf '#!/bin/bash\nset -eo pipefail\ndpkg -l | %s --quiet x\n' "$G" >"$TMP/d/.ci/run"
expect_rc 1 $DOCS "$TMP/d"
expect_grep "$TMP/out" '^tests/layout/p\.sh:3: pipefail, and the pipeline ends in "grep -Eq"'
expect_grep "$TMP/out" '^tests/layout/p\.sh:7: pipefail, and the pipeline ends in "head"'
expect_grep "$TMP/out" '^tests/layout/p\.sh:8: pipefail, and the pipeline ends in "grep -m"'
expect_grep "$TMP/out" '^\.ci/run:3: pipefail, and the pipeline ends in "grep --quiet"'
expect_eq "$(wc -l <"$TMP/out")" 4 "violations for early-stopping readers"

expect_rc 2 $DOCS
finish
