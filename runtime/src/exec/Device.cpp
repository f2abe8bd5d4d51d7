//===- Device.cpp - what a GPU instance adds to the passes ----------------===//
//
// A GPU instance runs the same passes as a CPU one on device buffers. The
// parameter and gradient stores stay in host memory as the reference copy,
// so optimizers, checkpoints and the distributed trainer work unchanged:
// parameters are uploaded before a forward pass whenever the store's
// generation moved (a checkpoint load, a write through the API); a step
// uploads only the ranges it updated. Each backward pass accumulates into
// zeroed device gradients, whose active ranges are then added to the store
// and its touched rows marked. Only those ranges cross the bus, merged into
// a few large copies.
//
//===----------------------------------------------------------------------===//
#include "exec/Instance.h"

#include <algorithm>

namespace cavs::runtime {

namespace {

/// Ranges closer than this many floats are copied as one span: a copy
/// costs microseconds of latency, a few KiB more cost less.
constexpr int64_t kSpanGap = 16384;

/// `ranges` sorted and merged into spans with gaps below kSpanGap.
std::vector<ElementRange> copySpans(std::vector<ElementRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const ElementRange &a, const ElementRange &b) {
              return a.begin < b.begin;
            });
  std::vector<ElementRange> spans;
  for (const ElementRange &range : ranges) {
    if (range.begin >= range.end)
      continue;
    if (!spans.empty() && range.begin - spans.back().end < kSpanGap)
      spans.back().end = std::max(spans.back().end, range.end);
    else
      spans.push_back(range);
  }
  return spans;
}

} // namespace

Status ModelInstance::openDevice(const cavs_device_options &options) {
  const cavs_model_def &def = *def_;
  if (!def.cuda)
    return makeError(CAVS_ERROR_UNSUPPORTED,
                     "model '{}' has no CUDA code; compile it with cavsc "
                     "--target=cuda or --target=cpu,cuda",
                     name());
  const cavs_cuda_desc &cuda = *def.cuda;
  if (!cuda.train_phases || !cuda.infer_phases || !cuda.cubin ||
      !cuda.ptx || cuda.num_kernels < 0 ||
      (cuda.num_kernels > 0 && !cuda.kernels))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "model '{}': its CUDA descriptor lacks phase tables, "
                     "kernels or their image",
                     name());
  CAVS_RETURN_IF_ERROR(openCudaDevice(*def.cuda, options.ordinal,
                                      options.allow_tf32 != 0, device_));
  DeviceBackend *device = device_.get();
  for (GrowBuffer *buffer :
       {&scratch_, &state_, &stateGrad_, &deviceParams_, &deviceGrads_,
        &deviceSchedule_, &deviceLoss_})
    *buffer = GrowBuffer(device);
  for (Input &input : inputs_) {
    input.staged = GrowBuffer(device);
    input.grad = GrowBuffer(device);
  }
  for (Output &output : outputs_) {
    output.values = GrowBuffer(device);
    output.grad = GrowBuffer(device);
  }
  for (FunctionState &function : functions_)
    function.arena = GrowBuffer(device);

  const ModelLayout &layout = params_->impl.layout();
  deviceParamTable_ = tensorTable(layout, deviceParams_.reserve(layout.size()));
  deviceGradTable_ = tensorTable(layout, deviceGrads_.reserve(layout.size()));
  // Two doubles: the forward loss and the backward passes' discarded one.
  deviceLoss_.reserve(2 * sizeof(double) / sizeof(float));
  uploadedGeneration_ = params_->impl.generation() - 1;
  return Status();
}

