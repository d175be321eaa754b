#!/bin/bash
# SPDX-License-Identifier: MIT
# The Debian package (issue 36, docs/install.md "Debian package"), on this
# machine, as root: `cpack -G DEB` from an existing build folder (BUILD:
# .ci/run gives step 1's gcc Release build), its contents and Depends
# checked, installed with `apt-get install ./fabriclint_*.deb`, run from
# /usr/bin on the bundled example (the README's fabric: 1 error, 1 warning,
# exit 1), a design checked against the packaged RelaxNG schema, then
# purged again. The library's packages: libfabriclint0 (the .so.0) and
# libfabriclint-dev (headers, .so, .pc, CMake package), which fabriclint
# does not need (its executable links the library statically): installed
# next, a program built with `pkg-config fabriclint` against them loads the
# example. With the MPI module built, also the package fabriclint-mpi:
# fabriclint alone depends on no MPI library and, started by a launcher,
# says the module is missing (exit 2); with fabriclint-mpi installed,
# `mpirun -n 2 fabriclint check` gives the single-process report.
# Not a ctest test: it installs into /usr. About 25 s on 2 cores.
#   tests/package/deb_install.sh BUILD
set -uo pipefail
BUILD=${1:?usage: deb_install.sh BUILD}
BUILD=$(cd "$BUILD" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
PASSES=0 FAILS=0
pass() { PASSES=$((PASSES + 1)); }
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
expect_eq() { if [ "$1" = "$2" ]; then pass; else fail "${3:-value}: got '$1', want '$2'"; fi; }
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
installed=0
cleanup() {
  [ "$installed" -eq 1 ] &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get purge -y -qq fabriclint-mpi \
      libfabriclint-dev libfabriclint0 fabriclint >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT
for p in fabriclint libfabriclint0 libfabriclint-dev; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null; then
    echo "deb_install.sh: a $p package is installed already; not replacing it" >&2
    exit 1
  fi
done

# 1. the package
rm -f "$BUILD"/fabriclint_*.deb "$BUILD"/fabriclint-mpi_*.deb "$BUILD"/libfabriclint*.deb
MPI=0
[ -f "$BUILD/mpi/fabriclint-mpi.so" ] && MPI=1
if (cd "$BUILD" && cpack -G DEB) >"$TMP/cpack.log" 2>&1; then pass; else
  fail "cpack -G DEB"; tail -20 "$TMP/cpack.log" >&2; exit 1; fi
DEB=$(ls "$BUILD"/fabriclint_*.deb)
VERSION=$(sed -n 's/^project(fabriclint VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
expect_eq "$(basename "$DEB")" "fabriclint_${VERSION}_$(dpkg --print-architecture).deb" "package file name"
# Depends from dpkg-shlibdeps: the libraries the binaries link, nothing of
# fabriclint's own
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
for p in libc6 libigraph3 libxml2 libjansson4 libyaml-0-2 libgvc6 libcgraph6 libnettle8; do
  case ", $DEPENDS," in *", $p "* | *", $p,"*) pass ;; *) fail "Depends lacks $p: $DEPENDS" ;; esac
done
case "$DEPENDS" in *fabriclint*) fail "Depends names fabriclint: $DEPENDS" ;; *) pass ;; esac
case "$DEPENDS" in *mpi*) fail "Depends names an MPI library: $DEPENDS" ;; *) pass ;; esac
if [ "$MPI" -eq 1 ]; then
  MDEB=$BUILD/fabriclint-mpi_${VERSION}_$(dpkg --print-architecture).deb
  [ -f "$MDEB" ] && pass || fail "no $(basename "$MDEB") beside $(basename "$DEB")"
  MDEPENDS=$(dpkg-deb -f "$MDEB" Depends)
  case "$MDEPENDS" in "fabriclint (= $VERSION), "*libopenmpi3*) pass ;; *) fail "fabriclint-mpi Depends: $MDEPENDS" ;; esac
  expect_eq "$(dpkg-deb -c "$MDEB" | awk '{print $6}' | grep '\.so$')" \
    "./usr/lib/fabriclint/mpi/fabriclint-mpi.so" "fabriclint-mpi holds the module"
