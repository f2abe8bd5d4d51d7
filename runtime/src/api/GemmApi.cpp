//===- GemmApi.cpp - the C ABI of the GEMM engine choice ------------------===//
//
// cavs_gemm_engine and its kin (cavs/instance.h) over ops/GemmEngine.h.
//
//===----------------------------------------------------------------------===//
#include "cavs/instance.h"
#include "ops/GemmEngine.h"
#include "support/Guard.h"

#include <string>

using namespace cavs::runtime;

extern "C" {

const char *cavs_gemm_engine(void) {
  // A bad $CAVS_GEMM leaves the default, and instance creation reports it.
  (void)cpu::initGemmEngine();
  return cpu::activeGemmEngine().name;
}

const char *cavs_gemm_kernel(void) {
  (void)cpu::initGemmEngine();
  thread_local std::string kernel;
  kernel = cpu::activeGemmEngine().kernel();
  return kernel.c_str();
}

cavs_status cavs_set_gemm_engine(const char *name) {
  return guard([&] {
    if (!name)
      return Status(CAVS_ERROR_INVALID_ARGUMENT, "the engine name is NULL");
    return cpu::setGemmEngine(name);
  });
}

int32_t cavs_num_gemm_engines(void) {
  return static_cast<int32_t>(cpu::gemmEngines().size());
}

const char *cavs_gemm_engine_name(int32_t index) {
  if (index < 0 || index >= cavs_num_gemm_engines())
    return nullptr;
  return cpu::gemmEngines()[index]->name;
}

} // extern "C"
