#===- cmake/PlaidMLSanitize.cmake - Sanitized copies of PlaidML code -----===#
#
# Helpers for the fuzzers (tools/fuzzers) and the sanitizer build
# (PLAIDML_SANITIZE, test/Sanitize): they compile the sources of an existing
# target again, with sanitizer flags, into a new target. Taking the sources
# (and the definitions and options) from the original target keeps the copy
# in step when files are added, moved or removed; the rest of the program
# (libMLIR.so, the passes) links uninstrumented, which AddressSanitizer and
# UndefinedBehaviorSanitizer allow. See docs/Sanitizers.md.
#
#===----------------------------------------------------------------------===#

# plaidml_get_target_sources(<out> <target>...)
#   The C and C++ source files of the targets, as absolute paths (headers and
#   generator expressions such as $<TARGET_OBJECTS:...> left out). For a
#   library made by add_mlir_library, pass its obj.<name> object library.
function(plaidml_get_target_sources out)
  set(result)
  foreach(target ${ARGN})
    get_target_property(sources ${target} SOURCES)
    get_target_property(dir ${target} SOURCE_DIR)
    foreach(source ${sources})
      if(source MATCHES "^\\$<" OR NOT source MATCHES "\\.(c|cc|cpp)$")
        continue()
      endif()
      if(NOT IS_ABSOLUTE "${source}")
        set(source "${dir}/${source}")
      endif()
      list(APPEND result "${source}")
    endforeach()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# plaidml_copy_build_settings(<target> <from>...)
#   Gives <target> the compile definitions, options and include directories
#   that the sources of each <from> target are compiled with (their own and
#   their dependencies' usage requirements, via generator expressions).
function(plaidml_copy_build_settings target)
  foreach(from ${ARGN})
    target_compile_definitions(${target} PRIVATE
      $<TARGET_PROPERTY:${from},COMPILE_DEFINITIONS>)
    target_compile_options(${target} PRIVATE
      $<TARGET_PROPERTY:${from},COMPILE_OPTIONS>)
    target_include_directories(${target} PRIVATE
      $<TARGET_PROPERTY:${from},INCLUDE_DIRECTORIES>)
  endforeach()
endfunction()

# plaidml_sanitize(<target> <sanitizers>)
#   Compiles and links <target> with -fsanitize=<sanitizers> (a comma list,
#   e.g. "address,undefined" or "fuzzer,address,undefined"). Every
#   UndefinedBehaviorSanitizer finding is fatal (no recovery), so a test sees
#   it as a failure. A static library takes the flags for compiling only, and
#   -fsanitize=fuzzer becomes fuzzer-no-link there (coverage without a main).
function(plaidml_sanitize target sanitizers)
  get_target_property(type ${target} TYPE)
  set(compile "${sanitizers}")
  if(NOT type STREQUAL "EXECUTABLE")
    string(REPLACE "fuzzer" "fuzzer-no-link" compile "${sanitizers}")
  endif()
  target_compile_options(${target} PRIVATE -fsanitize=${compile}
    -fno-sanitize-recover=all -fno-omit-frame-pointer -g1)
  if(type STREQUAL "EXECUTABLE")
    target_link_options(${target} PRIVATE -fsanitize=${sanitizers})
  endif()
endfunction()
