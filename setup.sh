#!/bin/sh
# SPDX-License-Identifier: MIT
# setup.sh — install what is missing (Debian 12), configure and build.
# Idempotent: installs only absent packages, rebuilds incrementally.
# Usage: ./setup.sh [BUILD_DIR]   (default: build)
#        ./setup.sh --build-deps [--print]
#        ./setup.sh --print-deps
#   --build-deps installs only what building and installing fabriclint
#   needs (no test tools) and builds nothing: the CI recipes of docs/ci.md
#   and the Containerfile call it, so their package lists cannot drift from
#   this one; --print lists those packages instead of installing them.
#   --print-deps lists every package this script installs (build and test
#   tools) and does nothing else: .ci/run installs them with its own in one
#   apt transaction.
# FL_CMAKE_ARGS (environment): extra CMake options for the configure step,
# e.g. FL_CMAKE_ARGS="-DFABRICLINT_WERROR=ON" (what .ci/run uses).
set -eu
cd "$(dirname "$0")"
BUILD=${1:-build}

# Build and test dependencies (Debian package names). The simulator and
# InfiniBand diagnostics let tests produce real ibnetdiscover dumps;
# Graphviz's libraries draw the pictures (--format dot|svg|html) and nettle
# hashes the inputs of the HTML report; man-db and zsh let the tests render
# the man page and drive zsh completion; Open MPI (libopenmpi-dev,
# openmpi-bin) builds the optional MPI runs (FABRICLINT_MPI, docs/mpi.md)
# and their test; strace counts the threads a run starts (cli.threads:
# --jobs 1 starts none); libxlsxwriter writes `bom --format xlsx` (optional:
# without it that format is refused) and openpyxl reads it back in its test;
# libibnetdisc-dev (with libibmad-dev and libibumad-dev, whose headers it
# includes) reads `ibnetdiscover --cache` files (optional: without it such a
# file is refused with the command that turns it into text). The headless-browser test of the
# HTML report needs `chromium`, which is not installed here (it is large):
# without it that test reports SKIP; .ci/run installs it.
# What building fabriclint needs (CMakeLists.txt's pkg_check_modules):
BUILD_PKGS="build-essential cmake pkg-config libigraph-dev libxml2-dev
libjansson-dev libyaml-dev libgraphviz-dev nettle-dev"
PKGS="$BUILD_PKGS libxml2-utils libcmocka-dev python3
python3-jsonschema python3-rfc3987 ibsim-utils infiniband-diags opensm lldpd iproute2 libibdm1 ibutils
man-db zsh libopenmpi-dev openmpi-bin strace libxlsxwriter-dev
python3-openpyxl libibnetdisc-dev libibmad-dev libibumad-dev"
BUILD_DEPS_ONLY=0
if [ "${1:-}" = "--build-deps" ]; then
  if [ "${2:-}" = "--print" ]; then
    echo $BUILD_PKGS
    exit 0
  fi
  PKGS=$BUILD_PKGS
  BUILD_DEPS_ONLY=1
fi
# Optional, for the ns-3 validation of the performance model only
# (tests/ns3, docs/performance-model.md): FL_WITH_NS3=1 ./setup.sh also
# installs Debian's ns-3 (libns3-dev, about 200 MB with its libraries);
# without it the harness is not built and its test reports SKIP.
if [ "${FL_WITH_NS3:-0}" = 1 ] && [ "$BUILD_DEPS_ONLY" = 0 ]; then
  PKGS="$PKGS libns3-dev"
fi
if [ "${1:-}" = "--print-deps" ]; then
  echo $PKGS
  exit 0
fi

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

[ "$BUILD_DEPS_ONLY" = 1 ] && exit 0

# shellcheck disable=SC2086 # FL_CMAKE_ARGS is a list of options
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${FL_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
echo "setup: built $BUILD/fabriclint"
