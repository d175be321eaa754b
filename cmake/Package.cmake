# SPDX-License-Identifier: MIT
# Debian package with CPack (docs/install.md "Debian package"):
#   cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-release -j2
#   (cd build-release && cpack -G DEB)   ->  fabriclint_<version>_<arch>.deb,
#   libfabriclint0_..., libfabriclint-dev_... (and fabriclint-mpi_...)
# Together they hold everything `cmake --install` installs: the executable,
# the built-in plugins and their profiles, the man page, the bash and zsh
# completions, the schema, the docs and the bundled example fabric
# (fabriclint); libfabriclint.so.0 (libfabriclint0); the headers, the .pc
# files and the CMake package, the plugin SDK (libfabriclint-dev).
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
# The packages, as Debian splits a tool with a library:
#   fabriclint         every install() without a COMPONENT
#                      (CMAKE_INSTALL_DEFAULT_COMPONENT_NAME): the
#                      executable (which links the library statically), the
#                      plugins, schema, docs, man page and completions;
#   libfabriclint0     the component "lib": libfabriclint.so.0 (SONAME);
#   libfabriclint-dev  the component "dev": the headers, the .so link, the
#                      .pc files and the CMake package (the plugin and
#                      library SDK, docs/sdk.md); depends on libfabriclint0
#                      of the same version;
#   fabriclint-mpi     when the MPI module is built (below).
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE)
set(CPACK_COMPONENTS_ALL fabriclint lib dev)
set(CPACK_DEBIAN_FABRICLINT_PACKAGE_NAME fabriclint)
set(CPACK_DEBIAN_FABRICLINT_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_LIB_PACKAGE_NAME libfabriclint0)
set(CPACK_DEBIAN_LIB_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_LIB_DESCRIPTION
    "fabriclint's library: load fabric descriptions and routing state, build the model, run the rule plugins (the C API of include/fabriclint/)")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libfabriclint-dev)
set(CPACK_DEBIAN_DEV_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libfabriclint0 (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "fabriclint's headers, pkg-config files and CMake package: build programs on libfabriclint and third-party rule plugins (docs/sdk.md)")
if(FL_HAVE_MPI)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME fabriclint-mpi)
  set(CPACK_DEBIAN_MPI_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "fabriclint (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_MPI_PACKAGE_SUGGESTS "openmpi-bin")
  set(CPACK_COMPONENT_MPI_DESCRIPTION
      "fabriclint's MPI module: `mpirun -n N fabriclint check ...` splits the credit-loop, failure-domain and traffic analyses over the ranks")
endif()
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip) # seconds faster than xz, 1 MB larger
include(CPack)
