//===- AllocationFailure.h - an allocation failure that knows its size ----===//
//
// The runtime's large buffers (arenas, parameters, gradients) throw this
// instead of a bare std::bad_alloc, so that the C ABI's guard can say how
// much memory a failed call asked for rather than only "out of memory".
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_ALLOCATIONFAILURE_H
#define CAVS_RUNTIME_SUPPORT_ALLOCATIONFAILURE_H

#include <cstdint>
#include <new>

namespace cavs::runtime {

class AllocationFailure : public std::bad_alloc {
public:
  explicit AllocationFailure(int64_t bytes) : bytes_(bytes) {}
  int64_t bytes() const { return bytes_; }
  const char *what() const noexcept override {
    return "cavs: a buffer allocation failed";
  }

private:
  int64_t bytes_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_ALLOCATIONFAILURE_H
