//===- Guard.cpp - the thread-local last error ----------------------------===//
//
// The storage of the per-thread last error that guard() fills and
// cavs_last_error_message (api/StatusApi.cpp) reads.
//
//===----------------------------------------------------------------------===//
#include "support/Guard.h"

namespace cavs::runtime {

namespace {
// One message per thread, so concurrent callers never see each other's
// failures; it survives successful calls, like errno.
thread_local std::string lastErrorMessage;
} // namespace

void setLastError(std::string message) {
  lastErrorMessage = std::move(message);
}

const std::string &lastError() { return lastErrorMessage; }

cavs_status reportStatus(Status status) {
  if (!status.ok())
    setLastError(status.message());
  return status.code();
}

} // namespace cavs::runtime
