//===- StatusApi.cpp - status strings and the thread-local last error -----===//
//
// Implements cavs_status_string and cavs_last_error_message, and the storage
// of the per-thread last error that guard() fills.
//
//===----------------------------------------------------------------------===//
#include "api/Guard.h"

namespace cavs::runtime {

// One message per thread, so concurrent callers never see each other's
// failures; it survives successful calls, like errno.
static thread_local std::string lastError;

void setLastError(std::string message) { lastError = std::move(message); }

cavs_status reportStatus(Status status) {
  if (!status.ok())
    setLastError(status.message());
  return status.code();
}

} // namespace cavs::runtime

extern "C" {

const char *cavs_status_string(cavs_status status) {
  switch (status) {
  case CAVS_OK:
    return "ok";
  case CAVS_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case CAVS_ERROR_INVALID_GRAPH:
    return "invalid graph";
  case CAVS_ERROR_IO:
    return "i/o error";
  case CAVS_ERROR_PARSE:
    return "parse error";
  case CAVS_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case CAVS_ERROR_UNSUPPORTED:
    return "unsupported";
  case CAVS_ERROR_INTERNAL:
    return "internal error";
  case CAVS_STATUS_FORCE_INT32:
    break;
  }
  return "unknown status";
}

const char *cavs_last_error_message(void) {
  return cavs::runtime::lastError.c_str();
}

} // extern "C"
