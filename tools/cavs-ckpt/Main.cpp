//===- Main.cpp - cavs-ckpt: inspect and convert checkpoints --------------===//
//
// The command line of cavs-ckpt (tools/cavs-ckpt/README.md): info, dump,
// export and import. Failures print the runtime's message, which names the
// file, and exit with 1; a wrong command line exits with 2.
//
//===----------------------------------------------------------------------===//
#include "Dump.h"
#include "Info.h"

#include "checkpoint/Interchange.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

using namespace cavs::runtime;
using namespace cavs::ckpt;

namespace {

constexpr const char *kUsage =
    R"(usage: cavs-ckpt info FILE
       cavs-ckpt dump FILE
       cavs-ckpt export CHECKPOINT OUT.safetensors
       cavs-ckpt import IN.safetensors --into CHECKPOINT -o OUT

Inspects cavs checkpoints and converts their parameters to and from
safetensors, the tensor format PyTorch, JAX and numpy users read.

  info FILE      describe a checkpoint (model name and signature, format
                 version, parameters, optimizer state) or a safetensors
                 file (metadata, tensors)
  dump FILE      print the parameter values of a checkpoint or a
                 safetensors file (F32 tensors), exactly
  export CHECKPOINT OUT.safetensors
                 write the checkpoint's parameters to a safetensors file
  import IN.safetensors --into CHECKPOINT -o OUT
                 write the checkpoint OUT: the model of CHECKPOINT (which
                 only serves as the template) with the parameter values of
                 IN.safetensors, and no optimizer state; OUT may be
                 CHECKPOINT

Files are written atomically; every input is validated completely first.
Exit status: 0 on success, 1 when a file is bad or cannot be written, 2 for
a wrong command line.
)";

/// A wrong command line.
int usageError(std::string_view message) {
  fmt::print(stderr, "cavs-ckpt: error: {}\n(run 'cavs-ckpt --help')\n",
             message);
  return 2;
}

int failure(const Status &status) {
  fmt::print(stderr, "cavs-ckpt: error: {}\n", status.message());
  return 1;
}

int run(const std::vector<std::string> &args) {
  if (args.empty())
    return usageError("no command");
  const std::string &command = args[0];
  if (command == "info" || command == "dump") {
    if (args.size() != 2)
      return usageError(fmt::format("'{}' takes one FILE", command));
    InputFile file;
    Status status = readInputFile(args[1], file);
    if (status.ok() && command == "info")
      printInfo(args[1], file);
    else if (status.ok())
      status = printValues(args[1], file);
    return status.ok() ? 0 : failure(status);
  }
  if (command == "export") {
    if (args.size() != 3)
      return usageError("'export' takes CHECKPOINT OUT.safetensors");
    const Status status = safetensorsFromCheckpoint(args[1], args[2]);
    return status.ok() ? 0 : failure(status);
  }
  if (command == "import") {
    std::string input, into, output;
    for (size_t i = 1; i < args.size(); ++i) {
      const bool hasValue = i + 1 < args.size();
      std::string *value = args[i] == "--into" ? &into
                           : args[i] == "-o"   ? &output
                                               : nullptr;
      if (value && hasValue && !value->empty())
        return usageError(fmt::format("'{}' given twice", args[i]));
      if (value && hasValue)
        *value = args[++i];
      else if (input.empty() && !args[i].empty() && args[i][0] != '-')
        input = args[i];
      else
        return usageError(fmt::format("unexpected argument '{}'", args[i]));
    }
    if (input.empty() || into.empty() || output.empty())
      return usageError(
          "'import' takes IN.safetensors --into CHECKPOINT -o OUT");
    const Status status = safetensorsToCheckpoint(input, into, output);
    return status.ok() ? 0 : failure(status);
  }
  return usageError(fmt::format("unknown command '{}'", command));
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // Anywhere, as in `cavs-ckpt info --help` (a file of that name: ./--help).
  if (std::any_of(args.begin(), args.end(), [](const std::string &arg) {
        return arg == "--help" || arg == "-h";
      })) {
    fmt::print("{}", kUsage);
    return 0;
  }
  try {
    return run(args);
  } catch (const std::exception &error) {
    // Allocation failures; the runtime's functions report everything else.
    return failure(Status(CAVS_ERROR_INTERNAL, error.what()));
  }
}
