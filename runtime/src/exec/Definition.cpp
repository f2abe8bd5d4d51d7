//===- Definition.cpp - checking a generated model definition -------------===//
//
// A definition comes from generated code, but a mismatched or hand-made one
// must fail with a message rather than crash, so every count, pointer and
// size the executor relies on is checked once, at instance creation.
//
//===----------------------------------------------------------------------===//
#include "exec/Definition.h"

#include <algorithm>
#include <cstring>

namespace cavs::runtime {

namespace {

constexpr cavs_status kInvalid = CAVS_ERROR_INVALID_ARGUMENT;

/// The largest per-vertex float count (state width, arena and scratch
/// rows), so that sizes times vertex counts fit in int64.
constexpr int64_t kMaxFloats = CAVS_MAX_VERTEX_FLOATS;

/// "i32" or "f32[3]".
std::string typeName(bool isI32, int32_t width) {
  return isI32 ? "i32" : fmt::format("f32[{}]", width);
}

/// "'x' (f32[3])".
std::string describe(const cavs_io_desc &io) {
  return fmt::format("'{}' ({})", io.name, typeName(io.is_i32, io.width));
}

Status checkFloats(const std::string &model, std::string_view what,
                   int64_t value) {
  if (value >= 0 && value <= kMaxFloats)
    return Status();
  return makeError(kInvalid, "model '{}': {} is {}; it must be in [0, {}]",
                   model, what, value, kMaxFloats);
}

Status checkSparseParams(const cavs_model_def &def, const ModelLayout &layout) {
  const std::string &model = layout.name();
  if (def.num_sparse_params < 0 ||
      (def.num_sparse_params > 0 && !def.sparse_params))
    return makeError(kInvalid,
                     "model '{}': {} sparse parameters with a NULL index array",
                     model, def.num_sparse_params);
  for (int32_t i = 0; i < def.num_sparse_params; ++i) {
    const int32_t param = def.sparse_params[i];
    if (param < 0 || param >= layout.numParams())
      return makeError(kInvalid,
                       "model '{}': sparse parameter {} is out of range; the "
                       "model has {} parameters",
                       model, param, layout.numParams());
    if (layout.param(param).rank != 2)
      return makeError(kInvalid,
                       "model '{}': sparse parameter '{}' is a vector; only "
                       "matrices (lookup tables) have rows to track",
                       model, layout.param(param).name);
  }
  return Status();
}

/// Checks the pulls (`isPush` false) or pushes of function `fn`.
Status checkIoList(const std::string &model, const cavs_function_desc &fn,
                   bool isPush) {
  const char *kind = isPush ? "push" : "pull";
  const int32_t count = isPush ? fn.num_pushes : fn.num_pulls;
  const cavs_io_desc *list = isPush ? fn.pushes : fn.pulls;
  const char *array = isPush ? "pushes" : "pulls";
  if (count < 0)
    return makeError(kInvalid,
                     "model '{}', vertex function '{}': num_{} is {}; it "
                     "must not be negative",
                     model, fn.name, array, count);
  if (count > 0 && !list)
    return makeError(kInvalid,
                     "model '{}', vertex function '{}': num_{} is {} but {} "
                     "is NULL",
                     model, fn.name, array, count, array);
  for (int32_t i = 0; i < count; ++i) {
    const cavs_io_desc &io = list[i];
    if (!io.name || !*io.name)
      return makeError(kInvalid,
                       "model '{}', vertex function '{}': {} {} has "
                       "no name",
                       model, fn.name, kind, i);
    if (io.is_i32 != 0 && (isPush || io.is_i32 != 1))
      return makeError(kInvalid,
                       "model '{}', vertex function '{}': {} '{}' has is_i32 "
                       "= {}; {}",
                       model, fn.name, kind, io.name, io.is_i32,
                       isPush ? "pushed values are f32" : "it must be 0 or 1");
    if (io.width < 1 || (io.is_i32 && io.width != 1))
      return makeError(kInvalid,
                       "model '{}', vertex function '{}': {} '{}' has width "
                       "{}; it must be {}",
                       model, fn.name, kind, io.name, io.width,
                       io.is_i32 ? "1 for an i32 value" : "at least 1");
    if (io.limit < 0 || (io.limit != 0 && !io.is_i32))
      return makeError(kInvalid,
                       "model '{}', vertex function '{}': {} '{}' has limit "
                       "{}; it must be {}",
                       model, fn.name, kind, io.name, io.limit,
                       io.is_i32 ? "at least 0" : "0 for an f32 value");
    for (int32_t j = 0; j < i; ++j)
      if (std::strcmp(list[j].name, io.name) == 0)
        return makeError(kInvalid,
                         "model '{}', vertex function '{}': {} '{}' twice",
                         model, fn.name, array, io.name);
  }
  return Status();
}

/// Each phase's gradient list: parameter indices, ascending, in range (the
/// distributed trainer indexes by them).
Status checkGradParams(const std::string &model, const cavs_function_desc &fn,
                       int32_t numParams) {
  for (int phase = 0; phase < CAVS_NUM_PHASES; ++phase) {
    const int32_t count = fn.num_grad_params[phase];
    const int32_t *params = fn.grad_params[phase];
    if (count < 0 || count > numParams || (count > 0 && !params))
      return makeError(kInvalid,
                       "model '{}', vertex function '{}': phase {} lists {} "
                       "parameter gradients{}",
                       model, fn.name, phase, count,
                       count > 0 ? " in a NULL array" : "");
    for (int32_t i = 0; i < count; ++i)
      if (params[i] < 0 || params[i] >= numParams ||
          (i > 0 && params[i] <= params[i - 1]))
        return makeError(kInvalid,
                         "model '{}', vertex function '{}': phase {} lists "
                         "parameter {} at {}; the list must ascend within "
                         "[0, {})",
                         model, fn.name, phase, params[i], i, numParams);
  }
  return Status();
}

Status checkFunction(const std::string &model, const char *program,
                     int32_t index, const cavs_function_desc &fn,
                     int32_t numParams) {
  if (!fn.name || !*fn.name)
    return makeError(kInvalid,
                     "model '{}': vertex function {} of the {} program has "
                     "no name",
                     model, index, program);
  if (fn.arity < 0 || fn.arity > CAVS_MAX_ARITY)
    return makeError(kInvalid,
                     "model '{}', vertex function '{}': arity {} is outside "
                     "[0, {}]",
                     model, fn.name, fn.arity, CAVS_MAX_ARITY);
  const std::string prefix = fmt::format("vertex function '{}'", fn.name);
  CAVS_RETURN_IF_ERROR(
      checkFloats(model, prefix + ": arena_floats", fn.arena_floats));
  CAVS_RETURN_IF_ERROR(
      checkFloats(model, prefix + ": scratch_floats", fn.scratch_floats));
  CAVS_RETURN_IF_ERROR(checkIoList(model, fn, /*isPush=*/false));
  CAVS_RETURN_IF_ERROR(checkIoList(model, fn, /*isPush=*/true));
  return checkGradParams(model, fn, numParams);
}

Status checkProgram(const std::string &model, const char *name,
                    const cavs_program_desc &program, int32_t numParams) {
  if (program.num_functions < 1)
    return makeError(kInvalid,
                     "model '{}': the {} program has {} vertex functions; it "
                     "needs at least 1",
                     model, name, program.num_functions);
  if (!program.functions)
    return makeError(kInvalid,
                     "model '{}': the function array of the {} program is "
                     "NULL",
                     model, name);
  for (int32_t f = 0; f < program.num_functions; ++f)
    CAVS_RETURN_IF_ERROR(
        checkFunction(model, name, f, program.functions[f], numParams));
  return Status();
}

bool sameIo(const cavs_io_desc &a, const cavs_io_desc &b) {
  return std::strcmp(a.name, b.name) == 0 && a.is_i32 == b.is_i32 &&
         a.width == b.width;
}

/// Function `f` of both programs must have the same interface.
Status checkSameInterface(const std::string &model, int32_t f,
                          const cavs_function_desc &train,
                          const cavs_function_desc &infer) {
  if (std::strcmp(train.name, infer.name) != 0)
    return makeError(kInvalid,
                     "model '{}': vertex function {} is '{}' in the train "
                     "program but '{}' in the infer program",
                     model, f, train.name, infer.name);
  const std::string where =
      fmt::format("model '{}', vertex function '{}'", model, train.name);
  if (train.arity != infer.arity)
    return makeError(kInvalid,
                     "{}: arity {} in the train program but {} in the infer "
                     "program",
                     where, train.arity, infer.arity);
  for (bool isPush : {false, true}) {
    const char *kind = isPush ? "push" : "pull";
    const int32_t count = isPush ? train.num_pushes : train.num_pulls;
    const int32_t inferCount = isPush ? infer.num_pushes : infer.num_pulls;
    if (count != inferCount)
      return makeError(kInvalid,
                       "{}: num_{} is {} in the train program but {} in the "
                       "infer program",
                       where, isPush ? "pushes" : "pulls", count, inferCount);
    for (int32_t i = 0; i < count; ++i) {
      const cavs_io_desc &a = isPush ? train.pushes[i] : train.pulls[i];
      const cavs_io_desc &b = isPush ? infer.pushes[i] : infer.pulls[i];
      if (!sameIo(a, b))
        return makeError(kInvalid,
                         "{}: {} {} is {} in the train program but {} in the "
                         "infer program",
                         where, kind, i, describe(a), describe(b));
    }
  }
  return Status();
}

/// Adds the pulls or pushes of function `f` to `tensors` (whose entries
/// were first used by `users`), recording their indices in `indices`.
Status mergeIo(const std::string &model, const cavs_program_desc &program,
               int32_t f, bool isPush, std::vector<ExternalTensor> &tensors,
               std::vector<int32_t> &users, std::vector<int32_t> &indices) {
  const cavs_function_desc &fn = program.functions[f];
  const int32_t count = isPush ? fn.num_pushes : fn.num_pulls;
  for (int32_t i = 0; i < count; ++i) {
    const cavs_io_desc &io = isPush ? fn.pushes[i] : fn.pulls[i];
    auto it = std::find_if(
        tensors.begin(), tensors.end(),
        [&](const ExternalTensor &t) { return t.name == io.name; });
    if (it == tensors.end()) {
      indices.push_back(static_cast<int32_t>(tensors.size()));
      tensors.push_back({io.name, io.is_i32 != 0, io.width});
      users.push_back(f);
      continue;
    }
    const int32_t index = static_cast<int32_t>(it - tensors.begin());
    if (it->isI32 != (io.is_i32 != 0) || it->width != io.width)
      return makeError(kInvalid,
                       "model '{}': vertex functions '{}' and '{}' {} '{}' "
                       "with different types ({} and {})",
                       model, program.functions[users[index]].name, fn.name,
                       isPush ? "push" : "pull", io.name,
                       typeName(it->isI32, it->width),
                       typeName(io.is_i32, io.width));
    indices.push_back(index);
  }
  return Status();
}

Status buildInterface(const std::string &model,
                      const cavs_program_desc &program, ModelInterface &out) {
  std::vector<int32_t> inputUsers, outputUsers;
  out.pullInputs.resize(program.num_functions);
  out.pushOutputs.resize(program.num_functions);
  for (int32_t f = 0; f < program.num_functions; ++f) {
    CAVS_RETURN_IF_ERROR(mergeIo(model, program, f, /*isPush=*/false,
                                 out.inputs, inputUsers, out.pullInputs[f]));
    CAVS_RETURN_IF_ERROR(mergeIo(model, program, f, /*isPush=*/true,
                                 out.outputs, outputUsers, out.pushOutputs[f]));
  }
  return Status();
}

int32_t findTensor(const std::vector<ExternalTensor> &tensors,
                   std::string_view name) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name)
      return static_cast<int32_t>(i);
  return -1;
}

} // namespace