else
  [ -z "$(ls "$BUILD"/fabriclint-mpi_*.deb 2>/dev/null)" ] && pass || fail "an MPI package without the module"
fi
dpkg-deb -c "$DEB" | awk '{print $6}' > "$TMP/files"
for f in usr/bin/fabriclint usr/lib/fabriclint/plugins/topology.so \
         usr/lib/fabriclint/plugins/rail-alignment-profiles/dgx-h100.map \
         usr/share/man/man1/fabriclint.1 usr/share/bash-completion/completions/fabriclint \
         usr/share/zsh/site-functions/_fabriclint usr/share/fabriclint/schema/design.rng \
         usr/share/doc/fabriclint/rules/topology.md usr/share/doc/fabriclint/LICENSE \
         usr/share/fabriclint/examples/rail-su-asbuilt.ibnetdiscover; do
  grep -qx "\./$f" "$TMP/files" && pass || fail "not in the package: /$f"
done
grep -q 'libfabriclint\|usr/include' "$TMP/files" && fail "fabriclint holds the library or headers" || pass
# the library's packages
LDEB=$BUILD/libfabriclint0_${VERSION}_$(dpkg --print-architecture).deb
DDEB=$BUILD/libfabriclint-dev_${VERSION}_$(dpkg --print-architecture).deb
[ -f "$LDEB" ] && [ -f "$DDEB" ] && pass || fail "no $(basename "$LDEB") or $(basename "$DDEB")"
expect_eq "$(dpkg-deb -c "$LDEB" | awk '{print $6}' | grep -v '/$' | tr '\n' ' ')" \
  "./usr/lib/libfabriclint.so.0 ./usr/lib/libfabriclint.so.0.1.0 " "libfabriclint0 holds the library"
expect_eq "$(dpkg-deb -f "$LDEB" Section)" libs "libfabriclint0 section"
case ", $(dpkg-deb -f "$LDEB" Depends)," in *", libigraph3 "*) pass ;; *) fail "libfabriclint0 Depends: $(dpkg-deb -f "$LDEB" Depends)" ;; esac
expect_eq "$(dpkg-deb -f "$DDEB" Depends)" "libfabriclint0 (= $VERSION)" "libfabriclint-dev Depends"
dpkg-deb -c "$DDEB" | awk '{print $6}' > "$TMP/dfiles"
for f in usr/lib/libfabriclint.so usr/include/fabriclint/plugin.h \
         usr/include/fabriclint/common.h usr/lib/pkgconfig/fabriclint-plugin.pc \
         usr/lib/pkgconfig/fabriclint.pc usr/lib/cmake/fabriclint/fabriclintConfig.cmake; do
  grep -qx "\./$f" "$TMP/dfiles" && pass || fail "not in libfabriclint-dev: /$f"
done

# 2. installed with apt, as a user would
if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$DEB" >"$TMP/apt.log" 2>&1; then
  installed=1; pass
else fail "apt-get install $DEB"; tail -20 "$TMP/apt.log" >&2; exit 1; fi
F=/usr/bin/fabriclint
expect_eq "$($F --version | sed -n 1p)" "fabriclint $VERSION" "--version"
$F check /usr/share/fabriclint/examples/rail-su-asbuilt.ibnetdiscover >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 1 "exit code of check on the bundled example"
# (the rule count is left out: it grows with the plugins)
expect_eq "$(tail -1 "$TMP/out" | sed 's/; [0-9]* rule(s) run;/; N rule(s) run;/')" \
  "1 error(s), 1 warning(s), 0 info; N rule(s) run; 4 more attached to their cause" "check summary"
grep -q 'rail-su-asbuilt\.ibnetdiscover:[0-9]*:.*error: .*\[rail-alignment\.swapped\]' "$TMP/out" && pass ||
  fail "no rail-alignment.swapped error in: $(head -5 "$TMP/out")"
