//===- Ablation.cpp - the optimization ablation (Cavs Fig. 10) ------------===//
//
// The steps come from the optimization switches of cavsc
// (compiler/Pipelines/Optimizations.def), in that list's order.
//
//===----------------------------------------------------------------------===//
#include "Ablation.h"

#include <cstdio>

namespace cavs::bench {
namespace {
/// One optimization switch as the ablation names it.
struct Optimization {
  const char *flag;
  const char *noun;
  const char *tag;
};

constexpr Optimization kOptimizations[] = {
#define CAVS_OPTIMIZATION(FIELD, FLAG, DESCRIPTION, NOUN, TAG)                 \
  {FLAG, NOUN, TAG},
#include "compiler/Pipelines/Optimizations.def"
};

/// cavsc's flags that switch off every optimization but `kept` (none when
/// null).
std::vector<std::string> offFlagsExcept(const Optimization *kept) {
  std::vector<std::string> flags;
  for (const Optimization &optimization : kOptimizations)
    if (&optimization != kept)
      flags.push_back(std::string("--") + optimization.flag + "=false");
  return flags;
}
} // namespace

std::vector<AblationStep> ablationSteps() {
  std::vector<AblationStep> steps = {
      {"all off", {"all-off", offFlagsExcept(nullptr)}, 1}};
  for (const Optimization &optimization : kOptimizations)
    steps.push_back({std::string("+ ") + optimization.noun + " only",
                     {std::string(optimization.tag) + "-only",
                      offFlagsExcept(&optimization)},
                     1});
  // Each one off alone: what it adds with the others on, which is what
  // the compiler's defaults decide on.
  for (const Optimization &optimization : kOptimizations)
    steps.push_back({std::string("all on but ") + optimization.noun,
                     {std::string("no-") + optimization.tag,
                      {std::string("--") + optimization.flag + "=false"}},
                     1});
  steps.push_back({"all on", {"all-on", {}}, 1});
  steps.push_back({"all on, 2 threads", {"all-on", {}}, 2});
  return steps;
}

void printAblationTable(const std::vector<AblationStep> &steps,
                        const std::vector<const Measurement *> &results) {
  const double base =
      results.front()->done ? results.front()->samplesPerSecond : 0;
  std::printf("\nablation (speedup over all off)\n");
  std::printf("  %-30s %12s %8s\n", "step", "samples/s", "speedup");
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!results[i]->done) {
      std::printf("  %-30s %12s %8s\n", steps[i].label.c_str(), "-", "-");
      continue;
    }
    const double rate = results[i]->samplesPerSecond;
    std::printf("  %-30s %12.1f %7.2fx\n", steps[i].label.c_str(), rate,
                base > 0 ? rate / base : 0.0);
  }
}

} // namespace cavs::bench