int32_t ModelInterface::findInput(std::string_view name) const {
  return findTensor(inputs, name);
}

int32_t ModelInterface::findOutput(std::string_view name) const {
  return findTensor(outputs, name);
}

Status checkDefinition(const cavs_model_def &def, const ModelLayout &layout,
                       ModelInterface &out) {
  const std::string &model = layout.name();
  CAVS_RETURN_IF_ERROR(checkFloats(model, "the state width", def.state_width));
  CAVS_RETURN_IF_ERROR(checkSparseParams(def, layout));
  CAVS_RETURN_IF_ERROR(
      checkProgram(model, "train", def.train, layout.numParams()));
  CAVS_RETURN_IF_ERROR(
      checkProgram(model, "infer", def.infer, layout.numParams()));
  if (def.train.num_functions != def.infer.num_functions)
    return makeError(kInvalid,
                     "model '{}': the train program has {} vertex functions "
                     "but the infer program has {}",
                     model, def.train.num_functions, def.infer.num_functions);
  for (int32_t f = 0; f < def.train.num_functions; ++f)
    CAVS_RETURN_IF_ERROR(checkSameInterface(model, f, def.train.functions[f],
                                            def.infer.functions[f]));
  ModelInterface interface;
  CAVS_RETURN_IF_ERROR(buildInterface(model, def.train, interface));
  out = std::move(interface);
  return Status();
}

} // namespace cavs::runtime
