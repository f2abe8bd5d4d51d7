//===- Validate.h - validation of one sample's graph ----------------------===//
//
// Checks a sample given in the builder's input layout (dense child slots,
// sample-local indices) before it is appended: type ids, child indices, self
// references, children past the type's arity, and cycles. Every check is
// linear and iterative, so deep chains cannot overflow the stack, and each
// error names the sample and vertex.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_GRAPH_VALIDATE_H
#define CAVS_RUNTIME_GRAPH_VALIDATE_H

#include "support/Status.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace cavs::runtime {

/// One sample in the builder's input layout.
struct SampleView {
  /// Index the sample will have in the batch (for messages).
  int32_t index;
  int32_t numVertices;
  const int32_t *types;
  /// numVertices * maxArity entries, slot k of vertex v at v * maxArity + k.
  const int32_t *children;
  int32_t maxArity;
};

/// Validates samples, keeping its scratch buffers between calls.
class SampleValidator {
public:
  /// Checks every type id against `arities` and returns, in `childSlots`,
  /// the number of child slots the sample needs. Reads only `types`.
  Status checkTypes(const SampleView &sample,
                    const std::vector<int32_t> &arities, int64_t &childSlots);

  /// Checks the child slots (after checkTypes succeeded): indices in range,
  /// no self reference, nothing past a type's arity, no cycle.
  Status checkChildren(const SampleView &sample,
                       const std::vector<int32_t> &arities);

private:
  Status checkAcyclic(const SampleView &sample,
                      const std::vector<int32_t> &arities);

  // DFS colours per vertex and the explicit DFS stack of (vertex, next slot).
  std::vector<uint8_t> colour_;
  std::vector<std::pair<int32_t, int32_t>> stack_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_GRAPH_VALIDATE_H
