//===- SafetensorsWrite.cpp - writing safetensors files -------------------===//
//
// The header is serialised by nlohmann::json (which escapes names and
// refuses invalid UTF-8) in the order of the tensors, and padded with spaces
// so the data section starts at a multiple of 8 bytes, as the reference
// writer does: readers that map the file can then view the floats in place.
// The tensors follow back to back in the same order; the file is written
// like a checkpoint, through a temporary file renamed over the target.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Safetensors.h"

#include "support/AtomicFile.h"
#include "support/Excerpt.h"

#include <nlohmann/json.hpp>

namespace cavs::runtime::safetensors {

namespace {

/// Elements of `shape`; the shapes written are those of validated models.
uint64_t elements(const std::vector<uint64_t> &shape) {
  uint64_t count = 1;
  for (uint64_t dimension : shape)
    count *= dimension;
  return count;
}

/// The header text of `tensors`, padded to a multiple of 8 bytes with the
/// length prefix.
Status encodeHeader(std::string_view model, uint64_t signature,
                    const std::vector<TensorSource> &tensors,
                    std::string &out) {
  // JSON text is UTF-8, so the names must be (the dump would throw).
  if (!isUtf8(model))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the model name '{}' is not UTF-8, which a safetensors "
                     "header needs",
                     excerpt(model));
  for (const TensorSource &tensor : tensors)
    if (!isUtf8(tensor.name))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "the name of tensor '{}' is not UTF-8, which a "
                       "safetensors header needs",
                       excerpt(tensor.name));
  nlohmann::ordered_json header;
  header["__metadata__"] = {
      {kModelKey, model}, {kSignatureKey, fmt::format("{:#018x}", signature)}};
  uint64_t offset = 0;
  for (const TensorSource &tensor : tensors) {
    const std::string name(tensor.name);
    if (header.contains(name))
      return name == "__metadata__"
                 ? makeError(CAVS_ERROR_INVALID_ARGUMENT,
                             "a tensor cannot be called '__metadata__' in a "
                             "safetensors file")
                 : makeError(CAVS_ERROR_INVALID_ARGUMENT,
                             "tensor '{}' appears twice", excerpt(name));
    const uint64_t size = elements(tensor.shape) * sizeof(float);
    header[name] = {{"dtype", "F32"},
                    {"shape", tensor.shape},
                    {"data_offsets", {offset, offset + size}}};
    offset += size;
  }
  out = header.dump();
  out.append((8 - out.size() % 8) % 8, ' ');
  return Status();
}

} // namespace

Status writeFile(const std::string &path, std::string_view model,
                 uint64_t signature, const std::vector<TensorSource> &tensors) {
  std::string header;
  CAVS_RETURN_IF_ERROR(encodeHeader(model, signature, tensors, header));
  AtomicFileWriter file(path, "safetensors file");
  CAVS_RETURN_IF_ERROR(file.open());
  const uint64_t headerSize = header.size();
  CAVS_RETURN_IF_ERROR(file.write(&headerSize, sizeof headerSize));
  CAVS_RETURN_IF_ERROR(file.write(header.data(), header.size()));
  for (const TensorSource &tensor : tensors)
    CAVS_RETURN_IF_ERROR(
        file.write(tensor.data, elements(tensor.shape) * sizeof(float)));
  return file.commit();
}

} // namespace cavs::runtime::safetensors
