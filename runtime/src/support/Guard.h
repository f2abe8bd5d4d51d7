//===- Guard.h - the exception and error boundary of C entry points -------===//
//
// Every function C code calls (the C ABI in api/, the CPU's op table that
// generated code calls) runs its body through guard(), which records the
// message of a failed Status as the thread's last error and converts
// escaping C++ exceptions (allocation failures, bugs) into status codes, so
// nothing is ever thrown across a C boundary.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_GUARD_H
#define CAVS_RUNTIME_SUPPORT_GUARD_H

#include "support/AllocationFailure.h"
#include "support/Status.h"

#include <new>
#include <string>

namespace cavs::runtime {

/// Records `message` as the calling thread's last error message.
void setLastError(std::string message);
/// The calling thread's last error message (cavs_last_error_message).
const std::string &lastError();

/// Returns `status`'s code, recording its message first when it failed.
cavs_status reportStatus(Status status);

/// Runs `body` (returning Status) and reports its result; exceptions become
/// CAVS_ERROR_OUT_OF_MEMORY (with the size asked for, where the allocation
/// knew it) or CAVS_ERROR_INTERNAL.
template <typename Body> cavs_status guard(Body &&body) noexcept {
  try {
    return reportStatus(body());
  } catch (const AllocationFailure &failure) {
    return reportStatus(makeError(
        CAVS_ERROR_OUT_OF_MEMORY,
        "out of memory: cannot allocate a buffer of {} bytes ({:.2f} GiB)",
        failure.bytes(), double(failure.bytes()) / double(int64_t(1) << 30)));
  } catch (const std::bad_alloc &) {
    return reportStatus(Status(CAVS_ERROR_OUT_OF_MEMORY, "out of memory"));
  } catch (const std::exception &e) {
    return reportStatus(
        makeError(CAVS_ERROR_INTERNAL, "internal error: {}", e.what()));
  } catch (...) {
    return reportStatus(
        Status(CAVS_ERROR_INTERNAL, "internal error: unknown exception"));
  }
}

/// Fails with CAVS_ERROR_INVALID_ARGUMENT when `pointer` is null; `what`
/// names the argument in the message.
inline Status requireNonNull(const void *pointer, const char *what) {
  if (pointer)
    return Status();
  return makeError(CAVS_ERROR_INVALID_ARGUMENT, "{} must not be NULL", what);
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_GUARD_H
