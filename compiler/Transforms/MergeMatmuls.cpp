//===- MergeMatmuls.cpp - one GEMM for matmuls sharing their vector -------===//
//
// Finds matmuls of one block with the same right operand (and batching
// class) whose matrices are distinct parameters, packs those parameters and
// rewrites the group as one matmul plus a split.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace cavs {
#define GEN_PASS_DEF_CAVSMERGEMATMULS
#include "compiler/Transforms/Passes.h.inc"
} // namespace cavs

using namespace mlir;
using namespace cavs;

namespace {
struct MergeMatmulsPass
    : public cavs::impl::CavsMergeMatmulsBase<MergeMatmulsPass> {
  void runOnOperation() override;

private:
  /// The parameter a matmul multiplies by, if it is an unpacked matrix
  /// parameter that may join a pack.
  ParamOp packableParam(MatmulOp matmul);
  void merge(SmallVector<MatmulOp> group);

  SymbolTable *symbols = nullptr;
  llvm::StringSet<> packed;
};
} // namespace

ParamOp MergeMatmulsPass::packableParam(MatmulOp matmul) {
  auto ref = matmul.getLhs().getDefiningOp<ParamRefOp>();
  if (matmul.getTransposeLhs() || !ref)
    return nullptr;
  auto param = symbols->lookup<ParamOp>(ref.getParam());
  return param && !packed.contains(param.getSymName()) ? param : nullptr;
}

void MergeMatmulsPass::merge(SmallVector<MatmulOp> group) {
  // An earlier merge may have packed some of these matrices already.
  llvm::erase_if(group, [&](MatmulOp matmul) { return !packableParam(matmul); });
  if (group.size() < 2)
    return;
  ModelOp model = getOperation();
  OpBuilder builder(model.getContext());

  // The pack: members in program order, stacked by rows.
  SmallVector<Attribute> members;
  std::string name = "pack";
  int64_t rows = 0;
  for (MatmulOp matmul : group) {
    ParamOp param = packableParam(matmul);
    members.push_back(FlatSymbolRefAttr::get(param.getSymNameAttr()));
    name += "_" + param.getSymName().str();
    rows += param.getTensorType().getDimSize(0);
    packed.insert(param.getSymName());
  }
  auto firstParam = symbols->lookup<ParamOp>(
      cast<FlatSymbolRefAttr>(members.front()).getValue());
  auto packType = RankedTensorType::get(
      {rows, firstParam.getTensorType().getDimSize(1)}, builder.getF32Type());
  builder.setInsertionPointAfter(firstParam);
  auto pack = builder.create<ParamPackOp>(firstParam.getLoc(), name, packType,
                                          builder.getArrayAttr(members));
  symbols->insert(pack); // renames on a clash

  // One matmul and a split, where the first matmul of the group was.
  MatmulOp first = group.front();
  builder.setInsertionPoint(first);
  SmallVector<Location> locations;
  SmallVector<Type> partTypes;
  for (MatmulOp matmul : group) {
    locations.push_back(matmul.getLoc());
    partTypes.push_back(matmul.getType());
  }
  Location loc = builder.getFusedLoc(locations);
  Attribute batching = first->getAttr(CavsDialect::kBatchingAttrName);
  auto ref = builder.create<ParamRefOp>(loc, packType, pack.getSymName());
  auto merged = builder.create<MatmulOp>(
      loc, RankedTensorType::get({rows}, builder.getF32Type()), ref,
      first.getRhs());
  auto split = builder.create<SplitOp>(loc, partTypes, merged.getResult());
  for (Operation *op : {ref.getOperation(), merged.getOperation(),
                        split.getOperation()})
    if (batching)
      op->setAttr(CavsDialect::kBatchingAttrName, batching);
  for (auto [index, matmul] : llvm::enumerate(group)) {
    matmul.getResult().replaceAllUsesWith(split.getResult(index));
    matmul.erase();
  }
}

void MergeMatmulsPass::runOnOperation() {
  ModelOp model = getOperation();
  SymbolTable table(model);
  symbols = &table;
  for (auto pack : model.getBody().getOps<ParamPackOp>())
    for (auto member : pack.getMembers().getAsRange<FlatSymbolRefAttr>())
      packed.insert(member.getValue());

  SmallVector<Block *> blocks;
  model.walk([&](VertexOp vertex) {
    blocks.push_back(&vertex.getBody().front());
    vertex.walk([&](BackwardOp backward) {
      blocks.push_back(&backward.getBody().front());
    });
  });
  for (Block *block : blocks) {
    // Key: the shared vector and the batching class (null if unclassified).
    llvm::MapVector<std::pair<Value, Attribute>, SmallVector<MatmulOp>> groups;
    for (auto matmul : block->getOps<MatmulOp>()) {
      ParamOp param = packableParam(matmul);
      if (!param)
        continue;
      auto &group = groups[{matmul.getRhs(),
                            matmul->getAttr(CavsDialect::kBatchingAttrName)}];
      // The same matrix twice with the same vector is CSE's job.
      bool duplicate = llvm::any_of(group, [&](MatmulOp other) {
        return packableParam(other) == param;
      });
      if (!duplicate)
        group.push_back(matmul);
    }
    for (auto &entry : groups)
      merge(std::move(entry.second));
  }
}
