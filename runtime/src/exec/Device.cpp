//===- Device.cpp - what a GPU instance adds to the passes ----------------===//
//
// A GPU instance runs the same passes as a CPU one on device buffers. The
// parameter and gradient stores stay in host memory as the reference copy,
// so optimizers, checkpoints and the distributed trainer work unchanged:
// parameters are uploaded before a forward pass whenever the store's
// generation moved (a checkpoint load, a write through the API); a step
// uploads only what it updated. Each backward pass accumulates into zeroed
// device gradients, which are then added to the store and its touched rows
// marked. Only what may have changed crosses the bus: dense parameters as a
// few large copies, and of an embedding table only its touched rows, packed
// on the device (the op table's gather_rows and scatter_rows).
//
//===----------------------------------------------------------------------===//
#include "exec/Instance.h"

#include <algorithm>

namespace cavs::runtime {

namespace {

/// Ranges closer than this many floats are copied as one span: a copy
/// costs microseconds of latency, a few KiB more cost less.
constexpr int64_t kSpanGap = 16384;

/// The parameters that do not track rows, as copy spans: in offset order,
/// neighbours less than kSpanGap apart merged, never across a table that
/// tracks rows (its touched rows are copied on their own: a span over it
/// added its gradient twice).
std::vector<ElementRange> denseSpans(const GradStore &grads) {
  const ModelLayout &layout = grads.layout();
  std::vector<ElementRange> spans;
  bool tableSinceSpan = true;
  for (int32_t p : layout.storageOrder()) {
    if (grads.tracksRows(p)) {
      tableSinceSpan = true;
      continue;
    }
    const ElementRange range{layout.param(p).offset,
                             layout.param(p).offset + layout.param(p).size};
    if (!tableSinceSpan && range.begin - spans.back().end < kSpanGap)
      spans.back().end = std::max(spans.back().end, range.end);
    else
      spans.push_back(range);
    tableSinceSpan = false;
  }
  return spans;
}

/// A table that tracks rows, with rows touched since the last zeroing.
struct TouchedTable {
  /// Its first element in the flat buffers.
  int64_t offset;
  int64_t width;
  const std::vector<int32_t> &rows;
};

/// Calls `fn(TouchedTable)` for every such table of `grads`, stopping at the
/// first failure.
template <typename Fn> Status forEachTouchedTable(const GradStore &grads, Fn fn) {
  const ModelLayout &layout = grads.layout();
  for (int32_t p = 0; p < layout.numParams(); ++p)
    if (grads.tracksRows(p) && !grads.touchedRows(p).empty())
      CAVS_RETURN_IF_ERROR(fn(TouchedTable{layout.param(p).offset,
                                           layout.param(p).shape[1],
                                           grads.touchedRows(p)}));
  return Status();
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
  ops_ = device->ops();
  for (GrowBuffer *buffer :
       {&scratch_, &state_, &stateGrad_, &deviceParams_, &deviceGrads_,
        &deviceSchedule_, &deviceLoss_, &deviceRowIndex_, &devicePacked_})
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
  // The phases see the device copies.
  paramTable_ = tensorTable(layout, deviceParams_.reserve(layout.size()));
  gradTable_ = tensorTable(layout, deviceGrads_.reserve(layout.size()));
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
  if (!keepDenseOnDevice_)
    CAVS_RETURN_IF_ERROR(addDenseDeviceGradients());
  // Of a table, only the touched rows (marked above) can be nonzero.
  float *host = grads.data();
  return forEachTouchedTable(grads, [&](const TouchedTable &touched) {
    const int64_t width = touched.width;
    const float *packed = packRows(deviceGrads_.data() + touched.offset,
                                   touched.rows, width);
    hostStaging_.resize(touched.rows.size() * width);
    CAVS_RETURN_IF_ERROR(device_->download(
        hostStaging_.data(), packed,
        int64_t(hostStaging_.size()) * int64_t(sizeof(float))));
    float *table = host + touched.offset;
    for (size_t r = 0; r < touched.rows.size(); ++r)
      for (int64_t c = 0; c < width; ++c)
        table[touched.rows[r] * width + c] += hostStaging_[r * width + c];
    return Status();
  });
}

Status ModelInstance::addDenseDeviceGradients() {
  GradStore &grads = grads_->impl;
  float *host = grads.data();
  for (const ElementRange &span : denseSpans(grads)) {
    const int64_t count = span.end - span.begin;
    hostStaging_.resize(count);
    CAVS_RETURN_IF_ERROR(device_->download(hostStaging_.data(),
                                           deviceGrads_.data() + span.begin,
                                           count * int64_t(sizeof(float))));
    for (int64_t i = 0; i < count; ++i)
      host[span.begin + i] += hostStaging_[i];
  }
  return Status();
}

float *ModelInstance::gradientsWithoutPass() {
  if (!device_)
    return grads_->impl.data();
  deviceGrads_.reserveZeroed(params_->impl.layout().size());
  return deviceGrads_.data();
}

const float *ModelInstance::packRows(const float *table,
                                     const std::vector<int32_t> &rows,
                                     int64_t width) {
  const int64_t count = int64_t(rows.size());
  auto *index = reinterpret_cast<const int32_t *>(
      deviceRowIndex_.assign(rows.data(), count * int64_t(sizeof(int32_t))));
  float *packed = devicePacked_.reserve(count * width);
  cavs_device_ops *ops = device_->ops();
  ops->gather_rows(ops, count, index, table, width, packed, width);
  return packed;
}

void ModelInstance::uploadStep(uint64_t generationBefore) {
  // Anything else that changed the store since the last upload (an API
  // write, a checkpoint load) needs the full upload of the next forward.
  if (uploadedGeneration_ != generationBefore)
    return;
  const ParamStore &params = params_->impl;
  const GradStore &grads = grads_->impl;
  for (const ElementRange &span : denseSpans(grads))
    device_->upload(deviceParams_.data() + span.begin,
                    params.data() + span.begin,
                    (span.end - span.begin) * int64_t(sizeof(float)));
  // A step updates only a table's touched rows: packed here, scattered
  // into place on the device.
  (void)forEachTouchedTable(grads, [&](const TouchedTable &touched) {
    const int64_t width = touched.width;
    const int64_t count = int64_t(touched.rows.size());
    const float *table = params.data() + touched.offset;
    hostStaging_.resize(count * width);
    for (int64_t r = 0; r < count; ++r)
      std::copy_n(table + touched.rows[r] * width, width,
                  hostStaging_.data() + r * width);
    auto *index = reinterpret_cast<const int32_t *>(deviceRowIndex_.assign(
        touched.rows.data(), count * int64_t(sizeof(int32_t))));
    const float *packed = devicePacked_.assign(
        hostStaging_.data(),
        int64_t(hostStaging_.size()) * int64_t(sizeof(float)));
    cavs_device_ops *ops = device_->ops();
    ops->scatter_rows(ops, count, index, packed, width,
                      deviceParams_.data() + touched.offset, width,
                      /*accumulate=*/0);
    return Status();
  });
  uploadedGeneration_ = params.generation();
}

Status ModelInstance::hostView(const GrowBuffer &buffer, int64_t count,
                               std::vector<float> &mirror,
                               const float *&data) const {
  if (!device_) {
    data = buffer.data();
    return Status();
  }
  mirror.resize(count);
  CAVS_RETURN_IF_ERROR(device_->download(mirror.data(), buffer.data(),
                                         count * int64_t(sizeof(float))));
  data = mirror.data();
  return Status();
}

} // namespace cavs::runtime
