//===- LowerFused.cpp - the cavs-lower-fused pass -------------------------===//
//
// Runs before cavs-outline-phases: kernels are numbered in the program
// order of the planned IR, which is also the order of the CUDA source.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Conversion/RuntimeLowering.h"

#include <limits>

namespace cavs {
#define GEN_PASS_DEF_CAVSLOWERFUSED
#include "compiler/Conversion/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
struct LowerFusedPass : public cavs::impl::CavsLowerFusedBase<LowerFusedPass> {
  using CavsLowerFusedBase::CavsLowerFusedBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<Device> target = parseDevice(module, device);
    if (failed(target))
      return signalPassFailure();
    if (firstKernel < 0) {
      module.emitError("cavs-lower-fused: first-kernel must be a kernel "
                       "number (0 or more), got ")
          << int32_t(firstKernel);
      return signalPassFailure();
    }
    int64_t number = firstKernel;
    for (auto model : llvm::to_vector(module.getOps<ModelOp>())) {
      std::string prefix =
          symbolPrefix.empty() ? model.getSymName().str() : symbolPrefix;
      LogicalResult built = forEachModelKernel(
          model, prefix, [&](FusedOp fused, StringRef name) -> LogicalResult {
            // A second run built every kernel again, and failed on the
            // symbol of the first ("redefinition of symbol").
            if (fused->hasAttr(kKernelAttrName))
              return fused.emitOpError("has its kernel already; "
                                       "cavs-lower-fused runs once");
            Builder b(fused.getContext());
            if (*target == Device::CUDA) {
              if (number > std::numeric_limits<int32_t>::max())
                return fused.emitOpError("needs kernel number ")
                       << number << ", past int32 (first-kernel "
                       << int32_t(firstKernel) << ")";
              fused->setAttr(kKernelAttrName,
                             b.getI32IntegerAttr(int32_t(number++)));
              return success();
            }
            if (failed(buildFusedKernel(fused, module, name)))
              return failure();
            fused->setAttr(kKernelAttrName,
                           FlatSymbolRefAttr::get(fused.getContext(), name));
            return success();
          });
      if (failed(built))
        return signalPassFailure();
    }
  }
};
} // namespace
