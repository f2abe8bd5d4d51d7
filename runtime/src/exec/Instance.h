//===- Instance.h - the executor of compiled models -----------------------===//
//
// ModelInstance is the object behind cavs_model: a checked model definition
// with its parameter and gradient stores, and the buffers and pointer tables
// its phase functions run on. forward() schedules a batch and runs the
// F phases, eager over whole arenas and body task by task; backward() runs
// the ∂F phases, the body in reverse task order. See docs/runtime.md,
// "Execution". On a GPU the same passes run the library's CUDA phase
// functions on device buffers ("Devices" in docs/runtime.md).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_INSTANCE_H
#define CAVS_RUNTIME_EXEC_INSTANCE_H

#include "cavs/instance.h"
#include "exec/Buffers.h"
#include "exec/Definition.h"
#include "exec/RowSplit.h"
#include "graph/GraphBatch.h"
#include "ops/CpuDeviceOps.h"
#include "ops/TransposedOperands.h"
#include "optim/Optimizer.h"
#include "params/GradStore.h"
#include "params/ParamStore.h"
#include "schedule/Scheduler.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cavs::runtime {

/// Told when the parameter gradients of a backward pass become final, so
/// that the distributed trainer (dist/) can start summing them over the
/// ranks while the rest of the pass runs.
class GradientListener {
public:
  virtual ~GradientListener() = default;
  /// Backward phase `phase` of vertex function `function` has run (or had
  /// nothing to run); for the body phase, which interleaves the functions,
  /// once after all of it with `function` -1. `grads` is the flat buffer
  /// the phases add gradients to: the gradient store on a CPU, the device
  /// copy on a GPU (where queued work may still be writing it: queue work
  /// after it, do not read it). A failure fails the pass.
  virtual Status phaseDone(cavs_phase phase, int32_t function,
                           float *grads) = 0;
};

/// One instance of a compiled model; not thread-safe.
class ModelInstance {
public:
  /// An empty instance, only to be assigned by create().
  ModelInstance() = default;

  /// Validates `def` (which must outlive the instance) and makes `out` an
  /// instance of it on `device` with zeroed gradients and parameters
  /// initialised from `seed`; `out` is unchanged on failure.
  static Status create(const cavs_model_def &def, uint64_t seed,
                       const cavs_device_options &device, ModelInstance &out);

  /// The device the passes run on (CPU or CUDA, never AUTO).
  cavs_device_kind deviceKind() const {
    return device_ ? CAVS_DEVICE_CUDA : CAVS_DEVICE_CPU;
  }
  /// "cpu" or the GPU's description.
  const std::string &deviceName() const {
    static const std::string cpu = "cpu";
    return device_ ? device_->description() : cpu;
  }

  const cavs_model_def &definition() const { return *def_; }
  const std::string &name() const { return params_->impl.layout().name(); }
  cavs_param_store *params() { return params_.get(); }
  cavs_grad_store *grads() { return grads_.get(); }

  /// Copies the f32 input `name` for the next forward passes.
  Status setInput(std::string_view name, const float *data, int64_t count);
  /// Runs F over `batch`; `loss` receives the summed loss. A batch that does
  /// not fit the model is rejected before anything changes.
  Status forward(const GraphBatch &batch, cavs_mode mode, double &loss);
  /// The values and width of output `name` of the last forward pass.
  Status output(std::string_view name, const float *&data,
                int64_t &width) const;
  /// Whether the next forward passes write output `name`.
  Status setOutputEnabled(std::string_view name, bool enabled);
  /// Copies the gradient of output `name` for the pending backward pass.
  Status setOutputGrad(std::string_view name, const float *data, int64_t count);
  /// Runs ∂F for the last train-mode forward pass.
  Status backward();
  /// The gradient and width of f32 input `name` from the last backward.
  Status inputGrad(std::string_view name, const float *&data,
                   int64_t &width) const;
  /// One update of the parameters by `optimizer`, then zeroed gradients.
  Status step(Optimizer &optimizer);

