//===- GemmEngine.cpp - choosing the matrix-product engine ----------------===//
#include "ops/GemmEngine.h"
#include "support/Excerpt.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace cavs::runtime::cpu {

namespace {
std::atomic<const GemmEngine *> selected{nullptr};

const GemmEngine &defaultGemmEngine() {
  // On an AVX-512 CPU oneDNN's kernels, generated for the CPU itself, ran
  // the models at least as fast as OpenBLAS's, whichever kernels
  // $OPENBLAS_CORETYPE left OpenBLAS, and all their products but the
  // forward one of the smallest tasks (docs/performance.md, "GEMM
  // engines"); elsewhere OpenBLAS stays.
#ifdef CAVS_HAVE_ONEDNN
  if (oneDnnUsesAvx512())
    return oneDnnEngine();
#endif
  return openBlasEngine();
}
} // namespace

const std::vector<const GemmEngine *> &gemmEngines() {
  static const std::vector<const GemmEngine *> engines = {
      &openBlasEngine(),
#ifdef CAVS_HAVE_ONEDNN
      &oneDnnEngine(),
#endif
  };
  return engines;
}

const GemmEngine &activeGemmEngine() {
  const GemmEngine *engine = selected.load(std::memory_order_relaxed);
  if (engine)
    return *engine;
  const GemmEngine &fallback = defaultGemmEngine();
  selected.store(&fallback, std::memory_order_relaxed);
  return fallback;
}

Status selectGemmEngine(std::string_view name) {
  std::string names;
  for (const GemmEngine *engine : gemmEngines()) {
    if (engine->name == name) {
      selected.store(engine, std::memory_order_relaxed);
      return Status();
    }
    names += names.empty() ? "" : ", ";
    names += engine->name;
  }
  return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                   "no GEMM engine is called '{}'; this runtime has: {}",
                   excerpt(name), names);
}

namespace {
std::once_flag environmentApplied;
/// Why $CAVS_GEMM was not applied, reported by instance creation until
/// setGemmEngine selects an engine; guarded by statusMutex.
Status environmentStatus;
std::mutex statusMutex;
} // namespace

Status initGemmEngine() {
  std::call_once(environmentApplied, [] {
    const char *name = std::getenv("CAVS_GEMM");
    if (!name || !*name)
      return;
    Status status = selectGemmEngine(name).withPrefix("$CAVS_GEMM: ");
    std::lock_guard<std::mutex> lock(statusMutex);
    environmentStatus = std::move(status);
  });
  std::lock_guard<std::mutex> lock(statusMutex);
  return environmentStatus;
}

Status setGemmEngine(std::string_view name) {
  (void)initGemmEngine(); // $CAVS_GEMM first, so that it cannot override
  CAVS_RETURN_IF_ERROR(selectGemmEngine(name));
  std::lock_guard<std::mutex> lock(statusMutex);
  environmentStatus = Status();
  return Status();
}

} // namespace cavs::runtime::cpu
