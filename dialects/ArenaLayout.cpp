//===- ArenaLayout.cpp - how an arena stores its slots --------------------===//

#include "dialects/ArenaLayout.h"

#include "cavs/model.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace cavs {

namespace {
/// Floats of a cache line. A block of whole lines starts on one, as
/// cavs-plan-memory starts such slots in an arena row, so that its rows'
/// vector loads and stores never straddle two lines.
constexpr int64_t kLineFloats = CAVS_PARAM_ALIGNMENT;
/// Strides that are multiples of this many floats (1 KiB) get a line more.
constexpr int64_t kConflictFloats = 256;

int64_t strideOf(int64_t width) {
  return width % kConflictFloats == 0 ? width + kLineFloats : width;
}
} // namespace

SmallVector<ArenaBlock> arenaBlocks(VertexOp vertex) {
  SmallVector<std::pair<int64_t, int64_t>> slots;
  vertex->walk([&](Operation *op) {
    auto list = op->getAttrOfType<ArrayAttr>(CavsDialect::kSlotsAttrName);
    if (!list)
      return;
    for (auto slot : list.getAsRange<SlotAttr>())
      if (slot && slot.getSpace() == SlotSpace::arena)
        slots.push_back({slot.getOffset(), slot.getSize()});
  });
  llvm::sort(slots);
  SmallVector<ArenaBlock> blocks;
  for (auto [first, width] : slots) {
    if (!blocks.empty() && first < blocks.back().first + blocks.back().width) {
      ArenaBlock &block = blocks.back();
      block.width = std::max(block.width, first + width - block.first);
    } else {
      blocks.push_back({first, width, 0, 0});
    }
  }
  int64_t offset = 0;
  for (ArenaBlock &block : blocks) {
    block.stride = strideOf(block.width);
    // On a line for any number of rows: `offset * rows` floats in.
    block.offset = block.width % kLineFloats == 0
                       ? static_cast<int64_t>(llvm::alignTo(offset, kLineFloats))
                       : offset;
    offset = block.offset + block.stride;
  }
  return blocks;
}

int64_t arenaBlockFloats(ArrayRef<ArenaBlock> blocks) {
  return blocks.empty() ? 0 : blocks.back().offset + blocks.back().stride;
}

} // namespace cavs
