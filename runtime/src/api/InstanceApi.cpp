//===- InstanceApi.cpp - C ABI of model instances -------------------------===//
//
// Thin adapters from cavs/instance.h onto ModelInstance: arguments are
// checked for NULL here, everything else there. Accessors are NULL-safe.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/instance.h"
#include "support/Excerpt.h"
#include "support/Guard.h"

#include <charconv>
#include <memory>
#include <string_view>

using namespace cavs::runtime;

namespace {

/// Checks the arguments every call taking a model and a name shares.
Status requireModelAndName(const cavs_model *model, const char *name) {
  CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
  return requireNonNull(name, "name");
}

/// `data` may only be NULL when `count` is 0, and `count` floats must fit
/// in the address space: past it, `data + count` wraps (2^62 + 12 floats
/// read as 12).
Status requireData(const float *data, int64_t count) {
  if (count > PTRDIFF_MAX / int64_t(sizeof(float)))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "{} floats are more than memory can hold", count);
  return count > 0 ? requireNonNull(data, "data") : Status();
}

/// Reports the outcome of an array query: the array, or NULL with the
/// message set.
const float *arrayOrNull(cavs_status status, const float *data) {
  return status == CAVS_OK ? data : nullptr;
}

/// "cpu", "cuda", "cuda:N" or "auto" as device options.
Status parseDevice(std::string_view name, cavs_device_options &out) {
  out = cavs_device_options{CAVS_DEVICE_CPU, 0, 0};
  if (name == "cpu")
    return Status();
  if (name == "auto") {
    out.kind = CAVS_DEVICE_AUTO;
    return Status();
  }
  if (name.substr(0, 4) == "cuda") {
    out.kind = CAVS_DEVICE_CUDA;
    std::string_view rest = name.substr(4);
    if (rest.empty())
      return Status();
    if (rest[0] == ':') {
      std::string_view digits = rest.substr(1);
      auto [end, error] = std::from_chars(
          digits.data(), digits.data() + digits.size(), out.ordinal);
      if (!digits.empty() && error == std::errc() &&
          end == digits.data() + digits.size() && out.ordinal >= 0)
        return Status();
    }
  }
  return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                   "unknown device '{}' (expected cpu, cuda, cuda:N or auto)",
                   excerpt(name));
}

/// Turns AUTO into CUDA (the library has CUDA code and a GPU is usable) or
/// the CPU, and checks the other options.
Status resolveDevice(const cavs_model_def &def, cavs_device_options &device) {
  if (device.ordinal < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "device ordinal {} is negative", device.ordinal);
  if (device.kind == CAVS_DEVICE_AUTO) {
    int32_t count = 0;
    const bool gpu =
        def.cuda && cudaDeviceCount(count).ok() && device.ordinal < count;
    // Falling back to the CPU drops the GPU's ordinal.
    if (gpu)
      device.kind = CAVS_DEVICE_CUDA;
    else
      device = {CAVS_DEVICE_CPU, 0, device.allow_tf32};
  }
  if (device.kind != CAVS_DEVICE_CPU && device.kind != CAVS_DEVICE_CUDA)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT, "unknown device kind {}",
                     static_cast<int>(device.kind));
  if (device.kind == CAVS_DEVICE_CPU && device.ordinal != 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "device ordinal {} on the CPU, which is device 0",
                     device.ordinal);
  return Status();
}

} // namespace

extern "C" {

cavs_status cavs_model_create(const cavs_model_def *def, uint64_t seed,
                              cavs_model **out_model) {
  const cavs_device_options cpu{CAVS_DEVICE_CPU, 0, 0};
  return cavs_model_create_on_device(def, seed, &cpu, out_model);
}

cavs_status cavs_model_create_on_device(const cavs_model_def *def,
                                        uint64_t seed,
                                        const cavs_device_options *device,
                                        cavs_model **out_model) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(def, "def"));
    CAVS_RETURN_IF_ERROR(requireNonNull(device, "device"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_model, "out_model"));
    cavs_device_options chosen = *device;
    CAVS_RETURN_IF_ERROR(resolveDevice(*def, chosen));
    auto handle = std::make_unique<cavs_model>();
    CAVS_RETURN_IF_ERROR(
        ModelInstance::create(*def, seed, chosen, handle->impl));
    *out_model = handle.release();
    return Status();
  });
}

