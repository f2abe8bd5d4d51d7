//===- InputFile.h - the files cavs-ckpt reads ----------------------------===//
//
// cavs-ckpt reads checkpoints and safetensors files with the runtime's own
// parsers (checkpoint/Parse.h, checkpoint/Safetensors.h), so what it prints
// is exactly what the runtime would load, and a record added to the format
// shows up in the parsed contents.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TOOLS_CAVS_CKPT_INPUTFILE_H
#define CAVS_TOOLS_CAVS_CKPT_INPUTFILE_H

#include "checkpoint/Parse.h"
#include "checkpoint/Safetensors.h"

#include <optional>
#include <string>

namespace cavs::ckpt {

/// A validated checkpoint or safetensors file: exactly one of the two
/// contents is set; both view `bytes`.
struct InputFile {
  runtime::FileBytes bytes;
  std::optional<runtime::checkpoint::Contents> checkpoint;
  std::optional<runtime::safetensors::Contents> safetensors;
};

/// Reads `path`: a checkpoint when it starts with the checkpoint magic,
/// else a safetensors file (which has no magic of its own).
runtime::Status readInputFile(const std::string &path, InputFile &out);

} // namespace cavs::ckpt

#endif // CAVS_TOOLS_CAVS_CKPT_INPUTFILE_H
