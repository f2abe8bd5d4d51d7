//===- ModelStats.cpp - what a compiled model does per vertex -------------===//
//
// "Ops" are the ops that do work: parameter references and constants are
// left out, and a fused kernel counts as one op (and one kernel). "GEMMs"
// are matmuls and outer-product weight gradients: each is one GEMM when
// batched over a task or a phase.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/ModelStats.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace cavs;

namespace {
struct PhaseCounts {
  unsigned ops = 0, kernels = 0, gemms = 0;
};

/// Counts the top-level ops of `block` by batching class.
void countBlock(Block &block, PhaseCounts (&counts)[3]) {
  for (Operation &op : block) {
    if (isa<ParamRefOp, ConstantOp, BackwardOp>(op))
      continue;
    auto kind =
        op.getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
    PhaseCounts &phase =
        counts[static_cast<unsigned>(kind ? kind.getValue() : BatchingKind::body)];
    ++phase.ops;
    phase.kernels += isa<FusedOp>(op);
    phase.gemms += isa<MatmulOp, ParamGradOuterOp>(op);
  }
}

int64_t intAttr(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}
} // namespace

void cavs::printModelStats(ModelOp model, llvm::raw_ostream &os) {
  os << "model " << model.getSymName() << "\n";
  for (auto vertex : model.getBody().getOps<VertexOp>()) {
    PhaseCounts forward[3], backward[3];
    countBlock(vertex.getBody().front(), forward);
    if (BackwardOp region = vertex.getBackward())
      countBlock(region.getBody().front(), backward);

    os << "vertex @" << vertex.getSymName() << " (arity "
       << vertex.getArity() << "): arena "
       << intAttr(vertex, CavsDialect::kArenaWidthAttrName)
       << " floats per vertex, scratch "
       << intAttr(vertex, CavsDialect::kScratchWidthAttrName)
       << " floats per task row\n";
    os << "  phase        ops  kernels  gemms\n";
    for (auto [name, counts] : {std::pair("F ", forward), {"dF", backward}})
      for (BatchingKind kind :
           {BatchingKind::eager, BatchingKind::body, BatchingKind::lazy}) {
        const PhaseCounts &c = counts[static_cast<unsigned>(kind)];
        os << "  " << name << " " << llvm::left_justify(stringifyBatchingKind(kind), 6)
           << llvm::format("%7u  %7u  %5u\n", c.ops, c.kernels, c.gemms);
      }
  }
}
