//===- InstanceApi.cpp - C ABI of model instances -------------------------===//
//
// Thin adapters from cavs/instance.h onto ModelInstance: arguments are
// checked for NULL here, everything else there. Accessors are NULL-safe.
//
//===----------------------------------------------------------------------===//
#include "api/Guard.h"
#include "api/Handles.h"
#include "cavs/instance.h"
#include "exec/Instance.h"

#include <memory>

using namespace cavs::runtime;

/// The object behind the opaque cavs_model handle.
struct cavs_model {
  ModelInstance impl;
};

namespace {

/// Checks the arguments every call taking a model and a name shares.
Status requireModelAndName(const cavs_model *model, const char *name) {
  CAVS_RETURN_IF_ERROR(requireNonNull(model, "model"));
  return requireNonNull(name, "name");
}

/// `data` may only be NULL when `count` is 0.
Status requireData(const float *data, int64_t count) {
  return count > 0 ? requireNonNull(data, "data") : Status();
}

/// Reports the outcome of an array query: the array, or NULL with the
/// message set.
const float *arrayOrNull(cavs_status status, const float *data) {
  return status == CAVS_OK ? data : nullptr;
}

} // namespace

extern "C" {

cavs_status cavs_model_create(const cavs_model_def *def, uint64_t seed,
                              cavs_model **out_model) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(def, "def"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_model, "out_model"));
    auto handle = std::make_unique<cavs_model>();
    CAVS_RETURN_IF_ERROR(ModelInstance::create(*def, seed, handle->impl));
    *out_model = handle.release();
    return Status();
  });
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
