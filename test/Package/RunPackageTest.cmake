#===- test/Package/RunPackageTest.cmake - Test the installed package -----===#
#
# Run by CTest (`cmake -P`): installs the PlaidML build into a fresh prefix,
# configures and builds test/Package/consumer against that prefix alone, runs
# the consumer and the C API consumer and checks what they print. Variables
# (all -D): BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX_COMPILER, GENERATOR,
# BUILD_TYPE, PIPELINE.
#
#===----------------------------------------------------------------------===#

function(run_step what)
  execute_process(COMMAND ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: ${what} failed (${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix "${WORK_DIR}/install")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")

run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
# CMAKE_FIND_USE_PACKAGE_REGISTRY=OFF and a lone prefix: find only the install.
run_step("consumer configure"
  "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${consumer_build}" -G "${GENERATOR}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
  "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(NOT step_output MATCHES "Using PlaidMLConfig.cmake in: ${prefix}/lib/cmake/plaidml")
  message(FATAL_ERROR "package test: the consumer did not find the installed package:\n${step_output}")
endif()
run_step("consumer build" "${CMAKE_COMMAND}" --build "${consumer_build}")
run_step("consumer run" "${consumer_build}/plaidml-consumer" "${PIPELINE}")

foreach(expected
    "func.func @matmul"
    "tile.contract add, mul, %[^,]+, %arg0, %arg1"
    "contractions: 1")
  if(NOT step_output MATCHES "${expected}")
    message(FATAL_ERROR "package test: expected '${expected}' in:\n${step_output}")
  endif()
endforeach()
# The pipeline (canonicalize) really ran: the dead tile.relu is gone.
if(step_output MATCHES "tile.relu")
  message(FATAL_ERROR "package test: the pipeline '${PIPELINE}' left the dead tile.relu:\n${step_output}")
endif()
set(consumer_output "${step_output}")

# The C API consumer, on the reference interpreter and on the CPU (its
# compile cache inside the work directory).
foreach(device reference cpu)
  run_step("C API consumer on ${device}" "${CMAKE_COMMAND}" -E env
    "XDG_CACHE_HOME=${WORK_DIR}/cache"
    "${consumer_build}/plaidml-capi-consumer" ${device})
  if(NOT step_output MATCHES "on ${device}: C = \\[19, 22, 43, 50\\]" OR
     NOT step_output MATCHES "EDSL on ${device}: relu\\(A - 2.5\\) = \\[0, 0, 0.5, 1.5\\], order = \\[1, 0, 1, 0\\]")
    message(FATAL_ERROR "package test: unexpected C API output on ${device}:\n${step_output}")
  endif()
  string(APPEND consumer_output "${step_output}")
endforeach()
message(STATUS "package test passed:\n${consumer_output}")
