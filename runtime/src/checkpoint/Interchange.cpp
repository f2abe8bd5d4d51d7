//===- Interchange.cpp - parameters to and from safetensors files ---------===//
//
// A parameter is the F32 tensor of its name, shaped [size] or [rows,
// columns] as the model declares it. Reading validates the whole file (see
// safetensors::parseFile), then matches it against the model, and copies
// only when everything matched, so a failure changes nothing. The file-level
// conversions go through the checkpoint parser, and a checkpoint's model is
// rebuilt from its records (names, shapes, signature), so neither needs the
// model library.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Interchange.h"

#include "checkpoint/Checkpoint.h"
#include "checkpoint/Parse.h"
#include "checkpoint/Safetensors.h"
#include "support/Excerpt.h"
#include "support/ReadFile.h"

#include <cstring>
#include <filesystem>
#include <unordered_map>

namespace cavs::runtime {

namespace {

std::vector<uint64_t> dimsOf(int32_t rank, const int64_t *shape) {
  return std::vector<uint64_t>(shape, shape + rank);
}

/// For each parameter of `layout`, where its values are in `file`. A
/// failure names the first problem; the caller prefixes the file.
Status matchTensors(const ModelLayout &layout,
                    const safetensors::Contents &file,
                    std::vector<const unsigned char *> &data) {
  // The header's keys are unique, so each parameter has at most one tensor.
  std::unordered_map<std::string_view, const safetensors::TensorEntry *> byName;
  for (const safetensors::TensorEntry &tensor : file.header.tensors) {
    if (layout.findParam(tensor.name) < 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "tensor '{}' is not a parameter of model '{}'",
                       excerpt(tensor.name), layout.name());
    byName.emplace(tensor.name, &tensor);
  }
  data.clear();
  for (int32_t i = 0; i < layout.numParams(); ++i) {
    const cavs_param_info &info = layout.param(i);
    const auto found = byName.find(info.name);
    if (found == byName.end())
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter '{}' of model '{}' is missing", info.name,
                       layout.name());
    const safetensors::TensorEntry &tensor = *found->second;
    if (tensor.dtype != "F32")
      return makeError(CAVS_ERROR_UNSUPPORTED,
                       "parameter '{}' has dtype {}; parameters are read "
                       "as F32 only",
                       info.name, tensor.dtype);
    const std::vector<uint64_t> shape = dimsOf(info.rank, info.shape);
    if (tensor.shape != shape)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter '{}' has shape {} in the file but {} in "
                       "the model",
                       info.name, safetensors::formatDims(tensor.shape),
                       safetensors::formatDims(shape));
    data.push_back(file.data + tensor.begin);
  }
  return Status();
}

/// Reads the checkpoint `path` and validates it on its own; `contents`
/// views `bytes`.
Status readCheckpoint(const std::string &path, FileBytes &bytes,
                      checkpoint::Contents &contents) {
  CAVS_RETURN_IF_ERROR(readWholeFile(path, "checkpoint", bytes));
  CAVS_RETURN_IF_ERROR(checkpoint::parseCheckpoint(path, bytes, contents));
  return checkpoint::checkSlotsMatchParams(path, contents);
}

/// The descriptor of the model a checkpoint's records describe (zero
/// initializers, no packs); it points into `name` and `names`.
Status describeModel(const checkpoint::Contents &contents, std::string &name,
                     std::vector<std::string> &names,
                     std::vector<cavs_param_desc> &params,
                     cavs_model_desc &desc) {
  name = contents.modelName;
  for (const checkpoint::TensorRecord &record : contents.params) {
    // The descriptor's C strings would end at a NUL.
    if (record.name.find('\0') != std::string_view::npos)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter '{}' has a NUL byte in its name",
                       excerpt(record.name));
    names.emplace_back(record.name);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const checkpoint::TensorRecord &record = contents.params[i];
    params.push_back({names[i].c_str(),
                      record.rank,
                      CAVS_INIT_ZEROS,
                      {record.shape[0], record.shape[1]},
                      {0, 0}});
  }
  desc = cavs_model_desc{};
  desc.version = CAVS_MODEL_DESC_VERSION;
  desc.num_params = static_cast<int32_t>(params.size());
  desc.name = name.c_str();
  desc.signature = contents.signature;
  desc.params = params.data();
  return Status();
}

} // namespace

