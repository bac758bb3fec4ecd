#===- test/Sanitize/RunSanitized.cmake - A test under the sanitizers -----===#
#
# Run by CTest (`cmake -P`). Runs COMMAND (a list separated by '|') with the
# sanitizers set to write every report to LOG_DIR/NAME/ instead of stderr,
# then fails if the command failed or if any report was written. Reading the
# reports rather than trusting exit codes matters: an error test expects its
# command to fail (`not plaidml-run ...`), and would pass just as well if the
# command died of a heap overflow. Variables (all -D): NAME, COMMAND,
# LOG_DIR, SUPPRESSIONS (LeakSanitizer suppressions, each with its reason).
#
#===----------------------------------------------------------------------===#

set(reports "${LOG_DIR}/${NAME}")
file(REMOVE_RECURSE "${reports}")
file(MAKE_DIRECTORY "${reports}")

# AddressSanitizer (and LeakSanitizer within it): reports go to
# reports/asan.<pid>; a report aborts the process. UndefinedBehaviorSanitizer:
# the code is built without recovery, so the first finding is fatal too.
# allocator_may_return_null: a request too large to satisfy returns null, as
# it does without ASan, so the tests of what the tools say when memory runs
# out (Integration/Reference/allocation.mlir) test that code, not ASan's abort.
set(ENV{ASAN_OPTIONS} "log_path=${reports}/asan:abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1:allocator_may_return_null=1")
set(ENV{UBSAN_OPTIONS} "log_path=${reports}/ubsan:print_stacktrace=1:halt_on_error=1")
set(ENV{LSAN_OPTIONS} "suppressions=${SUPPRESSIONS}:print_suppressions=0")

string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)

file(GLOB report_files "${reports}/*")
set(found "")
foreach(report ${report_files})
  file(READ "${report}" text)
  # A file with no finding holds only notes, e.g. LeakSanitizer's "Running
  # thread N was not suspended" about a driver's thread.
  if(text MATCHES "ERROR: |runtime error: |SUMMARY: ")
    string(APPEND found "=== ${report}\n${text}\n")
  else()
    message(STATUS "note from the sanitizers (${report}):\n${text}")
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "sanitizer reports:\n${found}\n=== output of ${NAME}:\n${out}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NAME} failed (${rc}):\n${out}")
endif()
message(STATUS "${NAME}: passed, no sanitizer reports")
