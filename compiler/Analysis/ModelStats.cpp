//===- ModelStats.cpp - what a compiled model does per vertex -------------===//
//
// "Ops" are the ops that do work: parameter references and constants are
// left out, and a fused kernel counts as one op (and one kernel). "GEMMs"
// are matmuls and outer-product weight gradients: each is one GEMM when
// batched over a task or a phase. Each op states its FLOPs and copied
// bytes itself (CostOpInterface).
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/ModelStats.h"

#include "cavs/model.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace cavs;

namespace {
/// FLOPs of one vertex's share of `op`, and the bytes it copies; ops
/// without a cost cost nothing.
int64_t flopsOf(Operation *op) {
  auto cost = dyn_cast<CostOpInterface>(op);
  return cost ? cost.getFlops() : 0;
}
int64_t copyBytesOf(Operation *op) {
  auto cost = dyn_cast<CostOpInterface>(op);
  return cost ? cost.getCopyBytes() : 0;
}

/// Adds the top-level ops of `block` to `phases` by batching class.
void countBlock(Block &block, PhaseStats *phases) {
  for (Operation &op : block) {
    if (!isBatchedOp(&op))
      continue;
    auto kind =
        op.getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
    PhaseStats &phase = phases[static_cast<unsigned>(
        kind ? kind.getValue() : BatchingKind::body)];
    ++phase.ops;
    phase.kernels += isa<FusedOp>(op);
    phase.gemms += isa<MatmulOp, ParamGradOuterOp>(op);
    phase.flops += flopsOf(&op);
    phase.copyBytes += copyBytesOf(&op);
    llvm::TypeSwitch<Operation *>(&op)
        .Case<ParamGradOp, ParamGradOuterOp, LookupGradOp>(
            [&](auto grad) { phase.gradParams.push_back(grad.getParam()); });
    op.walk([&](Operation *nested) {
      if (isa<LossOp, ParamGradOp, ParamGradOuterOp, LookupGradOp>(nested))
        phase.sumsOverRows = true;
    });
  }
}

int64_t intAttr(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}

/// "10.6 KiB": `floats` floats in binary units.
std::string formatFloatBytes(int64_t floats) {
  double bytes = 4.0 * double(floats);
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  unsigned unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(units)) {
    bytes /= 1024;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format(unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

/// The memory of the parameters and what training keeps per parameter, as
/// the runtime lays them out (each tensor aligned).
void printParamMemory(ModelOp model, llvm::raw_ostream &os) {
  int64_t floats = 0, tensors = 0;
  for (auto param : model.getBody().getOps<ParamOp>()) {
    floats += llvm::alignTo(valueWidth(param.getType()), CAVS_PARAM_ALIGNMENT);
    ++tensors;
  }
  os << "parameters: " << tensors << " tensors, " << floats << " floats ("
     << formatFloatBytes(floats) << ")\n"
     << "training: gradients " << formatFloatBytes(floats)
     << ", optimizer state " << formatFloatBytes(floats)
     << " (Adagrad, SGD with momentum) or " << formatFloatBytes(2 * floats)
     << " (Adam)\n";
}
} // namespace

std::array<PhaseStats, 6> cavs::vertexPhaseStats(VertexOp vertex) {
  std::array<PhaseStats, 6> phases;
  countBlock(vertex.getBody().front(), phases.data());
  if (BackwardOp region = vertex.getBackward())
    countBlock(region.getBody().front(), phases.data() + 3);
  return phases;
}

void cavs::printModelStats(ModelOp model, llvm::raw_ostream &os) {
  os << "model " << model.getSymName() << "\n";
  printParamMemory(model, os);
  for (auto vertex : model.getBody().getOps<VertexOp>()) {
    std::array<PhaseStats, 6> phases = vertexPhaseStats(vertex);
    int64_t arena = intAttr(vertex, CavsDialect::kArenaWidthAttrName),
            scratch = intAttr(vertex, CavsDialect::kScratchWidthAttrName);
    os << "vertex @" << vertex.getSymName() << " (arity " << vertex.getArity()
       << "): arena " << arena << " floats per vertex ("
       << formatFloatBytes(arena) << "), scratch " << scratch
       << " floats per task row (" << formatFloatBytes(scratch) << ")\n";
    os << "  phase        ops  kernels  gemms  flops/vertex  copied bytes\n";
    int64_t flops[2] = {0, 0};
    for (auto [i, phase] : llvm::enumerate(phases)) {
      auto kind = static_cast<BatchingKind>(i % 3);
      os << "  " << (i < 3 ? "F " : "dF") << " "
         << llvm::left_justify(stringifyBatchingKind(kind), 6)
         << llvm::format("%7u  %7u  %5u  %12lld  %12lld\n", phase.ops,
                         phase.kernels, phase.gemms, (long long)phase.flops,
                         (long long)phase.copyBytes);
      flops[i / 3] += phase.flops;
    }
    os << llvm::format("  per vertex: F %.3f MFLOP, dF %.3f MFLOP\n",
                       flops[0] * 1e-6, flops[1] * 1e-6);
    // Which phases the runtime may cut into calls over fewer rows.
    os << "  row-local phases:";
    bool any = false;
    for (auto [i, phase] : llvm::enumerate(phases))
      if (phase.ops != 0 && !phase.sumsOverRows) {
        os << (any ? ", " : " ") << (i < 3 ? "F " : "dF ")
           << stringifyBatchingKind(static_cast<BatchingKind>(i % 3));
        any = true;
      }
    os << (any ? "\n" : " none\n");
    // What the distributed trainer can start summing after each phase.
    for (auto [i, phase] : llvm::enumerate(phases)) {
      if (phase.gradParams.empty())
        continue;
      llvm::SetVector<StringRef> symbols(phase.gradParams.begin(),
                                         phase.gradParams.end());
      os << "  " << (i < 3 ? "F " : "dF") << " "
         << stringifyBatchingKind(static_cast<BatchingKind>(i % 3))
         << " adds to the gradients of ";
      llvm::interleaveComma(symbols, os,
                            [&](StringRef symbol) { os << "@" << symbol; });
      os << "\n";
    }
  }
}