cavs_status cavs_device_parse(const char *name,
                              cavs_device_options *out_options) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(name, "name"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_options, "out_options"));
    return parseDevice(name, *out_options);
  });
}

cavs_status cavs_cuda_device_count(int32_t *out_count) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_count, "out_count"));
    return cudaDeviceCount(*out_count);
  });
}

cavs_device_kind cavs_model_device(const cavs_model *model) {
  return model ? model->impl.deviceKind() : CAVS_DEVICE_CPU;
}

const char *cavs_model_device_name(const cavs_model *model) {
  return model ? model->impl.deviceName().c_str() : nullptr;
}

void cavs_model_destroy(cavs_model *model) { delete model; }

const cavs_model_def *cavs_model_definition(const cavs_model *model) {
  return model ? &model->impl.definition() : nullptr;
}

cavs_param_store *cavs_model_params(cavs_model *model) {
  return model ? model->impl.params() : nullptr;
}

cavs_grad_store *cavs_model_grads(cavs_model *model) {
  return model ? model->impl.grads() : nullptr;
}

cavs_status cavs_model_set_input(cavs_model *model, const char *name,
                                 const float *data, int64_t count) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireModelAndName(model, name));
    CAVS_RETURN_IF_ERROR(requireData(data, count));
    return model->impl.setInput(name, data, count);
  });
}

cavs_status cavs_model_forward(cavs_model *model, const cavs_graph_batch *batch,
                               cavs_mode mode, double *out_loss) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
    CAVS_RETURN_IF_ERROR(requireNonNull(batch, "batch"));
    double loss = 0;
    CAVS_RETURN_IF_ERROR(model->impl.forward(batch->impl, mode, loss));
    if (out_loss)
      *out_loss = loss;
    return Status();
  });
}

const float *cavs_model_output(cavs_model *model, const char *name,
                               int64_t *out_width) {
  const float *data = nullptr;
  int64_t width = 0;
  const cavs_status status = guard([&] {
    CAVS_RETURN_IF_ERROR(requireModelAndName(model, name));
    return model->impl.output(name, data, width);
  });
  if (out_width)
    *out_width = width;
  return arrayOrNull(status, data);
}

cavs_status cavs_model_set_output_enabled(cavs_model *model, const char *name,
                                          int32_t enabled) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireModelAndName(model, name));
    return model->impl.setOutputEnabled(name, enabled != 0);
  });
}

cavs_status cavs_model_set_output_grad(cavs_model *model, const char *name,
                                       const float *data, int64_t count) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireModelAndName(model, name));
    CAVS_RETURN_IF_ERROR(requireData(data, count));
    return model->impl.setOutputGrad(name, data, count);
  });
}

cavs_status cavs_model_backward(cavs_model *model) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
    return model->impl.backward();
  });
}

const float *cavs_model_input_grad(cavs_model *model, const char *name,
                                   int64_t *out_width) {
  const float *data = nullptr;
  int64_t width = 0;
  const cavs_status status = guard([&] {
    CAVS_RETURN_IF_ERROR(requireModelAndName(model, name));
    return model->impl.inputGrad(name, data, width);
  });
  if (out_width)
    *out_width = width;
  return arrayOrNull(status, data);
}

cavs_status cavs_model_step(cavs_model *model, cavs_optimizer *optimizer) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
    CAVS_RETURN_IF_ERROR(requireNonNull(optimizer, "optimizer"));
    return model->impl.step(optimizer->impl);
  });
}

cavs_model_timing cavs_model_last_timing(const cavs_model *model) {
  return model ? model->impl.timing() : cavs_model_timing{};
}

cavs_model_work cavs_model_last_work(const cavs_model *model) {
  return model ? model->impl.work() : cavs_model_work{};
}

cavs_status cavs_model_set_schedule_policy(cavs_model *model,
                                           cavs_schedule_policy policy) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
    CAVS_RETURN_IF_ERROR(checkSchedulePolicy(policy));
    model->impl.setSchedulePolicy(policy);
    return Status();
  });
}

int32_t cavs_model_last_num_tasks(const cavs_model *model) {
  return model ? model->impl.numTasks() : 0;
}

int32_t cavs_model_last_num_levels(const cavs_model *model) {
  return model ? model->impl.numLevels() : 0;
}

int32_t cavs_model_last_num_vertices(const cavs_model *model) {
  return model ? model->impl.numVertices() : 0;
}

} // extern "C"
