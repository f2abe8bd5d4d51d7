//===- Execute.cpp - the forward and backward passes ----------------------===//
//
// A forward pass checks the batch against the model, schedules it, lays out
// the buffers (arenas by local row, state by global row, outputs by vertex
// id) and calls the F phases: eager once per vertex function over its whole
// arena, body task by task, lazy once per function. The backward pass calls
// the ∂F phases the same way with the body tasks reversed. Buffers only
// grow; outputs and gradients are zeroed per pass, arenas, scratch and
// state are written by the phases before they are read.
//
//===----------------------------------------------------------------------===//
#include "exec/Instance.h"

#include "exec/InputIds.h"
#include "exec/RowSplit.h"
#include "exec/Stopwatch.h"

#include <algorithm>
#include <cstddef>

// Generated code addresses field i of cavs_call at byte offset 8 * i
// (cavs/call.def; test/Conversion/RuntimeAbiTest.cpp checks the offsets).
#define CAVS_CALL_FIELD(type, name)                                            \
  static_assert(sizeof(cavs_call::name) == 8,                                  \
                "cavs_call::" #name " must be 8 bytes wide");
#include "cavs/call.def"

namespace cavs::runtime {

namespace {

constexpr cavs_status kInvalid = CAVS_ERROR_INVALID_ARGUMENT;

const char *phaseName(cavs_phase phase) {
  static const char *const names[CAVS_NUM_PHASES] = {
      "forward eager",  "forward body",  "forward lazy",
      "backward eager", "backward body", "backward lazy"};
  return names[phase];
}

bool isBackward(cavs_phase phase) { return phase >= CAVS_PHASE_BACKWARD_EAGER; }

} // namespace

Status ModelInstance::checkBatch(const GraphBatch &batch) const {
  const cavs_program_desc &program = def_->train;
  if (batch.numTypes() != program.num_functions)
    return makeError(kInvalid,
                     "the batch has {} vertex types but model '{}' has {} "
                     "vertex functions",
                     batch.numTypes(), name(), program.num_functions);
  for (int32_t t = 0; t < program.num_functions; ++t)
    if (batch.arities[t] != program.functions[t].arity)
      return makeError(kInvalid,
                       "vertex type {} has arity {} in the batch but vertex "
                       "function '{}' of model '{}' has arity {}",
                       t, batch.arities[t], program.functions[t].name, name(),
                       program.functions[t].arity);
  const int64_t n = batch.numVertices();
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const ExternalTensor &input = interface_.inputs[i];
    const int64_t size = static_cast<int64_t>(inputs_[i].values.size());
    if (input.isI32) {
      if (batch.findAttribute(input.name) < 0)
        return makeError(kInvalid,
                         "model '{}' reads input '{}' (i32) but the batch has "
                         "no attribute '{}'",
                         name(), input.name, input.name);
    } else if (!inputs_[i].isSet) {
      return makeError(kInvalid,
                       "model '{}' reads input '{}' (f32[{}]) but it has not "
                       "been set (cavs_model_set_input)",
                       name(), input.name, input.width);
    } else if (size != n * input.width) {
      return makeError(kInvalid,
                       "input '{}' of model '{}' holds {} floats but the "
                       "batch needs {} ({} vertices of width {})",
                       input.name, name(), size, n * input.width, n,
                       input.width);
    }
  }
  return Status();
}

void ModelInstance::prepareForward(const GraphBatch &batch,
                                   const cavs_program_desc &program) {
  schedule_ = buildSchedule(batch, policy_);
  numVertices_ = batch.numVertices();
  sharedChildren_ =
      std::any_of(batch.parentCounts.begin(), batch.parentCounts.end(),
                  [](int32_t parents) { return parents > 1; });
  const int64_t n = numVertices_;
  typeVertices_.resize(schedule_.typeRows.size());
  for (size_t i = 0; i < typeVertices_.size(); ++i)
    typeVertices_[i] = schedule_.rowVertices[schedule_.typeRows[i]];

  state_.reserve(n * def_->state_width);
  int64_t scratchFloats = 0;
  for (const cavs_task &task : schedule_.tasks)
    scratchFloats =
        std::max(scratchFloats,
                 task.count * program.functions[task.type].scratch_floats);
  scratch_.reserve(scratchFloats);
  // An output's rows are zeros where no function pushes it; where every
  // vertex's function does, the forward pass writes every row.
  auto everyVertexPushes = [&](int32_t output) {
    for (int32_t f = 0; f < program.num_functions; ++f) {
      const std::vector<int32_t> &pushes = interface_.pushOutputs[f];
      if (schedule_.typeRowOffsets[f + 1] > schedule_.typeRowOffsets[f] &&
          std::find(pushes.begin(), pushes.end(), output) == pushes.end())
        return false;
    }
    return true;
  };
  for (size_t o = 0; o < outputs_.size(); ++o) {
    Output &output = outputs_[o];
    output.written = output.enabled;
    if (!output.enabled)
      continue;
    const int64_t floats = n * interface_.outputs[o].width;
    if (everyVertexPushes(static_cast<int32_t>(o)))
      output.values.reserve(floats);
    else
      output.values.reserveZeroed(floats);
  }

  for (int32_t f = 0; f < program.num_functions; ++f) {
    const cavs_function_desc &fn = program.functions[f];
    FunctionState &state = functions_[f];
    const int64_t rows =
        schedule_.typeRowOffsets[f + 1] - schedule_.typeRowOffsets[f];
    state.arena.reserve(rows * fn.arena_floats);
    for (int32_t i = 0; i < fn.num_pulls; ++i) {
      const int32_t input = interface_.pullInputs[f][i];
      const ExternalTensor &tensor = interface_.inputs[input];
      // An i32 input is the attribute itself, its int32 bits in float slots.
      state.pulls[i] =
          tensor.isI32 ? reinterpret_cast<const float *>(
                             batch.attributes[batch.findAttribute(tensor.name)]
                                 .values.data())
                       : inputs_[input].values.data();
    }
    // A disabled output's push writes nothing (scatter_rows with no
    // destination).
    for (int32_t i = 0; i < fn.num_pushes; ++i) {
      Output &output = outputs_[interface_.pushOutputs[f][i]];
      state.pushes[i] = output.enabled ? output.values.data() : nullptr;
    }
  }
  if (device_)
    return stageForward(batch);
  children_ = schedule_.childrenRows.data();
  vertices_ = typeVertices_.data();
  forwardLoss_ = &loss_;
  backwardLoss_ = &discardedLoss_;
}

void ModelInstance::prepareBackward() {
  const int64_t n = numVertices_;
  stateGrad_.reserveZeroed(n * def_->state_width);
  // The pass's gradients are added to the store afterwards (Device.cpp).
  if (device_)
    deviceGrads_.reserveZeroed(params_->impl.layout().size());
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (!interface_.inputs[i].isI32)
      inputs_[i].grad.reserveZeroed(n * interface_.inputs[i].width);
  for (size_t f = 0; f < functions_.size(); ++f) {
    FunctionState &state = functions_[f];
    for (size_t i = 0; i < state.pullGrads.size(); ++i) {
      const int32_t input = interface_.pullInputs[f][i];
      state.pullGrads[i] =
          interface_.inputs[input].isI32 ? nullptr : inputs_[input].grad.data();
    }
    for (size_t i = 0; i < state.pushGrads.size(); ++i) {
      Output &output = outputs_[interface_.pushOutputs[f][i]];
      state.pushGrads[i] = output.hasGrad ? output.grad.data() : nullptr;
    }
  }
}

cpu::StableOperandScope ModelInstance::stableParams() const {
  const ParamStore &store = params_->impl;
  const float *begin = store.data();
  return device_ ? cpu::StableOperandScope(nullptr, nullptr)
                 : cpu::StableOperandScope(begin,
                                           begin + store.layout().size());
}

cavs_call ModelInstance::baseCall(int32_t function, bool backward) {
  FunctionState &state = functions_[function];
  cavs_call call{};
  // The whole arena of the function's type; a task's call moves arena_row.
  call.arena = state.arena.data();
  call.arena_rows = schedule_.typeRowOffsets[function + 1] -
                    schedule_.typeRowOffsets[function];
  call.state = state_.data();
  call.state_grad = backward ? stateGrad_.data() : nullptr;
  call.num_vertices = numVertices_;
  call.params = paramTable_.data();
  call.grads = gradTable_.data();
  call.grad_store = grads_.get();
  call.pulls = state.pulls.data();
  call.pull_grads = backward ? state.pullGrads.data() : nullptr;
  call.pushes = state.pushes.data();
  call.push_grads = backward ? state.pushGrads.data() : nullptr;
  call.loss = backward ? backwardLoss_ : forwardLoss_;
  call.device = ops_;
  return call;
}

cavs_phase_fn ModelInstance::phaseOf(const cavs_program_desc &program,
                                     int32_t f, cavs_phase phase) const {
  if (!device_)
    return program.functions[f].phases[phase];
  const cavs_phase_fn *phases = &program == &def_->train
                                    ? def_->cuda->train_phases
                                    : def_->cuda->infer_phases;
  return phases[f * CAVS_NUM_PHASES + phase];
}

cavs_status ModelInstance::runPhase(cavs_phase_fn fn, cavs_call &call,
                                    cavs_phase phase, int32_t function) {
  if (!device_)
    return fn(&call);
  device_->beginPhase(phase, function,
                      def_->train.functions[function].arity == 0);
  const cavs_status status = fn(&call);
  device_->endPhase(phase, function);
  return status;
}

Status ModelInstance::notifyPhaseDone(cavs_phase phase, int32_t function) {
  if (!gradientListener_ || !isBackward(phase))
    return Status();
  return gradientListener_->phaseDone(
      phase, function, device_ ? deviceGrads_.data() : grads_->impl.data());
}

Status ModelInstance::phaseFailed(cavs_status status,
                                  const cavs_function_desc &function,
                                  cavs_phase phase) const {
  // The op that failed has set the thread's last error message.
  return makeError(status, "model '{}', vertex function '{}', {} phase: {}",
                   name(), function.name, phaseName(phase),
                   cavs_last_error_message());
}

Status ModelInstance::runWholeTypes(const cavs_program_desc &program,
                                    cavs_phase phase, double &seconds) {
  Stopwatch watch;
  for (int32_t f = 0; f < program.num_functions; ++f) {
    const cavs_function_desc &fn = program.functions[f];
    const int32_t begin = schedule_.typeRowOffsets[f];
    const int32_t rows = schedule_.typeRowOffsets[f + 1] - begin;
    const cavs_phase_fn run = phaseOf(program, f, phase);
    if (run && rows > 0) {
      cavs_call call = baseCall(f, isBackward(phase));
      call.rows = rows;
      // Contiguous for the functions whose whole-type phases touch the
      // state (arity 0: one task at level 0); see cavs_call::state_begin.
      call.state_begin = schedule_.typeRows[begin];
      call.vertices = vertices_ + begin;
      if (cavs_status status = runPhase(run, call, phase, f);
          status != CAVS_OK)
        return phaseFailed(status, fn, phase);
    }
    // Also for a phase with nothing to run: every rank's trainer must see
    // the same points of the pass.
    CAVS_RETURN_IF_ERROR(notifyPhaseDone(phase, f));
  }
  seconds = watch.seconds();
  return Status();
}

Status ModelInstance::runTasks(const cavs_program_desc &program,
                               cavs_phase phase, double &seconds) {
  Stopwatch watch;
  const bool backward = isBackward(phase);
  const std::vector<cavs_task> &tasks = schedule_.tasks;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const cavs_task &task = tasks[backward ? tasks.size() - 1 - i : i];
    const cavs_function_desc &fn = program.functions[task.type];
    const cavs_phase_fn run = phaseOf(program, task.type, phase);
    if (!run)
      continue;
    cavs_call call = baseCall(task.type, backward);
    call.rows = task.count;
    call.arena_row = task.local_begin;
    call.scratch = scratch_.data();
    call.state_begin = task.global_begin;
    call.children = children_ + task.children_begin;
    call.child_views = schedule_.childViews.data() + task.views_begin;
    call.vertices =
        vertices_ + schedule_.typeRowOffsets[task.type] + task.local_begin;
    const int64_t parts =
        device_ ? 1 : rowSplitParts(fn, phase, task.count, sharedChildren_);
    const cavs_status status =
        parts > 1 ? runRowSplit(run, call, fn, parts, rowSplit_)
                  : runPhase(run, call, phase, task.type);
    if (status != CAVS_OK)
      return phaseFailed(status, fn, phase);
  }
  seconds = watch.seconds();
  return notifyPhaseDone(phase, -1);
}

