//===- LargeModel.h - generated vertex functions of a given size -*- C++ -*-===//
//
// Compile time must grow near-linearly with the size of a vertex function
// (the frontend allows 65,536 operations). This writes a model whose one
// vertex function has a chosen size, shaped like real code:
// elementwise chains that fusion merges, a matmul every tenth statement
// that splits them, and values read again 3 and 17 statements later.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TOOLS_COMPILE_BENCH_LARGEMODEL_H
#define CAVS_TOOLS_COMPILE_BENCH_LARGEMODEL_H

#include <cstdint>
#include <string>

namespace cavs::bench {

struct LargeModel {
  std::string source;
  /// The size of the vertex function as the frontend's limit counts it
  /// (docs/language.md: an instruction and each of its operands count one).
  int64_t units = 0;
  /// Its operations in the cavs dialect (cavsc --emit=mlir).
  int64_t ops = 0;
};

/// A model of at least `units` (and at most 8 more).
LargeModel largeModel(int64_t units);

} // namespace cavs::bench

#endif // CAVS_TOOLS_COMPILE_BENCH_LARGEMODEL_H
