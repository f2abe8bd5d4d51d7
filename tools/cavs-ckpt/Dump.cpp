//===- Dump.cpp - the values of a file's tensors as text ------------------===//
//
// Each float is printed in its shortest form that reads back to the same
// float (fmt's default), so a reader can compare values bit for bit.
// Checkpoints and safetensors files are first reduced to the same list of
// f32 tensors (name, shape, unaligned data).
//
//===----------------------------------------------------------------------===//
#include "Dump.h"

#include "support/Excerpt.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace cavs::ckpt {

using namespace runtime;

namespace {

/// An f32 tensor of a file.
struct Tensor {
  std::string_view name;
  std::vector<uint64_t> shape;
  const unsigned char *data;
};

void printTensor(const Tensor &tensor) {
  fmt::print("{} {}\n", excerpt(tensor.name),
             safetensors::formatDims(tensor.shape));
  uint64_t count = 1;
  for (uint64_t dimension : tensor.shape)
    count *= dimension;
  const uint64_t row = tensor.shape.empty() ? 1 : tensor.shape.back();
  std::string line;
  for (uint64_t i = 0; i < count; ++i) {
    float value;
    std::memcpy(&value, tensor.data + i * sizeof value, sizeof value);
    // Every NaN is "nan" (fmt would print "-nan" for the CPU's default
    // NaN), as the README says: NaNs do not tell dumps apart.
    if (std::isnan(value))
      line += " nan";
    else
      fmt::format_to(std::back_inserter(line), " {}", value);
    if ((i + 1) % row == 0) {
      fmt::print("{}\n", line);
      line.clear();
    }
  }
}

/// The tensors of `file`, all f32.
Status tensorsOf(const std::string &path, const InputFile &file,
                 std::vector<Tensor> &out) {
  if (file.checkpoint) {
    for (const checkpoint::TensorRecord &record : file.checkpoint->params)
      out.push_back({record.name,
                     {record.shape, record.shape + record.rank},
                     record.data});
    return Status();
  }
  for (const safetensors::TensorEntry &entry :
       file.safetensors->header.tensors) {
    if (entry.dtype != "F32")
      return makeError(CAVS_ERROR_UNSUPPORTED,
                       "safetensors file '{}': tensor '{}' has dtype {}; "
                       "only F32 tensors can be printed",
                       path, excerpt(entry.name), entry.dtype);
    out.push_back(
        {entry.name, entry.shape, file.safetensors->data + entry.begin});
  }
  return Status();
}

} // namespace

Status printValues(const std::string &path, const InputFile &file) {
  std::vector<Tensor> tensors;
  CAVS_RETURN_IF_ERROR(tensorsOf(path, file, tensors));
  for (const Tensor &tensor : tensors)
    printTensor(tensor);
  return Status();
}

} // namespace cavs::ckpt