void ModelInstance::addWork(const cavs_program_desc &program, int first,
                            double &flops) {
  for (int32_t t = 0; t < program.num_functions; ++t) {
    const cavs_function_desc &function = program.functions[t];
    const double vertices =
        schedule_.typeRowOffsets[t + 1] - schedule_.typeRowOffsets[t];
    for (int phase = first; phase < first + 3; ++phase) {
      flops += vertices * double(function.flops[phase]);
      work_.copy_bytes += vertices * double(function.copy_bytes[phase]);
    }
  }
}

Status ModelInstance::forward(const GraphBatch &batch, cavs_mode mode,
                              double &loss) {
  if (mode != CAVS_MODE_TRAIN && mode != CAVS_MODE_INFER)
    return makeError(kInvalid, "model '{}': unknown mode {}", name(),
                     static_cast<int>(mode));
  const cavs_program_desc &program =
      mode == CAVS_MODE_TRAIN ? def_->train : def_->infer;
  CAVS_RETURN_IF_ERROR(checkBatch(batch));
  CAVS_RETURN_IF_ERROR(checkInputIds(name(), batch, program));
  // From here on the previous pass is gone, whatever happens.
  hasOutputs_ = false;
  hasInputGrads_ = false;
  backwardBlocker_ = "the last forward pass failed";
  for (Output &output : outputs_)
    output.hasGrad = false;
  timing_ = cavs_model_timing{0, 0, 0, 0, 0, 0, 0, timing_.optimizer};

  const auto scope = stableParams();
  Stopwatch watch;
  prepareForward(batch, program);
  timing_.schedule = watch.seconds();
  work_ = cavs_model_work{};
  addWork(program, CAVS_PHASE_FORWARD_EAGER, work_.forward_flops);
  loss_ = 0;
  CAVS_RETURN_IF_ERROR(
      runWholeTypes(program, CAVS_PHASE_FORWARD_EAGER, timing_.forward_eager));
  CAVS_RETURN_IF_ERROR(
      runTasks(program, CAVS_PHASE_FORWARD_BODY, timing_.forward_body));
  CAVS_RETURN_IF_ERROR(
      runWholeTypes(program, CAVS_PHASE_FORWARD_LAZY, timing_.forward_lazy));
  if (device_) {
    // The phases only queued their work; the wait counts as lazy time.
    Stopwatch wait;
    CAVS_RETURN_IF_ERROR(finishForward());
    timing_.forward_lazy += wait.seconds();
  }
  loss = loss_;
  hasOutputs_ = true;
  backwardBlocker_ =
      mode == CAVS_MODE_TRAIN ? "" : "the last forward pass ran in infer mode";
  forwardParamsGeneration_ = params_->impl.generation();
  return Status();
}

