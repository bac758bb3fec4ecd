#===- test/Fuzz/RunFuzzer.cmake - A bounded libFuzzer run under CTest ----===#
#
# Run by CTest (`cmake -P`): copies the seed corpus into a fresh work
# directory and runs FUZZER on it for SECONDS with a fixed seed. The seeds
# are the files of SEED_DIR when it is given (test/Fuzz/Seeds/<fuzzer>),
# else every .tile file of the test suite, the docs and the examples. Any
# crash, sanitizer report, timeout or out-of-memory fails the test with the
# fuzzer's report. Variables (all -D): FUZZER, SOURCE_DIR, WORK_DIR,
# SECONDS, optionally SEED_DIR.
#
#===----------------------------------------------------------------------===#

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/corpus" "${WORK_DIR}/seeds")
if(SEED_DIR)
  file(GLOB seeds "${SEED_DIR}/*")
else()
  file(GLOB_RECURSE seeds "${SOURCE_DIR}/test/*.tile"
       "${SOURCE_DIR}/docs/*.tile" "${SOURCE_DIR}/examples/*.tile")
endif()
set(n 0)
foreach(seed ${seeds})
  math(EXPR n "${n} + 1")
  get_filename_component(ext "${seed}" LAST_EXT)
  file(COPY_FILE "${seed}" "${WORK_DIR}/seeds/seed${n}${ext}")
endforeach()

execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -seed=1 -timeout=10
          -rss_limit_mb=2048 -print_final_stats=1
          "${WORK_DIR}/corpus" "${WORK_DIR}/seeds"
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${out}")
message(STATUS "${n} seeds; ${runs}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer failed (${rc}):\n${out}")
endif()
