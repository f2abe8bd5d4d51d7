//===- Safetensors.h - reading and writing safetensors files --------------===//
//
// safetensors is the tensor file format of Hugging Face's `safetensors`
// library, which PyTorch, JAX and numpy users read: a u64 little-endian
// header length N, N bytes of JSON header (possibly space-padded) and the
// data section. The header maps each tensor name to its dtype, shape and
// [begin, end) byte offsets into the data section; the optional key
// "__metadata__" maps strings to strings. docs/runtime.md ("safetensors")
// gives the rules this reader enforces and how a model's parameters map to
// the format.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_SAFETENSORS_H
#define CAVS_RUNTIME_CHECKPOINT_SAFETENSORS_H

#include "support/ReadFile.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cavs::runtime::safetensors {

/// A longer header is refused before it is parsed: the bound of the
/// reference implementation, so that a hostile length cannot make the
/// reader allocate or scan without end.
inline constexpr uint64_t kMaxHeaderSize = 100'000'000;
/// Tensors with more dimensions are refused (numpy allows 64).
inline constexpr size_t kMaxRank = 64;
/// The metadata keys the writer records.
inline constexpr char kModelKey[] = "cavs.model";
inline constexpr char kSignatureKey[] = "cavs.signature";

/// A tensor of the header.
struct TensorEntry {
  std::string name;
  /// As written: "F32", "BF16", ...
  std::string dtype;
  std::vector<uint64_t> shape;
  /// Byte offsets into the data section.
  uint64_t begin = 0, end = 0;
};

/// A parsed header: its tensors and metadata, in the order written.
struct Header {
  std::vector<TensorEntry> tensors;
  std::vector<std::pair<std::string, std::string>> metadata;
};

/// Parses the JSON text of a header strictly: an object whose keys are
/// unique, each tensor an object of exactly "dtype" (a string), "shape" (at
/// most kMaxRank non-negative integers) and "data_offsets" (two
/// non-negative integers), "__metadata__" an object of strings. Fails with
/// CAVS_ERROR_PARSE and a message without a file name.
Status parseHeader(std::string_view json, Header &out);

/// The bytes an element of `dtype` takes; 0 for a dtype safetensors does
/// not define.
uint64_t dtypeSize(std::string_view dtype);

/// "[3, 4]", "[]" for a scalar.
std::string formatDims(const std::vector<uint64_t> &shape);

/// A validated file: views into its bytes.
struct Contents {
  /// N, the header's length (padding included).
  uint64_t headerSize = 0;
  Header header;
  const unsigned char *data = nullptr;
  uint64_t dataSize = 0;
};

/// Validates the safetensors file `path` (its `bytes`) completely: header
/// length against the file size and kMaxHeaderSize, the header (see
/// parseHeader), every dtype known (CAVS_ERROR_UNSUPPORTED otherwise), each
/// tensor's offsets in the data section and exactly its byte size, and the
/// tensors tiling the data section without overlap or gap. Fails with
/// CAVS_ERROR_PARSE otherwise.
Status parseFile(const std::string &path, const FileBytes &bytes,
                 Contents &out);

/// An f32 tensor to write.
struct TensorSource {
  std::string_view name;
  std::vector<uint64_t> shape;
  /// shape's product of floats.
  const void *data = nullptr;
};

/// Writes `tensors` (dtype F32, in this order) to `path` atomically, with
/// the model name and signature as metadata. Fails with
/// CAVS_ERROR_INVALID_ARGUMENT for a name that is not UTF-8 or is
/// "__metadata__", CAVS_ERROR_IO when the file cannot be written.
Status writeFile(const std::string &path, std::string_view model,
                 uint64_t signature, const std::vector<TensorSource> &tensors);

} // namespace cavs::runtime::safetensors

#endif // CAVS_RUNTIME_CHECKPOINT_SAFETENSORS_H
