# Debian package with CPack (docs/install.md "Debian package"):
#   cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-release -j2
#   (cd build-release && cpack -G DEB)   ->  fabriclint_<version>_<arch>.deb
# One package with everything `cmake --install` installs: the executable,
# the built-in plugins and their profiles, libfabriclint.so.0, the headers,
# the .pc files and the CMake package (plugin SDK), the man page, the bash
# and zsh completions, the schema, the docs and the bundled example fabric.
# Its Depends are computed by dpkg-shlibdeps (dpkg-dev) from the ELF files,
# so they name exactly the Debian library packages the binaries link.
# The tree is installed under /usr; the executable finds its data relative
# to itself, so the package needs no configure-time prefix of its own.
# cpack installs the build tree as it is (build it first): without this its
# preinstall step walks every target of the project, half a minute on CI
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fabriclint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "fabriclint")
set(CPACK_PACKAGE_CONTACT "fabriclint maintainers <fabriclint@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "lint GPU-cluster network fabrics (InfiniBand, RoCE) before and after they are built")
set(CPACK_PACKAGE_DESCRIPTION
    "fabriclint loads fabric descriptions (ibnetdiscover, iblinkinfo, design XML,\n LLDP, cable plans, ...), routing state and port counters, and runs rule\n plugins: miscabling, rail alignment, credit loops, ECMP balance, PFC.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # fabriclint_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${FABRICLINT_PROJECT_URL})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# what produces fabriclint's inputs (ibnetdiscover, iblinkinfo, ...) and
# the IBNL system definitions it reads (FABRICLINT_IBNL_PATH)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "infiniband-diags, libibdm1")
# the RUNPATH of the binaries names Graphviz's plugin folder; let
# dpkg-shlibdeps search there too
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${FL_GV_PLUGIN_DIR})
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip) # seconds faster than xz, 1 MB larger
include(CPack)
