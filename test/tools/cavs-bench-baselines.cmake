# The PyTorch baselines of cavs-bench on identical math, run by ctest
# (test/CMakeLists.txt) as
#   cmake -DBENCH=<cavs-bench> -DWORK=<scratch folder> -P cavs-bench-baselines.cmake
# For each model with a baseline (treelstm, treelstm-nary, treefc, chainlstm =
# Var-LSTM), a tiny training configuration: both PyTorch implementations
# (level, per-sample) must reach cavs's losses over 10 steps within 1e-4 relative.
# Fewer steps or a smaller H hide real differences: Adagrad's first step
# sees only gradient signs, and at H = 8 the language model's loss is
# log(10000) whatever its gates do (swapping two LSTM gates stayed within
# 1e-5 over 5 steps; at H = 32 over 10 steps it fails by 12x; the N-ary
# Tree-LSTM's right child's two forget-gate matrices swapped fail by 2.6x).
# Tree-FC also runs timed and must show its baselines in the JSON output.
# ctest marks the test skipped when python3-torch is missing
# (SKIP_REGULAR_EXPRESSION); chainlstm is left out without the PTB text.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run_bench workload)
  execute_process(COMMAND ${BENCH} --workload=${workload} --hidden=32 --batch=3
    --mode=train --min-seconds=0.05 --baseline-steps=10 --cache=${WORK}/cache
    ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "cavs-bench ${workload} ${ARGN}: exit status ${status}\n${out}${err}")
  if(out MATCHES "python3-torch is missing")
    return() # ctest reports the test as skipped
  endif()
  if(out MATCHES "chainlstm: skipped")
    message(STATUS "chainlstm: no PTB text, its baselines are not checked")
    return()
  endif()
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cavs-bench ${workload} failed (exit status ${status})")
  endif()
  foreach(impl level per-sample)
    if(NOT out MATCHES "${workload}/train/bs:3/h:32/threads:1/pytorch-${impl}: PASS")
      message(FATAL_ERROR "${workload}: no PASS line for the ${impl} baseline")
    endif()
  endforeach()
endfunction()

run_bench(treelstm --baselines=equivalence)
run_bench(treelstm-nary --baselines=equivalence)
run_bench(chainlstm --baselines=equivalence)
# Two rounds of cavsc: the baselines' ratios use their median.
run_bench(treefc --baselines=all --rounds=2
  --benchmark_out=${WORK}/baselines.json --benchmark_out_format=json)

if(EXISTS ${WORK}/baselines.json)
  file(READ ${WORK}/baselines.json json)
  string(JSON count LENGTH "${json}" benchmarks)
  if(NOT count EQUAL 4)
    message(FATAL_ERROR "expected 2 rounds of cavsc and 2 baselines in baselines.json, found ${count}")
  endif()
  foreach(i 2 3)
    string(JSON name GET "${json}" benchmarks ${i} name)
    string(JSON rate ERROR_VARIABLE missing GET "${json}" benchmarks ${i} samples/s)
    string(JSON speedup ERROR_VARIABLE noSpeedup GET "${json}" benchmarks ${i} cavsc_speedup)
    if(NOT name MATCHES "pytorch-" OR missing OR NOT rate GREATER 0)
      message(FATAL_ERROR "baselines.json, benchmark ${i} (${name}): no samples/s ${missing}")
    endif()
    if(noSpeedup OR NOT speedup GREATER 0)
      message(FATAL_ERROR "baselines.json, benchmark ${i} (${name}): no cavsc_speedup ${noSpeedup}")
    endif()
  endforeach()
endif()
