//===- DataSource.h - a data folder with a synthetic fallback ---*- C++ -*-===//
//
// The apps read real data sets from ../shared/data beside the checkout.
// Where they are absent (a user's machine, CI) an app generates a small
// learnable sample in the same format into its build folder and says so,
// so that every app runs, and is tested, anywhere; a folder given with
// --data must exist, though.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_DATASOURCE_H
#define CAVS_EXAMPLES_DATASOURCE_H

#include "ArgParser.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cavs_examples {

struct DataSource {
  /// The folder asked for (--data, or the default beside the checkout).
  std::string dataDir;
  /// Whether --data was given: missing files are then an error.
  bool dataGiven = false;
  /// Use the synthetic sample even when the real data is there.
  bool synthetic = false;
  /// Where the synthetic sample is generated (once).
  std::string syntheticDir;
};

/// Registers --data and --synthetic; `files` lists what DIR holds.
void addDataOptions(ArgParser &parser, DataSource &source,
                    const std::string &files);

/// The folder to read: the real one when it has all of `files`, else the
/// synthetic one, made by `generate(folder)` when absent. `what` names
/// the data set in messages.
std::string
resolveData(const DataSource &source, const std::vector<std::string> &files,
            const std::string &what,
            const std::function<void(const std::string &)> &generate);

/// Writes `text` to `path` (creating its folder) under a temporary name and
/// renames it, so that an interrupted run never leaves a truncated file
/// that a later run would take for a complete sample; throws
/// std::runtime_error.
void writeTextFile(const std::filesystem::path &path, const std::string &text);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_DATASOURCE_H