void ModelInstance::stageForward(const GraphBatch &batch) {
  const ParamStore &params = params_->impl;
  if (uploadedGeneration_ != params.generation()) {
    deviceParams_.assign(params.data(),
                         params.layout().size() * int64_t(sizeof(float)));
    uploadedGeneration_ = params.generation();
  }
  // One upload for both index arrays of the schedule.
  const std::vector<int32_t> &children = schedule_.childrenRows;
  std::vector<int32_t> indices(children.begin(), children.end());
  indices.insert(indices.end(), typeVertices_.begin(), typeVertices_.end());
  auto *staged = reinterpret_cast<int32_t *>(deviceSchedule_.assign(
      indices.data(), int64_t(indices.size() * sizeof(int32_t))));
  children_ = staged;
  vertices_ = staged + children.size();

  const int64_t n = batch.numVertices();
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const ExternalTensor &tensor = interface_.inputs[i];
    const void *host =
        tensor.isI32
            ? static_cast<const void *>(
                  batch.attributes[batch.findAttribute(tensor.name)]
                      .values.data())
            : inputs_[i].values.data();
    inputs_[i].staged.assign(host, n * tensor.width * int64_t(sizeof(float)));
  }
  for (size_t f = 0; f < functions_.size(); ++f)
    for (size_t i = 0; i < functions_[f].pulls.size(); ++i)
      functions_[f].pulls[i] =
          inputs_[interface_.pullInputs[f][i]].staged.data();
  device_->zero(deviceLoss_.data(), 2 * sizeof(double));
  forwardLoss_ = reinterpret_cast<double *>(deviceLoss_.data());
  backwardLoss_ = forwardLoss_ + 1;
}

Status ModelInstance::finishForward() {
  CAVS_RETURN_IF_ERROR(
      device_
          ->finishPass([](cavs_grad_store *, int32_t, const int32_t *,
                          int64_t) { return Status(); })
          .withPrefix(fmt::format("model '{}', forward pass on {}: ", name(),
                                  deviceName())));
  return device_->download(&loss_, forwardLoss_, sizeof(double));
}

Status ModelInstance::finishBackward() {
  GradStore &grads = grads_->impl;
  CAVS_RETURN_IF_ERROR(device_->finishPass(
      [&](cavs_grad_store *, int32_t param, const int32_t *rows,
          int64_t count) {
        // The device copies every index; negative ones look nothing up.
        std::vector<int32_t> marked;
        for (int64_t r = 0; r < count; ++r)
          if (rows[r] >= 0)
            marked.push_back(rows[r]);
        return grads.markRows(param, marked.data(), int64_t(marked.size()));
      }).withPrefix(fmt::format("model '{}', backward pass on {}: ", name(),
                                deviceName())));
  // Only the active ranges can be nonzero (touched rows are marked above).
  const std::vector<ElementRange> ranges = grads.activeRanges();
  gradsBack_.resize(grads.layout().size());
  for (const ElementRange &span : copySpans(ranges))
    CAVS_RETURN_IF_ERROR(device_->download(
        gradsBack_.data() + span.begin, deviceGrads_.data() + span.begin,
        (span.end - span.begin) * int64_t(sizeof(float))));
  float *host = grads.data();
  for (const ElementRange &range : ranges)
    for (int64_t i = range.begin; i < range.end; ++i)
      host[i] += gradsBack_[i];
  return Status();
}

void ModelInstance::uploadStep(const std::vector<ElementRange> &updated,
                               uint64_t generationBefore) {
  // Anything else that changed the store since the last upload (an API
  // write, a checkpoint load) needs the full upload of the next forward.
  if (uploadedGeneration_ != generationBefore)
    return;
  const ParamStore &params = params_->impl;
  for (const ElementRange &span : copySpans(updated))
    device_->upload(deviceParams_.data() + span.begin,
                    params.data() + span.begin,
                    (span.end - span.begin) * int64_t(sizeof(float)));
  uploadedGeneration_ = params.generation();
}

Status ModelInstance::copyBack(const GrowBuffer &buffer, int64_t count,
                               std::vector<float> &host) const {
  host.resize(count);
  return device_->download(host.data(), buffer.data(),
                           count * int64_t(sizeof(float)));
}

} // namespace cavs::runtime
