# Baseline scripts that break, run by ctest (test/CMakeLists.txt) as
#   cmake -DBENCH=<cavs-bench> -DPYTHON=<Inputs/failing-baseline-python.sh>
#         -DWORK=<scratch folder> -P cavs-bench-failing-baselines.cmake
# The stand-in interpreter fails the four baseline runs of two Tree-FC
# configurations: a silent exit 3, a SIGKILL after one line, a hang with a
# helper process (past a 1 s --baseline-timeout) and an exit 0 without a
# result. Each must be a FAIL line saying why, with what it printed, the
# summary must still list both configurations, the hung script's helper
# must be dead, and cavs-bench must exit 1.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# The kept inputs of the failed checks go under WORK.
set(ENV{TMPDIR} ${WORK})
set(ENV{CAVS_TEST_HELPER_PID} ${WORK}/helper.pid)

string(TIMESTAMP start "%s")
execute_process(COMMAND ${BENCH} --workload=treefc --hidden=16 --batch=4
  --mode=train --threads=1,2 --min-seconds=0.05 --cache=${WORK}/cache
  --baselines=equivalence --baseline-steps=2 --baseline-timeout=1
  --python=${PYTHON}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP end "%s")
message(STATUS "cavs-bench: exit status ${status}\n${out}${err}")
if(NOT status EQUAL 1)
  message(FATAL_ERROR "cavs-bench should have exited with status 1")
endif()
math(EXPR seconds "${end} - ${start}")
if(seconds GREATER 30)
  message(FATAL_ERROR "cavs-bench took ${seconds} s: a hung baseline was waited for")
endif()

set(config treefc/train/bs:4/h:16)
foreach(expected
    "${config}/threads:1/pytorch-level: FAIL (the script failed: exit status 3); it printed nothing"
    "${config}/threads:1/pytorch-per-sample: FAIL (the script failed: signal 9 (Killed)); it printed:\nper-sample: about to be killed\n"
    "${config}/threads:2/pytorch-level: FAIL (the script ran past --baseline-timeout=1 s and was killed with its process group); it printed:\nlevel: hanging\n"
    "${config}/threads:2/pytorch-per-sample: FAIL (cannot read "
    "per-sample: exits 0 without writing its result")
  string(FIND "${out}" "${expected}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "the output lacks '${expected}'")
  endif()
endforeach()
foreach(threads 1 2)
  if(NOT out MATCHES "\n  ${config}/threads:${threads} [^\n]* FAIL\n")
    message(FATAL_ERROR "the summary lacks the FAIL row of threads:${threads}")
  endif()
endforeach()

file(READ ${WORK}/helper.pid helper)
string(STRIP "${helper}" helper)
execute_process(COMMAND ps -o stat= -p ${helper} OUTPUT_VARIABLE state)
if(state MATCHES "^[^Z]")
  message(FATAL_ERROR "the hung script's helper (pid ${helper}) still runs")
endif()