Status saveSafetensors(const std::string &path, const ParamStore &params) {
  const ModelLayout &layout = params.layout();
  std::vector<safetensors::TensorSource> tensors;
  for (int32_t i = 0; i < layout.numParams(); ++i) {
    const cavs_param_info &info = layout.param(i);
    tensors.push_back(
        {info.name, dimsOf(info.rank, info.shape), params.param(i)});
  }
  return safetensors::writeFile(path, layout.name(), layout.signature(),
                                tensors);
}

Status loadSafetensors(const std::string &path, ParamStore &params) {
  FileBytes bytes;
  CAVS_RETURN_IF_ERROR(readWholeFile(path, "safetensors file", bytes));
  safetensors::Contents file;
  CAVS_RETURN_IF_ERROR(safetensors::parseFile(path, bytes, file));
  const ModelLayout &layout = params.layout();
  std::vector<const unsigned char *> data;
  CAVS_RETURN_IF_ERROR(
      matchTensors(layout, file, data)
          .withPrefix(fmt::format("safetensors file '{}': ", path)));
  float *values = params.data();
  for (int32_t i = 0; i < layout.numParams(); ++i)
    std::memcpy(values + layout.param(i).offset, data[i],
                size_t(layout.param(i).size) * sizeof(float));
  return Status();
}

namespace {
/// Refuses to write `output` onto `input` (also through a link), which a
/// successful conversion would replace: a checkpoint lost its optimizer
/// and training state to its own safetensors file.
Status requireDistinct(const std::string &input, const std::string &output) {
  std::error_code error;
  if (std::filesystem::equivalent(input, output, error))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "output file '{}' is the input file '{}'; refusing to "
                     "overwrite it",
                     output, input);
  return Status();
}
} // namespace

Status safetensorsFromCheckpoint(const std::string &checkpointPath,
                                 const std::string &path) {
  CAVS_RETURN_IF_ERROR(requireDistinct(checkpointPath, path));
  FileBytes bytes;
  checkpoint::Contents contents;
  CAVS_RETURN_IF_ERROR(readCheckpoint(checkpointPath, bytes, contents));
  std::vector<safetensors::TensorSource> tensors;
  for (const checkpoint::TensorRecord &record : contents.params)
    tensors.push_back(
        {record.name, dimsOf(record.rank, record.shape), record.data});
  Status written = safetensors::writeFile(path, contents.modelName,
                                          contents.signature, tensors);
  // A name the format cannot hold is the checkpoint's problem; a failed
  // write names the file it failed to write.
  if (written.code() == CAVS_ERROR_INVALID_ARGUMENT)
    return std::move(written).withPrefix(
        fmt::format("checkpoint '{}': ", checkpointPath));
  return written;
}

Status safetensorsToCheckpoint(const std::string &path,
                               const std::string &templatePath,
                               const std::string &checkpointPath) {
  // The template may be the output; the safetensors input may not.
  CAVS_RETURN_IF_ERROR(requireDistinct(path, checkpointPath));
  FileBytes bytes;
  checkpoint::Contents contents;
  CAVS_RETURN_IF_ERROR(readCheckpoint(templatePath, bytes, contents));
  std::string name;
  std::vector<std::string> names;
  std::vector<cavs_param_desc> params;
  cavs_model_desc desc;
  ParamStore store;
  const std::string context = fmt::format("checkpoint '{}': ", templatePath);
  CAVS_RETURN_IF_ERROR(
      describeModel(contents, name, names, params, desc).withPrefix(context));
  CAVS_RETURN_IF_ERROR(
      ParamStore::create(desc, /*seed=*/0, store).withPrefix(context));
  CAVS_RETURN_IF_ERROR(loadSafetensors(path, store));
  return saveCheckpoint(checkpointPath, store, nullptr, nullptr);
}

} // namespace cavs::runtime
