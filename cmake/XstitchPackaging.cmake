# Debian packages of xstitch (`cpack -G DEB` in a build tree), one per install
# component:
#   libxstitch0     runtime  libxstitch.so.0 and libxstitch_runtime.so.0
#   libxstitch-dev  dev      the header, the .so links, the CMake package and
#                            the pkg-config file
#   xstitch-tools   tools    xstitch-run, xstitch-opt, xstitch-compile
# Everything lands under /usr. The packages' dependencies on Debian's
# libraries come from dpkg-shlibdeps (what the binaries link); those among
# the packages are exact versions. tests/packaging/deb_test.sh builds them,
# checks their contents and dependencies, and builds examples/embed against
# the extracted tree.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME xstitch)
set(CPACK_PACKAGE_VENDOR "The xstitch developers")
set(CPACK_PACKAGE_CONTACT "The xstitch developers <xstitch@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "compiler for the memory-intensive part of ML graphs (stitched kernels)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Binaries without their debug information (RelWithDebInfo builds have it).
set(CPACK_STRIP_FILES ON)
# The tools link libxstitch.so.0 of the runtime package, which is not yet
# installed when the packages are built: dpkg-shlibdeps finds it in the
# build tree, and the tools' package depends on the runtime's by component.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/lib)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libxstitch${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# A shlibs file for the runtime package's libraries (packages built against
# them depend on this version or later), and ldconfig on install and removal.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "xstitch's C API: compiles the memory-intensive part of ML graphs into stitched kernels and runs them (libxstitch.so), and the runtime alone for ahead-of-time bundles (libxstitch_runtime.so)")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libxstitch-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
# The header includes <dlpack/dlpack.h>.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libdlpack-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "xstitch's C API header, CMake package (find_package(xstitch)) and pkg-config file")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME xstitch-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION devel)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "xstitch-run (compile and run a model), xstitch-opt (the IR and its transforms) and xstitch-compile (ahead-of-time bundles)")

include(CPack)
