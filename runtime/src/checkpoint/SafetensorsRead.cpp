//===- SafetensorsRead.cpp - validating a whole safetensors file ----------===//
//
// The checks run in the order that names the actual problem: the length
// prefix against the file (so a truncated or foreign file is not parsed as
// JSON), the header, then each tensor on its own (dtype, byte size, range)
// and last how the tensors tile the data section, which, as in the
// reference implementation, they must do exactly: sorted by offset, each
// begins where the previous one ends and the last ends at the end of the
// file, so no byte is shared or unaccounted for.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Format.h"
#include "checkpoint/Safetensors.h"

#include "support/Excerpt.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace cavs::runtime::safetensors {

uint64_t dtypeSize(std::string_view dtype) {
  static constexpr std::pair<std::string_view, uint64_t> kSizes[] = {
      {"BOOL", 1},    {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
      {"F8_E8M0", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},     {"BF16", 2},
      {"I32", 4},     {"U32", 4}, {"F32", 4}, {"I64", 8},     {"U64", 8},
      {"F64", 8},     {"C64", 8}};
  for (const auto &[name, size] : kSizes)
    if (name == dtype)
      return size;
  return 0;
}

std::string formatDims(const std::vector<uint64_t> &shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

namespace {

/// The bytes `tensor` takes by its dtype and shape; false on overflow. A
/// zero dimension makes it empty, however large the others ([2^62, 0]).
bool byteSize(const TensorEntry &tensor, uint64_t &out) {
  out = dtypeSize(tensor.dtype);
  if (std::find(tensor.shape.begin(), tensor.shape.end(), uint64_t(0)) !=
      tensor.shape.end()) {
    out = 0;
    return true;
  }
  for (uint64_t dimension : tensor.shape)
    if (__builtin_mul_overflow(out, dimension, &out))
      return false;
  return true;
}

/// Checks what a tensor says about itself against the data section.
Status checkTensor(const TensorEntry &tensor, uint64_t dataSize) {
  const std::string name = excerpt(tensor.name);
  if (dtypeSize(tensor.dtype) == 0)
    return makeError(CAVS_ERROR_UNSUPPORTED,
                     "tensor '{}' has the unknown dtype '{}'", name,
                     excerpt(tensor.dtype));
  uint64_t size;
  if (!byteSize(tensor, size))
    return makeError(CAVS_ERROR_PARSE,
                     "tensor '{}' of shape {} has more bytes than 2^64", name,
                     formatDims(tensor.shape));
  if (tensor.end < tensor.begin)
    return makeError(CAVS_ERROR_PARSE,
                     "tensor '{}' has data_offsets [{}, {}], which end "
                     "before they begin",
                     name, tensor.begin, tensor.end);
  if (tensor.end - tensor.begin != size)
    return makeError(CAVS_ERROR_PARSE,
                     "tensor '{}' of dtype {} and shape {} takes {} bytes, "
                     "but its data_offsets [{}, {}] hold {}",
                     name, tensor.dtype, formatDims(tensor.shape), size,
                     tensor.begin, tensor.end, tensor.end - tensor.begin);
  if (tensor.end > dataSize)
    return makeError(CAVS_ERROR_PARSE,
                     "tensor '{}' has data_offsets [{}, {}] past the end of "
                     "the data section ({} bytes)",
                     name, tensor.begin, tensor.end, dataSize);
  return Status();
}

/// Checks that the tensors tile [0, dataSize) exactly.
Status checkTiling(const std::vector<TensorEntry> &tensors, uint64_t dataSize) {
  std::vector<size_t> order(tensors.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::pair(tensors[a].begin, tensors[a].end) <
           std::pair(tensors[b].begin, tensors[b].end);
  });
  uint64_t covered = 0;
  const TensorEntry *previous = nullptr;
  for (size_t index : order) {
    const TensorEntry &tensor = tensors[index];
    if (tensor.begin < covered)
      return makeError(CAVS_ERROR_PARSE,
                       "tensor '{}' at data_offsets [{}, {}] overlaps tensor "
                       "'{}' at [{}, {}]",
                       excerpt(tensor.name), tensor.begin, tensor.end,
                       excerpt(previous->name), previous->begin, previous->end);
    if (tensor.begin > covered)
      return makeError(CAVS_ERROR_PARSE,
                       "bytes [{}, {}) of the data section belong to no "
                       "tensor",
                       covered, tensor.begin);
    covered = tensor.end;
    previous = &tensor;
  }
  if (covered != dataSize)
    return makeError(CAVS_ERROR_PARSE,
                     "bytes [{}, {}) of the data section belong to no tensor",
                     covered, dataSize);
  return Status();
}

} // namespace

Status parseFile(const std::string &path, const FileBytes &bytes,
                 Contents &out) {
  const std::string context = fmt::format("safetensors file '{}': ", path);
  uint64_t headerSize = 0;
  if (bytes.size < sizeof headerSize)
    return makeError(CAVS_ERROR_PARSE,
                     "{}truncated: {} bytes, fewer than the 8 of the header "
                     "length",
                     context, bytes.size);
  // A checkpoint's magic read as a header length is some 6e18 bytes: say
  // what the file is instead.
  if (std::memcmp(bytes.data.get(), checkpoint::kMagic,
                  sizeof checkpoint::kMagic) == 0)
    return makeError(CAVS_ERROR_PARSE,
                     "{}it is a cavs checkpoint, not a safetensors file",
                     context);
  // Little-endian, like every field the runtime reads (checkpoint/Format.h).
  std::memcpy(&headerSize, bytes.data.get(), sizeof headerSize);
  const uint64_t available = bytes.size - sizeof headerSize;
  if (headerSize > kMaxHeaderSize)
    return makeError(CAVS_ERROR_PARSE,
                     "{}the header length {} exceeds the limit of {} bytes",
                     context, headerSize, kMaxHeaderSize);
  if (headerSize > available)
    return makeError(CAVS_ERROR_PARSE,
                     "{}truncated: the header length is {}, but only {} "
                     "bytes follow it",
                     context, headerSize, available);
  Contents contents;
  contents.headerSize = headerSize;
  contents.data = bytes.data.get() + sizeof headerSize + headerSize;
  contents.dataSize = available - headerSize;
  const std::string_view json =
      bytes.text().substr(sizeof headerSize, headerSize);
  CAVS_RETURN_IF_ERROR(parseHeader(json, contents.header).withPrefix(context));
  for (const TensorEntry &tensor : contents.header.tensors)
    CAVS_RETURN_IF_ERROR(
        checkTensor(tensor, contents.dataSize).withPrefix(context));
  CAVS_RETURN_IF_ERROR(checkTiling(contents.header.tensors, contents.dataSize)
                           .withPrefix(context));
  out = std::move(contents);
  return Status();
}

} // namespace cavs::runtime::safetensors
