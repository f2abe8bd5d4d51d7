//===- OutputFiles.cpp - checks of the files a run will write -------------===//
#include "OutputFiles.h"

#include "ArgParser.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace cavs_examples {

namespace {
namespace fs = std::filesystem;

/// What `path` (its links followed) is when it exists and is no regular
/// file; null otherwise.
const char *nonRegularKind(const std::string &path) {
  std::error_code error;
  switch (fs::status(path, error).type()) {
  case fs::file_type::not_found:
  case fs::file_type::regular:
  case fs::file_type::none:
    return nullptr;
  case fs::file_type::directory:
    return "a directory";
  case fs::file_type::fifo:
    return "a FIFO";
  case fs::file_type::character:
    return "a character device";
  case fs::file_type::block:
    return "a block device";
  case fs::file_type::socket:
    return "a socket";
  default:
    return "a special file";
  }
}

/// `path` made absolute and free of links and dot segments, as far as it
/// exists, so that two spellings of one file compare equal.
fs::path resolved(const std::string &path) {
  std::error_code error;
  fs::path result = fs::weakly_canonical(fs::absolute(path), error);
  return error ? fs::absolute(path).lexically_normal() : result;
}
} // namespace

void requireWritableFile(const std::string &flag, const std::string &value,
                         const std::string &path) {
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  const std::string where = flag + " " + value + ": ";
  if (!fs::is_directory(folder))
    throw UsageError(where + "folder '" + folder + "' does not exist");
  if (::access(folder.c_str(), W_OK) != 0)
    throw UsageError(where + "cannot write in folder '" + folder +
                     "': " + std::strerror(errno));
  if (const char *kind = nonRegularKind(path))
    throw UsageError(where + "'" + path + "' is " + kind +
                     ", not a regular file");
}

bool sameFile(const std::string &a, const std::string &b) {
  std::error_code error;
  const bool equivalent = fs::equivalent(a, b, error);
  return error ? resolved(a) == resolved(b) : equivalent;
}

void requireOutputsSpareInputs(const TrainOptions &options,
                               const std::vector<InputFile> &inputs) {
  std::vector<std::pair<std::string, std::string>> outputs;
  if (!options.checkpoint.empty()) {
    outputs.push_back(
        {"--checkpoint " + options.checkpoint, options.checkpoint});
    outputs.push_back(
        {"--checkpoint " + options.checkpoint, options.checkpoint + ".best"});
  }
  if (!options.metrics.empty())
    outputs.push_back({"--metrics " + options.metrics, options.metrics});
  for (const auto &[flag, output] : outputs)
    for (const InputFile &input : inputs)
      if (sameFile(output, input.path))
        throw UsageError(flag + " would overwrite '" + input.path +
                         "', which the run reads (" + input.flag +
                         "); give it a file of its own");
}

void requireSeparateOutputs(const TrainOptions &options) {
  if (options.metrics.empty())
    return;
  for (const auto &[flag, checkpoint] :
       {std::pair<const char *, std::string>{"--checkpoint",
                                             options.checkpoint},
        {"--resume", options.resume}}) {
    if (checkpoint.empty())
      continue;
    for (const std::string &file : {checkpoint, checkpoint + ".best"})
      if (sameFile(file, options.metrics))
        throw UsageError("--metrics " + options.metrics + " is '" + file +
                         "', a checkpoint file of " + flag + " " +
                         checkpoint + "; give the curves a file of their own");
  }
}

} // namespace cavs_examples
