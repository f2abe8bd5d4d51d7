//===- ParamOrder.cpp - the runtime's indices of a model's parameters -----===//

#include "compiler/Conversion/ParamOrder.h"

using namespace mlir;
using namespace cavs;

ParamOrder ParamOrder::compute(ModelOp model) {
  ParamOrder order;
  for (Operation &op : model.getBody().front()) {
    if (auto param = dyn_cast<ParamOp>(op)) {
      order.tableIndex[param.getSymName()] = int32_t(order.params.size());
      order.params.push_back(param);
    } else if (auto pack = dyn_cast<ParamPackOp>(op)) {
      order.packs.push_back(pack);
    }
  }
  for (auto [i, pack] : llvm::enumerate(order.packs))
    order.tableIndex[pack.getSymName()] = int32_t(order.params.size() + i);
  return order;
}

llvm::SmallVector<int32_t> ParamOrder::paramIndices(StringRef symbol) const {
  const int32_t index = tableIndex.lookup(symbol);
  const auto numParams = static_cast<int32_t>(params.size());
  if (index < numParams)
    return {index};
  ParamPackOp pack = packs[index - numParams];
  llvm::SmallVector<int32_t> members;
  for (auto member : pack.getMembers().getAsRange<FlatSymbolRefAttr>())
    members.push_back(paramIndex(member.getValue()));
  return members;
}