  /// Sets (null: removes) the listener of the backward passes. With
  /// `keepDenseOnDevice` a GPU instance leaves the gradients of parameters
  /// that do not track rows on the device after a backward pass, for the
  /// listener to sum there; addDenseDeviceGradients() then adds them to the
  /// store.
  void setGradientListener(GradientListener *listener, bool keepDenseOnDevice);
  /// Adds the device gradients of the parameters that do not track rows to
  /// the store (blocking; a GPU instance with keepDenseOnDevice only).
  Status addDenseDeviceGradients();
  /// The buffer a backward pass would give its GradientListener, for a
  /// rank that runs no pass this step: the store on a CPU, the device copy
  /// zeroed on a GPU (a pass's gradients, not the store's, live there).
  float *gradientsWithoutPass();
  /// The GPU the passes run on, or null.
  DeviceBackend *device() { return device_.get(); }

  const cavs_model_timing &timing() const { return timing_; }
  const cavs_model_work &work() const { return work_; }
  int32_t numTasks() const {
    return static_cast<int32_t>(schedule_.tasks.size());
  }
  int32_t numLevels() const { return schedule_.numLevels; }
  void setSchedulePolicy(cavs_schedule_policy policy) { policy_ = policy; }
  int32_t numVertices() const { return numVertices_; }

private:
  /// The buffers of one distinct input name.
  struct Input {
    /// The last set_input copy (f32 inputs).
    std::vector<float> values;
    bool isSet = false;
    /// On a GPU: the values (or the i32 attribute) of the running batch.
    GrowBuffer staged;
    /// Its gradient from the last backward pass.
    GrowBuffer grad;
    /// On a GPU: `grad` copied back for inputGrad().
    mutable std::vector<float> hostGrad;
  };
  /// The buffers of one distinct output name.
  struct Output {
    GrowBuffer values;
    GrowBuffer grad;
    /// Whether set_output_grad provided `grad` since the last forward.
    bool hasGrad = false;
    /// Whether forward passes write `values` (set_output_enabled), and
    /// whether the last one did.
    bool enabled = true;
    bool written = false;
    /// On a GPU: `values` copied back for output().
    mutable std::vector<float> hostValues;
  };
  /// What the calls of one vertex function point at: its arena and the
  /// external tensors in its own pull and push order.
  struct FunctionState {
    GrowBuffer arena;
    std::vector<const float *> pulls;
    std::vector<float *> pullGrads;
    std::vector<float *> pushes;
    std::vector<const float *> pushGrads;
  };

  /// The parameters of `layout` in `data`, then its packs (the tables of
  /// cavs_call::params and ::grads).
  static std::vector<float *> tensorTable(const ModelLayout &layout,
                                          float *data);

  // Execute.cpp: the passes.
  Status checkBatch(const GraphBatch &batch) const;
  void prepareForward(const GraphBatch &batch,
                      const cavs_program_desc &program);
  void prepareBackward();
  /// The fields every call of `function` shares: its whole arena, the
  /// buffers and tables; the callers set the rows.
  cavs_call baseCall(int32_t function, bool backward);
  /// The scope of a pass, in which the parameters do not change: on the
  /// CPU, forward products multiply by transposed copies of them (an empty
  /// scope on a device).
  cpu::StableOperandScope stableParams() const;
  Status runWholeTypes(const cavs_program_desc &program, cavs_phase phase,
                       double &seconds);
  Status runTasks(const cavs_program_desc &program, cavs_phase phase,
                  double &seconds);
  /// Adds the compiler's per-vertex counts of `phases` of `program` times
  /// the vertices of each type of the last schedule.
  void addWork(const cavs_program_desc &program, int first, double &flops);
  Status phaseFailed(cavs_status status, const cavs_function_desc &function,
                     cavs_phase phase) const;
  /// Phase `phase` of function `f` of `program` for this instance's device.
  cavs_phase_fn phaseOf(const cavs_program_desc &program, int32_t f,
                        cavs_phase phase) const;
  /// Runs one phase call, between the device's phase hooks on a GPU.
  cavs_status runPhase(cavs_phase_fn fn, cavs_call &call, cavs_phase phase,
                       int32_t function);
  /// Tells the gradient listener, if any, that a backward phase is done.
  Status notifyPhaseDone(cavs_phase phase, int32_t function);

