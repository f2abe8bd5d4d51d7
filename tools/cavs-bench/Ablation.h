//===- Ablation.h - the optimization ablation (Cavs Fig. 10) ----*- C++ -*-===//
//
// --ablation benchmarks one configuration compiled with every optimization
// of the pipeline off, then with each one alone (lazy batching, fusion,
// matmul merging), then with each one off alone, then all on, and all on
// with 2 kernel threads, and prints samples/s with the speedup of each step
// over "all off".
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_ABLATION_H
#define CAVS_BENCH_ABLATION_H

#include "ModelCache.h"
#include "Runner.h"

#include <string>
#include <vector>

namespace cavs::bench {

/// One row of the ablation.
struct AblationStep {
  /// For the table, e.g. "+ fusion only".
  std::string label;
  /// How cavsc compiles the model; its name also tags the benchmark.
  Variant variant;
  int32_t threads = 1;
};

/// The steps, in the order of the table.
std::vector<AblationStep> ablationSteps();

/// Prints the table; `runs[i]` are the measurements of `steps[i]`, one per
/// round: their median, and their range where there are several.
void printAblationTable(
    const std::vector<AblationStep> &steps,
    const std::vector<std::vector<const Measurement *>> &runs);

} // namespace cavs::bench

#endif // CAVS_BENCH_ABLATION_H