# the packaged plugins, schema and docs, found relative to /usr/bin
expect_eq "$($F rules | grep -c ' /usr/bin/\.\./lib/fabriclint/plugins/')" \
  "$(grep -c '^\./usr/lib/fabriclint/plugins/[a-z-]*\.so$' "$TMP/files")" "packaged plugins loaded"
$F gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft.xml" && $F check --relaxng "$TMP/ft.xml" >"$TMP/out" 2>&1
expect_eq "$?" 0 "check --relaxng with the packaged schema"
$F explain topology.lid >"$TMP/out" 2>&1
grep -q "^  docs      https://.*/v$VERSION/docs/rules/topology\.md#topology\.lid$" "$TMP/out" && pass ||
  fail "explain docs link: $(grep docs "$TMP/out")"
man -w fabriclint >/dev/null 2>&1 && pass || fail "man fabriclint: no page"
# the library and its SDK: a program built against libfabriclint-dev
if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$LDEB" "$DDEB" >"$TMP/apt.log" 2>&1; then
  pass
else fail "apt-get install $LDEB $DDEB"; tail -20 "$TMP/apt.log" >&2; fi
expect_eq "$(realpath -m "$(pkg-config --variable=plugindir fabriclint-plugin)")" "/usr/lib/fabriclint/plugins" "pc plugindir"
cat >"$TMP/prog.c" <<'C'
#include <stdio.h>
#include <fabriclint/fabric.h>
#include <fabriclint/load.h>
int main(int argc, char **argv) {
  fl_fabric *f = fl_fabric_new();
  fl_error err;
  if (argc < 2 || fl_fabric_load(f, argv[1], FL_FMT_AUTO, NULL, &err) != FL_OK ||
      fl_fabric_finalize(f, &err) != FL_OK)
    return 1;
  printf("%u %u\n", fl_fabric_node_count(f), fl_fabric_link_count(f));
  fl_fabric_free(f);
  return 0;
}
C
# shellcheck disable=SC2046
if cc -o "$TMP/prog" "$TMP/prog.c" $(pkg-config --cflags --libs fabriclint) 2>"$TMP/cc.log"; then
  pass
  expect_eq "$("$TMP/prog" /usr/share/fabriclint/examples/rail-su-asbuilt.ibnetdiscover)" "268 512" \
    "a program on libfabriclint0 loads the example"
  ldd "$TMP/prog" | grep -E 'libfabriclint\.so\.0 => /(usr/)?lib/libfabriclint\.so\.0 ' >/dev/null && pass ||
    fail "prog does not link the packaged libfabriclint.so.0: $(ldd "$TMP/prog" | grep fabriclint)"
else fail "cc with pkg-config fabriclint: $(head -5 "$TMP/cc.log")"; fi

# 3. MPI: the package fabriclint alone, started by a launcher, then with
# fabriclint-mpi under mpirun
if [ "$MPI" -eq 1 ]; then
  EX=/usr/share/fabriclint/examples/rail-su-asbuilt.ibnetdiscover
  OMPI_COMM_WORLD_SIZE=2 $F check "$EX" >"$TMP/out" 2>"$TMP/err"
  expect_eq "$?" 2 "launcher variables, no fabriclint-mpi: exit 2"
  grep -q "install the package fabriclint-mpi" "$TMP/err" && pass || fail "no word of fabriclint-mpi: $(cat "$TMP/err")"
  if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$MDEB" >"$TMP/apt.log" 2>&1; then
    pass
  else fail "apt-get install $MDEB"; tail -20 "$TMP/apt.log" >&2; fi
  if command -v mpirun >/dev/null; then
    $F check "$EX" >"$TMP/one" 2>&1
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      timeout 300 mpirun --oversubscribe -n 2 $F check "$EX" >"$TMP/two" 2>"$TMP/two.err"
    expect_eq "$?" 1 "mpirun -n 2 fabriclint check: exit 1 (the example's error)"
    cmp -s "$TMP/one" "$TMP/two" && pass || fail "mpirun -n 2 report differs: $(diff "$TMP/one" "$TMP/two" | sed -n 1,5p)"
  else
    echo "deb_install.sh: SKIP (part): no mpirun, fabriclint-mpi not run"
  fi
fi

echo "$PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
