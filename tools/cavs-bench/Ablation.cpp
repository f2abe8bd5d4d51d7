//===- Ablation.cpp - the optimization ablation (Cavs Fig. 10) ------------===//
#include "Ablation.h"

#include <cstdio>

namespace cavs::bench {

std::vector<AblationStep> ablationSteps() {
  const std::string noLazy = "--lazy-batching=false",
                    noFusion = "--fusion=false",
                    noMerge = "--merge-matmuls=false";
  return {
      {"all off", {"all-off", {noLazy, noFusion, noMerge}}, 1},
      {"+ lazy batching only", {"lazy-only", {noFusion, noMerge}}, 1},
      {"+ fusion only", {"fusion-only", {noLazy, noMerge}}, 1},
      {"+ matmul merging only", {"merge-only", {noLazy, noFusion}}, 1},
      {"all on", {"all-on", {}}, 1},
      {"all on, 2 threads", {"all-on", {}}, 2},
  };
}

void printAblationTable(const std::vector<AblationStep> &steps,
                        const std::vector<const Measurement *> &results) {
  const double base =
      results.front()->done ? results.front()->samplesPerSecond : 0;
  std::printf("\nablation (speedup over all off)\n");
  std::printf("  %-24s %12s %8s\n", "step", "samples/s", "speedup");
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!results[i]->done) {
      std::printf("  %-24s %12s %8s\n", steps[i].label.c_str(), "-", "-");
      continue;
    }
    const double rate = results[i]->samplesPerSecond;
    std::printf("  %-24s %12.1f %7.2fx\n", steps[i].label.c_str(), rate,
                base > 0 ? rate / base : 0.0);
  }
}

} // namespace cavs::bench
