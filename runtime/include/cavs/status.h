//===- status.h - status codes and error messages of the cavs C ABI -------===//
//
// Every fallible call of the runtime returns a cavs_status. The codes are
// stable (explicit values; new ones are only appended) and a detailed,
// human-readable message for the last failure is kept per thread, so no C++
// exception ever crosses the C boundary.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_STATUS_H
#define CAVS_STATUS_H

#include "cavs/api.h"

CAVS_EXTERN_C_BEGIN

/// Result of a runtime call. CAVS_OK is zero; every other value is a failure
/// whose details cavs_last_error_message() returns.
typedef enum cavs_status {
  CAVS_OK = 0,
  /// A null pointer, a negative size or an out-of-range option was passed.
  CAVS_ERROR_INVALID_ARGUMENT = 1,
  /// The input graph is malformed (cycle, bad child index, unknown type, ...).
  CAVS_ERROR_INVALID_GRAPH = 2,
  /// A file could not be opened, read or written.
  CAVS_ERROR_IO = 3,
  /// A file does not follow its format: a text file (the message gives
  /// file:line) or a damaged checkpoint (truncated, bad checksum, ...).
  CAVS_ERROR_PARSE = 4,
  /// An allocation failed.
  CAVS_ERROR_OUT_OF_MEMORY = 5,
  /// The request is valid but not supported by this build or device.
  CAVS_ERROR_UNSUPPORTED = 6,
  /// A bug in the runtime (an unexpected internal exception).
  CAVS_ERROR_INTERNAL = 7,
  /// Not a status: makes the enum 32 bits wide, so that every int32 value
  /// (including codes added later) is a valid cavs_status.
  CAVS_STATUS_FORCE_INT32 = 0x7fffffff,
} cavs_status;

/// A short, static, English name for `status` ("invalid graph", ...); never
/// NULL, also for values this version does not know.
CAVS_API const char *cavs_status_string(cavs_status status);

/// The detailed message of the last failed call on the calling thread, or ""
/// when no call has failed yet. Successful calls leave it unchanged. The
/// pointer stays valid until the next failing call on this thread.
CAVS_API const char *cavs_last_error_message(void);

CAVS_EXTERN_C_END

#endif // CAVS_STATUS_H
