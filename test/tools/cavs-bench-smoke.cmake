# cavs-bench end to end, run by ctest (test/CMakeLists.txt) as
#   cmake -DBENCH=<cavs-bench> -DWORK=<scratch folder> -P cavs-bench-smoke.cmake
# A tiny Tree-FC configuration compiles its model with the cavsc beside
# cavs-bench, trains and infers, and writes Google Benchmark's JSON; then the
# error paths must fail cleanly with their messages.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run_bench expect_success expected_text)
  execute_process(COMMAND ${BENCH} ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  list(JOIN ARGN " " command)
  message(STATUS "cavs-bench ${command}: exit status ${status}\n${out}${err}")
  if(expect_success AND NOT status EQUAL 0)
    message(FATAL_ERROR "cavs-bench failed")
  elseif(NOT expect_success
         AND (status EQUAL 0 OR NOT status MATCHES "^[0-9]+$"))
    message(FATAL_ERROR "cavs-bench should have exited with an error status")
  endif()
  string(FIND "${out}${err}" "${expected_text}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "the output lacks '${expected_text}'")
  endif()
endfunction()

# Reads Google Benchmark's JSON `path` into `out`; it must hold `count`
# benchmarks.
function(read_benchmarks path count out)
  file(READ ${path} json)
  string(JSON found LENGTH "${json}" benchmarks)
  if(NOT found EQUAL count)
    message(FATAL_ERROR "expected ${count} benchmarks in ${path}, found ${found}")
  endif()
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

run_bench(TRUE "treefc/infer/bs:4/h:16/threads:1"
  --workload=treefc --hidden=16 --batch=4 --mode=train,infer
  --min-seconds=0.05 --cache=${WORK}/cache --baselines=none
  --benchmark_out=${WORK}/smoke.json --benchmark_out_format=json)
read_benchmarks(${WORK}/smoke.json 2 json)
# The context records the machine, the huge page mode among it.
string(JSON huge_pages ERROR_VARIABLE missing
       GET "${json}" context transparent_hugepages)
if(missing OR NOT huge_pages MATCHES "^(always|madvise|never|absent)$")
  message(FATAL_ERROR "smoke.json: no transparent_hugepages context: "
                      "'${huge_pages}' ${missing}")
endif()
foreach(i 0 1)
  string(JSON rate ERROR_VARIABLE missing
         GET "${json}" benchmarks ${i} samples/s)
  if(missing OR NOT rate GREATER 0)
    message(FATAL_ERROR "smoke.json, benchmark ${i}: no samples/s: ${missing}")
  endif()
endforeach()

run_bench(FALSE "unknown workload 'nope'" --workload=nope)
run_bench(FALSE "no train.txt there" --data=${WORK}/no-such-folder)
run_bench(FALSE "unrecognized command-line flag: --bogus" --bogus)
run_bench(FALSE "--baselines expects none, equivalence or all"
  --baselines=maybe)
run_bench(FALSE "--schedule expects levels or fewest-tasks, got 'bad'"
  --schedule=bad)
run_bench(FALSE "--device expects cpu, cuda or cuda:N, got 'gpu'"
  --device=gpu)
# A second schedule gets its own benchmark names.
run_bench(TRUE "treefc/infer/bs:4/h:16/threads:1/sched:fewest-tasks"
  --workload=treefc --hidden=16 --batch=4 --mode=infer --min-seconds=0.05
  --cache=${WORK}/cache --baselines=none --schedule=fewest-tasks)
# A failing compiler: its status and command line are reported.
run_bench(FALSE "cavsc failed (exit status 1)" --workload=treefc
  --cavsc=/bin/false --cache=${WORK}/empty-cache)
# The ablation: every optimization off, each alone, each off alone, all on;
# two rounds, the second after all of the first.
run_bench(TRUE "all on but matmul merging"
  --workload=treefc --hidden=16 --batch=4 --mode=train --min-seconds=0.05
  --cache=${WORK}/cache --baselines=none --ablation --rounds=2
  --benchmark_out=${WORK}/ablation.json --benchmark_out_format=json)
# 9 steps in 2 rounds.
read_benchmarks(${WORK}/ablation.json 18 json)
foreach(check "6;no-merge/round:1" "15;no-merge/round:2" "9;all-off/round:2")
  list(GET check 0 index)
  list(GET check 1 step)
  string(JSON name GET "${json}" benchmarks ${index} name)
  if(NOT name MATCHES "^treefc/train/bs:4/h:16/threads:1/${step}/")
    message(FATAL_ERROR "ablation.json: benchmark ${index} is '${name}', not ${step}")
  endif()
endforeach()
run_bench(FALSE "--rounds expects positive integers, got '0'" --rounds=0)
# A usage error, before any model is compiled (it failed at run time).
run_bench(FALSE "--threads: at most 4096 threads, got 100000" --threads=100000)
# Google Benchmark answers a bad value of these with its usage and status 0.
run_bench(FALSE "--benchmark_out_format expects console, json or csv, got 'bogus'"
  --benchmark_out_format=bogus)
run_bench(FALSE "--benchmark_repetitions expects positive integers, got '-1'"
  --benchmark_repetitions=-1)
run_bench(FALSE "--min-seconds expects a positive number of seconds, at most 604800 (a week), got '1e308'"
  --min-seconds=1e308)
# --products: the N-ary Tree-LSTM's product pairs, separate and merged, each
# shape's two forms checked equal, then timed one after the other.
run_bench(TRUE "separate, merged, merged / separate"
  --products --hidden=16 --min-seconds=0.01
  --benchmark_out=${WORK}/products.json --benchmark_out_format=json)
# 5 task sizes x weights in cache and in memory x 2 directions x 2 forms.
read_benchmarks(${WORK}/products.json 40 json)
foreach(check "0;forward/separate/h:16/rows:8/weights:cache"
              "1;forward/merged/h:16/rows:8/weights:cache"
              "3;backward/merged/h:16/rows:8/weights:cache"
              "39;backward/merged/h:16/rows:300/weights:memory")
  list(GET check 0 index)
  list(GET check 1 form)
  string(JSON name GET "${json}" benchmarks ${index} name)
  string(JSON rate GET "${json}" benchmarks ${index} GFLOP/s)
  if(NOT name MATCHES "^products/${form}/threads:1/" OR NOT rate GREATER 0)
    message(FATAL_ERROR "products.json: benchmark ${index} is '${name}' at "
                        "${rate} GFLOP/s, not ${form}")
  endif()
endforeach()
run_bench(FALSE "--ablation and --products are separate runs"
  --products --ablation)
# Options a run would ignore, lists that name a value twice (rows of one
# name) and output forms cavs-bench cannot honour are usage errors.
run_bench(FALSE "--workload does not apply to --products" --products
  --workload=lattice)
run_bench(FALSE "--threads does not apply to --ablation" --ablation
  --threads=2)
run_bench(FALSE "--ablation runs on one GEMM engine" --ablation
  --gemm=openblas,onednn)
run_bench(FALSE "--hidden names '64' twice" --hidden=64,64)
run_bench(FALSE "--mode names 'infer' twice" --mode=infer,infer)
run_bench(FALSE "--workload is given twice" --workload=treefc
  --workload=treelstm)
run_bench(FALSE "--benchmark_format=json would mix cavs-bench's own lines"
  --benchmark_format=json)
run_bench(FALSE "--benchmark_time_unit: cavs-bench reports time per batch in ms"
  --benchmark_time_unit=us)
run_bench(FALSE "--benchmark_min_time: use --min-seconds"
  --benchmark_min_time=0.1)
# An interpreter named that does not exist (it said torch was missing).
run_bench(FALSE "--python: no program '${WORK}/no-python'"
  --python=${WORK}/no-python)
# The ablation on the --gemm engine (it ran on the default, the header
# naming the one given).
run_bench(TRUE "treefc/train/bs:4/h:16/threads:1/gemm:openblas/all-off/"
  --workload=treefc --hidden=16 --batch=4 --mode=train --min-seconds=0.05
  --cache=${WORK}/cache --baselines=none --ablation --gemm=openblas
  --benchmark_filter=all-off)
