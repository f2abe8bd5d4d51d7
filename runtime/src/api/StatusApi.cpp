//===- StatusApi.cpp - status strings and the thread-local last error -----===//
//
// Implements cavs_status_string and cavs_last_error_message (the per-thread
// last error that guard() fills, support/Guard.cpp).
//
//===----------------------------------------------------------------------===//
#include "support/Guard.h"

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
  return cavs::runtime::lastError().c_str();
}

} // extern "C"
