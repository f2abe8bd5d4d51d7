//===- Instance.cpp - creation, external tensors and the optimizer step ---===//
//
// Everything of ModelInstance but the passes themselves (Execute.cpp):
// checking the definition and building the parameter tables at creation,
// inputs, outputs and their gradients by name, and the step.
//
//===----------------------------------------------------------------------===//
#include "exec/Instance.h"

#include "exec/Stopwatch.h"
#include "exec/Threads.h"
#include "ops/GemmEngine.h"
#include "support/Excerpt.h"

#include <algorithm>

namespace cavs::runtime {

namespace {
constexpr cavs_status kInvalid = CAVS_ERROR_INVALID_ARGUMENT;
} // namespace

std::vector<float *> ModelInstance::tensorTable(const ModelLayout &layout,
                                                float *data) {
  std::vector<float *> table;
  for (int32_t i = 0; i < layout.numParams(); ++i)
    table.push_back(data + layout.param(i).offset);
  for (int32_t i = 0; i < layout.numPacks(); ++i)
    table.push_back(data + layout.pack(i).offset);
  return table;
}

Status ModelInstance::create(const cavs_model_def &def, uint64_t seed,
                             const cavs_device_options &device,
                             ModelInstance &out) {
  if (def.version != CAVS_PROGRAM_VERSION)
    return makeError(CAVS_ERROR_UNSUPPORTED,
                     "the model definition has program version {}; this "
                     "runtime runs version {}",
                     def.version, CAVS_PROGRAM_VERSION);
  if (!def.model)
    return Status(kInvalid, "the model definition has no parameter "
                            "descriptor (model is NULL)");
  ModelInstance instance;
  instance.def_ = &def;
  instance.params_ = std::make_unique<cavs_param_store>();
  ParamStore &params = instance.params_->impl;
  CAVS_RETURN_IF_ERROR(ParamStore::create(*def.model, seed, params));
  const ModelLayout &layout = params.layout();
  CAVS_RETURN_IF_ERROR(checkDefinition(def, layout, instance.interface_));
  instance.grads_.reset(new cavs_grad_store{GradStore(params.sharedLayout())});
  GradStore &grads = instance.grads_->impl;
  for (int32_t i = 0; i < def.num_sparse_params; ++i)
    CAVS_RETURN_IF_ERROR(grads.trackRows(def.sparse_params[i]));
  grads.fixRowTracking();
  instance.paramTable_ = tensorTable(layout, params.data());
  instance.gradTable_ = tensorTable(layout, grads.data());
  instance.inputs_.resize(instance.interface_.inputs.size());
  instance.outputs_.resize(instance.interface_.outputs.size());
  instance.functions_.resize(def.train.num_functions);
  for (int32_t f = 0; f < def.train.num_functions; ++f) {
    const cavs_function_desc &fn = def.train.functions[f];
    FunctionState &state = instance.functions_[f];
    state.pulls.resize(fn.num_pulls);
    state.pullGrads.resize(fn.num_pulls);
    state.pushes.resize(fn.num_pushes);
    state.pushGrads.resize(fn.num_pushes);
  }
  if (device.kind == CAVS_DEVICE_CUDA) {
    CAVS_RETURN_IF_ERROR(instance.openDevice(device));
  } else if (!def.has_cpu) {
    return makeError(CAVS_ERROR_UNSUPPORTED,
                     "model '{}' was compiled without CPU code (cavsc "
                     "--target=cuda); create it on a GPU, or compile it with "
                     "--target=cpu,cuda",
                     instance.name());
  }
  CAVS_RETURN_IF_ERROR(cpu::initGemmEngine());
  CAVS_RETURN_IF_ERROR(initKernelThreads());
  // The tables point into heap buffers, which the move does not relocate.
  out = std::move(instance);
  return Status();
}

Status ModelInstance::setInput(std::string_view name, const float *data,
                               int64_t count) {
  const int32_t index = interface_.findInput(name);
  if (index < 0)
    return makeError(kInvalid, "model '{}' has no input '{}'", this->name(),
                     excerpt(name));
  const ExternalTensor &input = interface_.inputs[index];
  if (input.isI32)
    return makeError(kInvalid,
                     "input '{}' of model '{}' is i32: it comes from the "
                     "batch attribute '{}', not from set_input",
                     name, this->name(), name);
  if (count < 0)
    return makeError(kInvalid, "input '{}' of model '{}' cannot have {} floats",
                     name, this->name(), count);
  if (count % input.width != 0)
    return makeError(kInvalid,
                     "input '{}' of model '{}' has width {}, so its size "
                     "must be a multiple of {}, not {}",
                     name, this->name(), input.width, input.width, count);
  inputs_[index].values.assign(data, data + count);
  inputs_[index].isSet = true;
  if (backwardBlocker_.empty())
    backwardBlocker_ =
        fmt::format("input '{}' changed after the last forward pass", name);
  return Status();
}

Status ModelInstance::output(std::string_view name, const float *&data,
                             int64_t &width) const {
  const int32_t index = interface_.findOutput(name);
  if (index < 0)
    return makeError(kInvalid, "model '{}' has no output '{}'", this->name(),
                     excerpt(name));
  if (!hasOutputs_)
    return makeError(kInvalid,
                     "output '{}' of model '{}' is not available: no forward "
                     "pass has run yet, or the last one failed",
                     name, this->name());
  const Output &output = outputs_[index];
  if (!output.written)
    return makeError(kInvalid,
                     "output '{}' of model '{}' was disabled for the last "
                     "forward pass (cavs_model_set_output_enabled)",
                     name, this->name());
  width = interface_.outputs[index].width;
  return hostView(output.values, numVertices_ * width, output.hostValues,
                  data);
}

Status ModelInstance::setOutputEnabled(std::string_view name, bool enabled) {
  const int32_t index = interface_.findOutput(name);
  if (index < 0)
    return makeError(kInvalid, "model '{}' has no output '{}'", this->name(),
                     excerpt(name));
  outputs_[index].enabled = enabled;
  return Status();
}

Status ModelInstance::setOutputGrad(std::string_view name, const float *data,
                                    int64_t count) {
  const int32_t index = interface_.findOutput(name);
  if (index < 0)
    return makeError(kInvalid, "model '{}' has no output '{}'", this->name(),
                     excerpt(name));
  if (!backwardBlocker_.empty())
    return makeError(kInvalid,
                     "cannot set the gradient of output '{}' of model '{}': "
                     "{}",
                     name, this->name(), backwardBlocker_);
  const int64_t width = interface_.outputs[index].width;
  if (count != numVertices_ * width)
    return makeError(kInvalid,
                     "the gradient of output '{}' of model '{}' needs {} "
                     "floats ({} vertices of width {}), not {}",
                     name, this->name(), numVertices_ * width, numVertices_,
                     width, count);
  Output &output = outputs_[index];
  output.grad.assign(data, count * int64_t(sizeof(float)));
  output.hasGrad = true;
  return Status();
}

Status ModelInstance::inputGrad(std::string_view name, const float *&data,
                                int64_t &width) const {
  const int32_t index = interface_.findInput(name);
  if (index < 0)
    return makeError(kInvalid, "model '{}' has no input '{}'", this->name(),
                     excerpt(name));
  if (interface_.inputs[index].isI32)
    return makeError(kInvalid,
                     "input '{}' of model '{}' is i32 and has no gradient",
                     name, this->name());
  if (!hasInputGrads_)
    return makeError(kInvalid,
                     "the gradient of input '{}' of model '{}' is not "
                     "available: backward has not succeeded since the last "
                     "forward pass",
                     name, this->name());
  width = interface_.inputs[index].width;
  const Input &input = inputs_[index];
  return hostView(input.grad, numVertices_ * width, input.hostGrad, data);
}

void ModelInstance::setGradientListener(GradientListener *listener,
                                        bool keepDenseOnDevice) {
  gradientListener_ = listener;
  keepDenseOnDevice_ = listener && keepDenseOnDevice && device_;
}

Status ModelInstance::step(Optimizer &optimizer) {
  // From the model's side: the caller passed the optimizer (the store's
  // check below would blame the store).
  CAVS_RETURN_IF_ERROR(requireSameModel(params_->impl.layout(),
                                        optimizer.layout(), "the optimizer"));
  Stopwatch watch;
  const uint64_t generation = params_->impl.generation();
  CAVS_RETURN_IF_ERROR(optimizer.step(params_->impl, grads_->impl));
  if (device_)
    uploadStep(generation);
  grads_->impl.zero();
  timing_.optimizer = watch.seconds();
  return Status();
}

} // namespace cavs::runtime
