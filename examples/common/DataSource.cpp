//===- DataSource.cpp - a data folder with a synthetic fallback -----------===//
#include "DataSource.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <unistd.h>

namespace cavs_examples {

namespace fs = std::filesystem;

namespace {
bool hasAll(const fs::path &dir, const std::vector<std::string> &files) {
  for (const std::string &file : files)
    if (!fs::is_regular_file(dir / file))
      return false;
  return true;
}

/// The files of `files` in `dir` that are missing or no regular file (a
/// folder, a FIFO), each with which.
std::string whatIsWrong(const fs::path &dir,
                        const std::vector<std::string> &files) {
  std::string text;
  for (const std::string &file : files) {
    std::error_code error;
    const fs::file_status status = fs::status(dir / file, error);
    if (fs::is_regular_file(status))
      continue;
    text += (text.empty() ? "" : ", ") + file +
            (fs::exists(status) ? " is not a regular file" : " is missing");
  }
  return text;
}

std::string listed(const std::vector<std::string> &files) {
  std::string text;
  for (size_t i = 0; i < files.size(); ++i)
    text += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
  return text;
}
} // namespace

void addDataOptions(ArgParser &parser, DataSource &source,
                    const std::string &files) {
  parser.text("--data", "DIR",
              "folder with " + files +
                  "; a synthetic sample is generated when the default is "
                  "absent",
              &source.dataDir, &source.dataGiven);
  parser.toggle("--synthetic",
                "train on the generated synthetic sample (not with --data)",
                &source.synthetic);
}

std::string
resolveData(const DataSource &source, const std::vector<std::string> &files,
            const std::string &what,
            const std::function<void(const std::string &)> &generate) {
  if (source.synthetic && source.dataGiven)
    throw UsageError("--synthetic trains on a generated sample, not on --data " +
                     source.dataDir + "; give one of them");
  if (!source.synthetic && hasAll(source.dataDir, files))
    return source.dataDir;
  if (!source.synthetic && source.dataGiven &&
      !fs::is_directory(source.dataDir))
    throw UsageError("--data " + source.dataDir + ": " +
                     (fs::exists(source.dataDir)
                          ? "not a folder; give the folder that holds "
                          : "no such folder; give the folder that holds ") +
                     listed(files));
  if (!source.synthetic && source.dataGiven)
    throw UsageError("--data " + source.dataDir + ": " + listed(files) +
                     (files.size() > 1 ? " are" : " is") +
                     " not all there: " + whatIsWrong(source.dataDir, files));
  if (!source.synthetic)
    std::cout << what << " not found in " << source.dataDir
              << "; using a synthetic sample instead\n";
  if (!hasAll(source.syntheticDir, files)) {
    generate(source.syntheticDir);
    std::cout << "generated a synthetic " << what << "-format sample in "
              << source.syntheticDir << "\n";
  }
  return source.syntheticDir;
}

void writeTextFile(const fs::path &path, const std::string &text) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error)
    throw std::runtime_error("cannot create '" + path.parent_path().string() +
                             "': " + error.message());
  // Per process: tests running in parallel may generate the same sample.
  fs::path temporary = path;
  temporary += ".tmp." + std::to_string(getpid());
  std::ofstream file(temporary);
  file << text;
  file.close();
  if (!file || (fs::rename(temporary, path, error), error))
    throw std::runtime_error("cannot write '" + path.string() + "'");
}

} // namespace cavs_examples
