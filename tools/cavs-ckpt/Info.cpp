//===- Info.cpp - describing checkpoints and safetensors files ------------===//
//
// Everything printed comes from the runtime's parsed contents; names and
// strings read from the file go through excerpt(), so a hostile file cannot
// flood or garble the terminal. Tensors are listed in file order, as a
// table: name, then shape (and, for safetensors, dtype and byte range).
//
//===----------------------------------------------------------------------===//
#include "Info.h"

#include "checkpoint/TrainState.h"
#include "optim/Options.h"
#include "params/ModelLayout.h"
#include "support/Excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cavs::ckpt {

using namespace runtime;

namespace {

/// A table of tensors: one row of cells each, columns padded to align.
using Rows = std::vector<std::vector<std::string>>;

void printRows(const Rows &rows, const char *indent) {
  std::vector<size_t> widths;
  for (const auto &row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto &row : rows) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); ++c)
      line += c + 1 == row.size() ? row[c]
                                  : fmt::format("{:<{}}  ", row[c], widths[c]);
    fmt::print("{}\n", line);
  }
}

/// "3 tensors, 29 values" and the rows of `tensors`.
void printRecords(const std::vector<checkpoint::TensorRecord> &tensors,
                  const char *indent) {
  int64_t values = 0;
  Rows rows;
  for (const checkpoint::TensorRecord &tensor : tensors) {
    values += tensor.shape[0] * (tensor.rank == 2 ? tensor.shape[1] : 1);
    rows.push_back(
        {excerpt(tensor.name), formatShape(tensor.rank, tensor.shape)});
  }
  fmt::print("{} tensors, {} values\n", tensors.size(), values);
  printRows(rows, indent);
}

/// The training state's fields, "u64" ones as integers and "f64" ones
/// exactly (shortest round trip).
void printTrainState(const std::vector<checkpoint::TrainFieldRecord> &fields) {
  if (fields.empty()) {
    fmt::print("training state: none\n");
    return;
  }
  fmt::print("training state: {} fields\n", fields.size());
  Rows rows;
  for (const checkpoint::TrainFieldRecord &field : fields) {
    double value;
    std::memcpy(&value, &field.bits, sizeof value);
    rows.push_back({excerpt(field.name), trainFieldTypeName(field.type),
                    field.type == CAVS_TRAIN_FIELD_U64
                        ? std::to_string(field.bits)
                    : std::isnan(value) ? std::string("nan")
                                        : fmt::format("{}", value)});
  }
  printRows(rows, "  ");
}

void printCheckpoint(const std::string &path, const FileBytes &bytes,
                     const checkpoint::Contents &contents) {
  fmt::print("{}: cavs checkpoint, format version {}, {} bytes\n", path,
             contents.version, bytes.size);
  fmt::print("model: {}\nsignature: {:#018x}\nparameters: ",
             excerpt(contents.modelName), contents.signature);
  printRecords(contents.params, "  ");
  if (contents.optimizer) {
    const checkpoint::OptimizerRecord &optimizer = *contents.optimizer;
    fmt::print("optimizer: {}, step count {}\n",
               optimizerKindName(optimizer.options.kind), optimizer.stepCount);
    for (const Hyperparameter &parameter : hyperparameters(optimizer.options))
      fmt::print("  {} = {}\n", parameter.name, parameter.value);
    for (const checkpoint::SlotRecord &slot : optimizer.slots) {
      fmt::print("  state {}: ", slot.name);
      printRecords(slot.tensors, "    ");
    }
  } else {
    fmt::print("optimizer: none\n");
  }
  printTrainState(contents.trainState);
}

void printSafetensors(const std::string &path, const FileBytes &bytes,
                      const safetensors::Contents &contents) {
  fmt::print("{}: safetensors, header {} bytes, data {} bytes, {} bytes\n",
             path, contents.headerSize, contents.dataSize, bytes.size);
  const safetensors::Header &header = contents.header;
  if (header.metadata.empty())
    fmt::print("metadata: none\n");
  else
    fmt::print("metadata:\n");
  for (const auto &[key, value] : header.metadata)
    fmt::print("  {} = {}\n", excerpt(key), excerpt(value));
  Rows rows;
  for (const safetensors::TensorEntry &tensor : header.tensors)
    rows.push_back({excerpt(tensor.name), tensor.dtype,
                    safetensors::formatDims(tensor.shape),
                    fmt::format("bytes [{}, {})", tensor.begin, tensor.end)});
  fmt::print("tensors: {}\n", header.tensors.size());
  printRows(rows, "  ");
}

} // namespace

void printInfo(const std::string &path, const InputFile &file) {
  if (file.checkpoint)
    printCheckpoint(path, file.bytes, *file.checkpoint);
  else
    printSafetensors(path, file.bytes, *file.safetensors);
}

} // namespace cavs::ckpt
