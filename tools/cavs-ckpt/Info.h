//===- Info.h - cavs-ckpt info --------------------------------------------===//
//
// Describes a checkpoint (model, format version, parameters, optimizer
// state) or a safetensors file (metadata, tensors) on standard output.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TOOLS_CAVS_CKPT_INFO_H
#define CAVS_TOOLS_CAVS_CKPT_INFO_H

#include "InputFile.h"

namespace cavs::ckpt {

/// Prints what `file` (read from `path`) holds.
void printInfo(const std::string &path, const InputFile &file);

} // namespace cavs::ckpt

#endif // CAVS_TOOLS_CAVS_CKPT_INFO_H
