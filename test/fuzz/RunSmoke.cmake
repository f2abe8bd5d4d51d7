# One fuzz target's part of `ninja fuzz-smoke`: replays its regression
# inputs in full (the fuzzing below would cut them to MAX_LEN), then fuzzes
# for SECONDS on a fresh copy of its seed corpus, so the source tree is never
# written to and every run starts alike. The log and any reproducer stay in
# WORK. Arguments: NAME FUZZER CORPUS REGRESSIONS DICT WORK SECONDS MAX_LEN.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB seeds ${CORPUS}/*)
file(COPY ${seeds} DESTINATION ${WORK}/corpus)
file(GLOB regressions ${REGRESSIONS}/*)

# Fails with the end of `log` (the sanitizer's report, the reproducer's
# name) after saving all of it.
function(check_run what result log)
  file(WRITE ${WORK}/${what}.log "${log}")
  if(NOT result EQUAL 0)
    string(LENGTH "${log}" length)
    if(length GREATER 20000)
      math(EXPR start "${length} - 20000")
      string(SUBSTRING "${log}" ${start} -1 log)
    endif()
    message("${log}")
    message(FATAL_ERROR "fuzz-smoke: cavs-${NAME}-fuzzer failed (${what}, "
            "exit ${result}); log: ${WORK}/${what}.log, reproducers: "
            "${WORK}/artifacts/")
  endif()
endfunction()

# The fuzzer's usual timeout (1200 s) would let a hang use up the run.
set(options -timeout=25 -rss_limit_mb=2560 -artifact_prefix=${WORK}/artifacts/)
if(regressions)
  execute_process(COMMAND ${FUZZER} ${options} ${regressions}
                  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  check_run(regressions "${result}" "${log}")
endif()
execute_process(COMMAND ${FUZZER} ${options} -max_total_time=${SECONDS}
                        -max_len=${MAX_LEN} -dict=${DICT} -print_final_stats=1
                        ${WORK}/corpus
                RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
check_run(fuzz "${result}" "${log}")

string(REGEX MATCH "stat::number_of_executed_units: *([0-9]+)" _ "${log}")
set(execs ${CMAKE_MATCH_1})
string(REGEX MATCH "stat::new_units_added: *([0-9]+)" _ "${log}")
set(added ${CMAKE_MATCH_1})
list(LENGTH regressions replayed)
message(STATUS "cavs-${NAME}-fuzzer: ${replayed} regression inputs passed; "
        "${execs} inputs in ${SECONDS} s, ${added} new in ${WORK}/corpus")
