#!/bin/bash
# ci_layout.sh — core/ follows its stage order (core/STAGES) with no
# dependency cycle (tests/layout/check_layout.py), and the checker catches
# each kind of violation: an include of a higher stage, an include that does
# not name its stage, a cycle between two files of one stage.
. "$(dirname "$0")/lib.bash"
CHECK="python3 $FL_SRC/tests/layout/check_layout.py"

# the real tree: clean
expect_rc 0 $CHECK "$FL_SRC/core"
expect_eq "$(cat "$TMP/out")" "" "checker output on core/"
# the stage order is the one documented
expect_eq "$(grep -v '^#' "$FL_SRC/core/STAGES" | tr '\n' ' ')" \
  "model io analysis host report diff cli " "stage order"

# a copy with one violation at a time
mutant() { rm -rf "$TMP/m"; mkdir -p "$TMP/m"; cp -r "$FL_SRC/core" "$FL_SRC/include" "$TMP/m/"; }

mutant   # the model reaching up into the plugin host
sed -i '0,/^#include "model\/fabric_impl.h"/s//&\n#include "host\/host.h"/' "$TMP/m/core/model/fabric.c"
expect_rc 1 $CHECK "$TMP/m/core"
expect_grep "$TMP/out" '^core/model/fabric\.c:[0-9]+: #include "host/host\.h": stage host is above model \(order: model < io < analysis < host < report < diff < cli\)$'
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
expect_grep "$TMP/out" '^core/model/chassis\.c: include cycle among model/chassis\.c, model/counters\.c, model/derive\.c, model/fabric\.c, model/fabric_read\.c, model/finalize\.c, model/graph\.c, model/hostprof\.c, model/planes\.c, model/routing\.c: .*model/fabric\.c -> model/finalize\.c \(fl_fabric_free\); .*model/finalize\.c -> model/fabric\.c \(fl_b_free_records\)'

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
expect_grep "$TMP/out" '^core/model/chassis\.c: include cycle among model/chassis\.c, model/derive\.c, model/fabric\.c, model/hashmap\.c: .*model/hashmap\.c -> model/derive\.c \(fl_derive_mutant\)$'

expect_rc 2 $CHECK
finish
