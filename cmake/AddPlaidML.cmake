#===- cmake/AddPlaidML.cmake - Helpers for PlaidML targets ---------------===#
#
# What AddMLIR does not do right for an out-of-tree project. Libraries need
# nothing extra: add_mlir_library / add_mlir_dialect_library install them and
# put them in the export set named `MLIRTargets` (a set of *this* build, which
# PlaidMLInstall.cmake installs as PlaidMLTargets.cmake). Tools do:
# add_mlir_tool() leaves a tool out of `all`, and uninstalled, unless
# LLVM_BUILD_TOOLS is set, which only LLVM's own build sets.
#
#===----------------------------------------------------------------------===#

# add_plaidml_tool(name sources... [DEPENDS ...])
#   An executable in build/bin that `ninja` builds and `cmake --install`
#   installs into bin/ (exported as PlaidML::<name>).
function(add_plaidml_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  # llvm_setup_rpath gives the installed tool only $ORIGIN/../lib; libMLIR.so
  # stays in LLVM's library directory.
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name}
          EXPORT MLIRTargets
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT ${name})
endfunction()
