//===- DeviceBackend.cpp - calls into a device library's C table ----------===//
//
// Each fallible call passes a message buffer across the boundary and turns
// the status and message back into a Status.
//
//===----------------------------------------------------------------------===//
#include "exec/DeviceBackend.h"

namespace cavs::runtime {

namespace {

/// A message buffer for one call into the library.
struct Message {
  char text[1024] = "";
  Status status(cavs_status code) const {
    return code == CAVS_OK ? Status() : Status(code, text);
  }
};

} // namespace

Status DeviceCollectives::postAllreduceSum(float *data, int64_t count) {
  Message message;
  return message.status(library_.group_sum(group_, data, count, message.text,
                                           sizeof message.text));
}

Status DeviceCollectives::wait(std::string_view what) {
  Message message;
  const std::string name(what);
  return message.status(library_.group_wait(group_, name.c_str(), message.text,
                                            sizeof message.text));
}

Status DeviceBackend::allocate(int64_t bytes, void *&out) {
  Message message;
  return message.status(library_.allocate(device_, bytes, &out, message.text,
                                          sizeof message.text));
}

Status DeviceBackend::download(void *dst, const void *src, int64_t bytes) {
  Message message;
  return message.status(library_.download(device_, dst, src, bytes,
                                          message.text, sizeof message.text));
}

Status DeviceBackend::finishPass(const MarkRows &mark) {
  // The first failure of `mark` keeps its message here; the library only
  // sees its code.
  struct Context {
    const MarkRows &mark;
    Status failure;
  } context{mark, Status()};
  auto callback = [](void *opaque, cavs_grad_store *grads, int32_t param,
                     const int32_t *rows, int64_t count) {
    auto &context = *static_cast<Context *>(opaque);
    context.failure = context.mark(grads, param, rows, count);
    return context.failure.code();
  };
  Message message;
  Status status = message.status(library_.finish_pass(
      device_, callback, &context, message.text, sizeof message.text));
  return context.failure.ok() ? status : context.failure;
}

Status DeviceBackend::collectiveGroupId(std::string *id) {
  Message message;
  char bytes[CAVS_DEVICE_GROUP_ID_MAX];
  int32_t size = 0;
  Status status = message.status(library_.group_id(
      device_, id ? bytes : nullptr, &size, message.text, sizeof message.text));
  if (status.ok() && id)
    id->assign(bytes, size_t(size));
  return status;
}

Status
DeviceBackend::joinCollectiveGroup(const std::string &id, int32_t rank,
                                   int32_t size, double timeoutSeconds,
                                   std::unique_ptr<DeviceCollectives> &out) {
  Message message;
  cavs_device_group *group = nullptr;
  CAVS_RETURN_IF_ERROR(message.status(library_.join_group(
      device_, id.data(), int32_t(id.size()), rank, size, timeoutSeconds,
      &group, message.text, sizeof message.text)));
  out = std::make_unique<DeviceCollectives>(library_, group);
  return Status();
}

} // namespace cavs::runtime