  // Device.cpp: what a GPU instance adds to the passes.
  Status openDevice(const cavs_device_options &device);
  /// Uploads the batch's inputs, the schedule's index arrays and (when
  /// they changed) the parameters; zeroes the loss.
  void stageForward(const GraphBatch &batch);
  /// Waits for a forward pass and reads its loss back.
  Status finishForward();
  /// Waits for a backward pass, marks the touched rows and adds the device
  /// gradients to the gradient store.
  Status finishBackward();
  /// After a step from parameters at generation `generationBefore`, before
  /// the gradients are zeroed: uploads what the step updated (the
  /// gradients' active ranges) when the device copy was current before it.
  void uploadStep(uint64_t generationBefore);
  /// The `rows` of a device `table` of `width` columns, packed on the
  /// device into devicePacked_ (queued; returns its device pointer).
  const float *packRows(const float *table, const std::vector<int32_t> &rows,
                        int64_t width);
  /// `buffer`'s first `count` floats readable on the host: the buffer
  /// itself on the CPU, a copy in `mirror` on a GPU.
  Status hostView(const GrowBuffer &buffer, int64_t count,
                  std::vector<float> &mirror, const float *&data) const;

  /// The GPU, or null on the CPU; declared before every buffer, which may
  /// hold its memory.
  std::unique_ptr<DeviceBackend> device_;
  /// cavs_call::device: the op table of device_, or the CPU's.
  cavs_device_ops *ops_ = cpuDeviceOps();
  const cavs_model_def *def_ = nullptr;
  ModelInterface interface_;
  std::unique_ptr<cavs_param_store> params_;
  std::unique_ptr<cavs_grad_store> grads_;
  /// cavs_call::params and ::grads: the parameters, then the packs (of the
  /// stores, or of their device copies on a GPU).
  std::vector<float *> paramTable_, gradTable_;
  std::vector<Input> inputs_;
  std::vector<Output> outputs_;
  std::vector<FunctionState> functions_;

  // The last forward pass.
  Schedule schedule_;
  cavs_schedule_policy policy_ = CAVS_SCHEDULE_LEVELS;
  /// typeVertices_[typeRowOffsets[t] + l]: the vertex of local row l of t.
  std::vector<int32_t> typeVertices_;
  GrowBuffer scratch_, state_, stateGrad_;
  /// cavs_call::children and ::vertices of the last schedule: its arrays,
  /// or their device copies.
  const int32_t *children_ = nullptr;
  const int32_t *vertices_ = nullptr;
  /// Whether a vertex of the last batch has two parents: backward bodies
  /// are then not split by rows (exec/RowSplit.h).
  bool sharedChildren_ = false;
  RowSplitBuffers rowSplit_;
  /// Where cavs_call::loss points: &loss_ and &discardedLoss_ on the CPU.
  double *forwardLoss_ = nullptr;
  double *backwardLoss_ = nullptr;

  // GPU only: device copies of parameters and gradients (the stores stay
  // the reference: checkpoints and optimizers use them), the schedule's
  // arrays and the two losses.
  GrowBuffer deviceParams_, deviceGrads_, deviceSchedule_, deviceLoss_;
  /// Touched rows of a table and the rows themselves, packed.
  GrowBuffer deviceRowIndex_, devicePacked_;
  /// The parameter store's generation deviceParams_ holds.
  uint64_t uploadedGeneration_ = 0;
  GradientListener *gradientListener_ = nullptr;
  bool keepDenseOnDevice_ = false;
  /// Host staging of dense spans and packed rows, both ways.
  std::vector<float> hostStaging_;
  int32_t numVertices_ = 0;
  double loss_ = 0;
  /// Where backward calls point cavs_call::loss.
  double discardedLoss_ = 0;
  bool hasOutputs_ = false;
  bool hasInputGrads_ = false;
  /// Why backward cannot run now; empty when it can.
  std::string backwardBlocker_ = "no forward pass has run yet";
  /// The parameters' generation when the last forward pass ended: backward
  /// needs the same.
  uint64_t forwardParamsGeneration_ = 0;
  cavs_model_timing timing_{};
  cavs_model_work work_{};
};

} // namespace cavs::runtime

/// The opaque C handle: this object, which the C ABI (api/) unwraps.
struct cavs_model {
  cavs::runtime::ModelInstance impl;
};

#endif // CAVS_RUNTIME_EXEC_INSTANCE_H
