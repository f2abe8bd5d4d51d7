//===- Status.h - internal error values of the runtime --------------------===//
//
// Inside the runtime, fallible functions return a Status: a cavs_status code
// plus a detailed message built with fmt. The C ABI layer (api/Guard.h) turns
// it into the code returned to the caller and the thread-local last error.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_STATUS_H
#define CAVS_RUNTIME_SUPPORT_STATUS_H

#include "cavs/status.h"

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

namespace cavs::runtime {

/// A cavs_status code with its message; the default value is success.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(cavs_status code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == CAVS_OK; }
  cavs_status code() const { return code_; }
  const std::string &message() const { return message_; }

  /// Prepends `prefix` (such as "file:line: ") to the message of a failure.
  Status withPrefix(std::string_view prefix) && {
    if (!ok())
      message_.insert(0, prefix);
    return std::move(*this);
  }

private:
  cavs_status code_ = CAVS_OK;
  std::string message_;
};

/// Builds a failed Status whose message is formatted by fmt.
template <typename... Args>
Status makeError(cavs_status code, fmt::format_string<Args...> format,
                 Args &&...args) {
  return Status(code, fmt::format(format, std::forward<Args>(args)...));
}

} // namespace cavs::runtime

/// Returns the Status `expr` from the enclosing function when it failed.
#define CAVS_RETURN_IF_ERROR(expr)                                             \
  do {                                                                         \
    if (::cavs::runtime::Status cavsStatus_ = (expr); !cavsStatus_.ok())       \
      return cavsStatus_;                                                      \
  } while (false)

#endif // CAVS_RUNTIME_SUPPORT_STATUS_H
