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

void printAblationTable(
    const std::vector<AblationStep> &steps,
    const std::vector<std::vector<const Measurement *>> &runs) {
  const size_t rounds = runs.front().size();
  const Measurement allOff = medianOf(runs.front());
  const double base = allOff.done ? allOff.samplesPerSecond : 0;
  if (rounds > 1)
    std::printf("\nablation (speedup over all off; medians of %zu rounds)\n",
                rounds);
  else
    std::printf("\nablation (speedup over all off)\n");
  std::printf("  %-30s %12s %8s%s\n", "step", "samples/s", "speedup",
              rounds > 1 ? "   range over the rounds" : "");
  for (size_t i = 0; i < steps.size(); ++i) {
    const Measurement median = medianOf(runs[i]);
    if (!median.done) {
      std::printf("  %-30s %12s %8s\n", steps[i].label.c_str(), "-", "-");
      continue;
    }
    std::printf("  %-30s %12.1f %7.2fx", steps[i].label.c_str(),
                median.samplesPerSecond,
                base > 0 ? median.samplesPerSecond / base : 0.0);
    if (rounds > 1) {
      const std::vector<double> rates = finishedRates(runs[i]);
      std::printf("   %.1f-%.1f", rates.front(), rates.back());
    }
    std::printf("\n");
  }
}

} // namespace cavs::bench
