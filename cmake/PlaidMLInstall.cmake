#===- cmake/PlaidMLInstall.cmake - Install rules and the CMake package ---===#
#
# Installs the headers (sources and generated .inc) and exports every PlaidML
# library and tool as PlaidML::<target>, with PlaidMLConfig.cmake and
# PlaidMLConfigVersion.cmake in lib/cmake/plaidml, so another MLIR 22
# project can `find_package(PlaidML REQUIRED CONFIG)` and link
# `PlaidML::PlaidMLTileDialect`. Included at the end of the top-level
# CMakeLists.txt, once every target exists.
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(PLAIDML_INSTALL_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/plaidml")

# Headers: the hand-written ones (and .td, so a consumer can write ODS against
# ours) and the generated declarations (and Version.h) next to them.
# (Runner/ is the tools' internal library, which is not installed.)
install(DIRECTORY "${PLAIDML_SOURCE_DIR}/include/plaidml"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT plaidml-headers
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
        PATTERN "Runner" EXCLUDE)
# The C API's headers (plain C, include/plaidml-c).
install(DIRECTORY "${PLAIDML_SOURCE_DIR}/include/plaidml-c"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT plaidml-headers
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${PLAIDML_BINARY_DIR}/include/plaidml"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT plaidml-headers
        FILES_MATCHING PATTERN "*.inc" PATTERN "Version.h"
        PATTERN "CMakeFiles" EXCLUDE)

# add_mlir_library() records each library in the GLOBAL property MLIR_EXPORTS
# and installs it into the export set `MLIRTargets` of this build
# (get_target_export_arg in LLVMDistributionSupport.cmake); add_plaidml_tool()
# adds tools to the same set. Give the libraries their include directories
# and install the set under our own name and namespace.
get_property(PLAIDML_EXPORTED_LIBRARIES GLOBAL PROPERTY MLIR_EXPORTS)
foreach(lib IN LISTS PLAIDML_EXPORTED_LIBRARIES)
  target_include_directories(${lib} INTERFACE
    $<BUILD_INTERFACE:${PLAIDML_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PLAIDML_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${lib} INTERFACE cxx_std_17)
endforeach()

# The runtime is plain CMake (no MLIR): the compiler links it to query
# devices, so it belongs to the same export set.
install(TARGETS PlaidMLRuntime
        EXPORT MLIRTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        COMPONENT plaidml-runtime)

install(EXPORT MLIRTargets
        NAMESPACE PlaidML::
        FILE PlaidMLTargets.cmake
        DESTINATION "${PLAIDML_INSTALL_PACKAGE_DIR}"
        COMPONENT plaidml-cmake-package)

configure_package_config_file(
  "${PLAIDML_SOURCE_DIR}/cmake/PlaidMLConfig.cmake.in"
  "${PLAIDML_BINARY_DIR}/lib/cmake/plaidml/PlaidMLConfig.cmake"
  INSTALL_DESTINATION "${PLAIDML_INSTALL_PACKAGE_DIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a minor release may break the API.
write_basic_package_version_file(
  "${PLAIDML_BINARY_DIR}/lib/cmake/plaidml/PlaidMLConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PLAIDML_BINARY_DIR}/lib/cmake/plaidml/PlaidMLConfig.cmake"
  "${PLAIDML_BINARY_DIR}/lib/cmake/plaidml/PlaidMLConfigVersion.cmake"
  DESTINATION "${PLAIDML_INSTALL_PACKAGE_DIR}"
  COMPONENT plaidml-cmake-package)
