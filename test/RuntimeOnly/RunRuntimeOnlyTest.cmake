#===- test/RuntimeOnly/RunRuntimeOnlyTest.cmake - Compile here, run there ===#
#
# Run by CTest (`cmake -P`). Compiles PROGRAM to an artifact with the
# compiler build's plaidml-compile, builds the runtime-only plaidml-run in a
# fresh tree, checks that it links neither MLIR nor LLVM, and runs the
# artifact with it: its outputs must be byte-identical to those of the
# compiler build's plaidml-run on the same artifact and seeded inputs, and a
# source file must be refused with a clear message. Variables (all -D):
# SOURCE_DIR, WORK_DIR, TOOLS_DIR, GENERATOR, PROGRAM.
#
#===----------------------------------------------------------------------===#

function(run_step what)
  execute_process(COMMAND ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "runtime-only test: ${what} failed (${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY "${WORK_DIR}")
set(build "${WORK_DIR}/build")
set(artifact "${WORK_DIR}/program.so")
file(REMOVE_RECURSE "${WORK_DIR}/out-compiler" "${WORK_DIR}/out-runtime"
     "${artifact}")

run_step("plaidml-compile" "${TOOLS_DIR}/plaidml-compile" "${PROGRAM}"
         --device cpu -o "${artifact}")
run_step("runtime-only configure"
  "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
  -DPLAIDML_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release)
run_step("runtime-only build"
  "${CMAKE_COMMAND}" --build "${build}" --target plaidml-run)

set(run "${build}/bin/plaidml-run")
run_step("ldd" ldd "${run}")
if(step_output MATCHES "libMLIR|libLLVM")
  message(FATAL_ERROR "runtime-only test: plaidml-run links MLIR or LLVM:\n${step_output}")
endif()

run_step("runtime-only run" "${run}" "${artifact}" --random-inputs=7
         --output-dir "${WORK_DIR}/out-runtime" --print)
message(STATUS "runtime-only plaidml-run printed:\n${step_output}")
run_step("compiler-build run" "${TOOLS_DIR}/plaidml-run" "${artifact}"
         --random-inputs=7 --output-dir "${WORK_DIR}/out-compiler")
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
                "${WORK_DIR}/out-runtime/result0.npy"
                "${WORK_DIR}/out-compiler/result0.npy"
                RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "runtime-only test: outputs differ between the builds")
endif()

execute_process(COMMAND "${run}" "${PROGRAM}" --random-inputs
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc EQUAL 0 OR NOT err MATCHES "is not a compiled artifact, and this plaidml-run is the runtime-only build")
  message(FATAL_ERROR "runtime-only test: a source file was not refused clearly (${rc}): ${err}")
endif()
