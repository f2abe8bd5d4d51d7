//===- Dump.h - cavs-ckpt dump --------------------------------------------===//
//
// Prints the parameter values of a checkpoint or safetensors file as text
// that reads back exactly (for tests and for diffing two files).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TOOLS_CAVS_CKPT_DUMP_H
#define CAVS_TOOLS_CAVS_CKPT_DUMP_H

#include "InputFile.h"

namespace cavs::ckpt {

/// Prints every parameter tensor of `file` (read from `path`): a line with
/// its name and shape, then its values, one line per row of the last
/// dimension. Fails with CAVS_ERROR_UNSUPPORTED for a safetensors tensor
/// that is not F32.
runtime::Status printValues(const std::string &path, const InputFile &file);

} // namespace cavs::ckpt

#endif // CAVS_TOOLS_CAVS_CKPT_DUMP_H