Status ModelInstance::backward() {
  if (!backwardBlocker_.empty())
    return makeError(kInvalid, "model '{}': cannot run backward: {}", name(),
                     backwardBlocker_);
  // Backward reads F's values, computed with the parameters of the forward
  // pass: with others its gradients were neither theirs nor the new ones'.
  if (params_->impl.generation() != forwardParamsGeneration_)
    return makeError(kInvalid,
                     "model '{}': cannot run backward: the parameters changed "
                     "after the last forward pass (an optimizer step, a "
                     "checkpoint or word-vector load, or taking "
                     "cavs_param_store_data; cavs_param_store_values reads "
                     "them); run forward again",
                     name());
  backwardBlocker_ = "backward already ran for the last forward pass";
  prepareBackward();
  const auto scope = stableParams();
  const cavs_program_desc &program = def_->train;
  addWork(program, CAVS_PHASE_BACKWARD_EAGER, work_.backward_flops);
  CAVS_RETURN_IF_ERROR(runWholeTypes(program, CAVS_PHASE_BACKWARD_EAGER,
                                     timing_.backward_eager));
  CAVS_RETURN_IF_ERROR(
      runTasks(program, CAVS_PHASE_BACKWARD_BODY, timing_.backward_body));
  CAVS_RETURN_IF_ERROR(
      runWholeTypes(program, CAVS_PHASE_BACKWARD_LAZY, timing_.backward_lazy));
  if (device_) {
    Stopwatch wait;
    CAVS_RETURN_IF_ERROR(finishBackward());
    timing_.backward_lazy += wait.seconds();
  }
  hasInputGrads_ = true;
  return Status();
}

} // namespace cavs::runtime
