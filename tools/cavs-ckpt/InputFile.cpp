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

namespace cavs::ckpt {

using namespace runtime;

Status readInputFile(const std::string &path, InputFile &out) {
  CAVS_RETURN_IF_ERROR(readWholeFile(path, "file", out.bytes));
  const FileBytes &bytes = out.bytes;
  if (bytes.size >= sizeof checkpoint::kMagic &&
      std::memcmp(bytes.data.get(), checkpoint::kMagic,
                  sizeof checkpoint::kMagic) == 0)
    return checkpoint::parseCheckpoint(path, bytes, out.checkpoint.emplace());
  return safetensors::parseFile(path, bytes, out.safetensors.emplace());
}

} // namespace cavs::ckpt
