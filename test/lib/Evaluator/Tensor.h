//===- Tensor.h - a double tensor for the reference evaluator ---*- C++ -*-===//
//
// The value type of the reference evaluator: a shape and its elements in
// row-major order, in double precision so that the evaluator can serve as
// the oracle for f32 code and for finite-difference gradient checks.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TEST_LIB_EVALUATOR_TENSOR_H
#define CAVS_TEST_LIB_EVALUATOR_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace cavs {

/// A dense row-major tensor of rank 0 to 2 (rank 0 holds one element).
/// Aggregate, so tests can write `EvalTensor{{2}, {1.0, 2.0}}`.
struct EvalTensor {
  llvm::SmallVector<int64_t, 2> shape;
  std::vector<double> data;

  /// The number of elements the shape calls for.
  static int64_t numElements(llvm::ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t dim : shape)
      n *= dim;
    return n;
  }

  /// A tensor of `shape` filled with zeros.
  static EvalTensor zeros(llvm::ArrayRef<int64_t> shape) {
    return EvalTensor{llvm::SmallVector<int64_t, 2>(shape),
                      std::vector<double>(numElements(shape), 0.0)};
  }

  /// A rank-0 tensor.
  static EvalTensor scalar(double value) { return EvalTensor{{}, {value}}; }
};

} // namespace cavs

#endif // CAVS_TEST_LIB_EVALUATOR_TENSOR_H
