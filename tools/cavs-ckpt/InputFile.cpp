//===- InputFile.cpp - telling checkpoints from safetensors files ---------===//
//
// A checkpoint starts with the magic "CAVSCKPT"; a safetensors file starts
// with its header length, whose eight bytes would spell that magic only for
// a length far beyond the header bound, so the magic decides.
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"

#include "checkpoint/Format.h"

#include <cstring>
#include <string_view>

namespace cavs::ckpt {

using namespace runtime;

Status readInputFile(const std::string &path, InputFile &out) {
  CAVS_RETURN_IF_ERROR(readWholeFile(path, "file", out.bytes));
  const FileBytes &bytes = out.bytes;
  if (bytes.size >= sizeof checkpoint::kMagic &&
      std::memcmp(bytes.data.get(), checkpoint::kMagic,
                  sizeof checkpoint::kMagic) == 0) {
    // As loading would check the slots against a model's parameters.
    CAVS_RETURN_IF_ERROR(
        checkpoint::parseCheckpoint(path, bytes, out.checkpoint.emplace()));
    return checkpoint::checkSlotsMatchParams(path, *out.checkpoint);
  }
  Status parsed =
      safetensors::parseFile(path, bytes, out.safetensors.emplace());
  // A damaged checkpoint lands here too: say why it was read as safetensors.
  constexpr std::string_view kSuffix = ".safetensors";
  const bool named =
      path.size() >= kSuffix.size() &&
      path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
  if (!parsed.ok() && !named)
    return Status(parsed.code(),
                  parsed.message() +
                      " (it does not start with the checkpoint magic "
                      "'CAVSCKPT', so it was read as a safetensors file)");
  return parsed;
}

} // namespace cavs::ckpt
