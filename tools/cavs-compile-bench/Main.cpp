//===- Main.cpp - cavs-compile-bench: compile time against model size -----===//
//
// Times `cavsc --emit=stats` (frontend and the whole optimization pipeline)
// on generated vertex functions of 1k to 60k operations, as the frontend's
// limit of 65,536 counts them (`size`; `ir_ops` is what the cavs dialect
// gets), one Google Benchmark per size, and fits the growth (the BigO line;
// it must stay near-linear). --print-model=N writes the generated model of
// size N instead, for tests.
//
//===----------------------------------------------------------------------===//
#include "LargeModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using cavs::bench::LargeModel;

struct Options {
  std::string cavsc;
  std::string emit = "stats";
  std::optional<int64_t> printModel;
};
Options options;

/// Runs cavsc on the model once; the error text when it fails.
std::optional<std::string> compile(llvm::StringRef path) {
  const std::string emit = "--emit=" + options.emit;
  llvm::SmallVector<llvm::StringRef> args = {options.cavsc, path, emit, "-o",
                                             "/dev/null"};
  std::string error;
  const int status = llvm::sys::ExecuteAndWait(options.cavsc, args,
                                               std::nullopt, {}, 0, 0, &error);
  if (status == 0)
    return std::nullopt;
  return "cavsc exited with status " + std::to_string(status) +
         (error.empty() ? "" : ": " + error);
}

void compileTime(benchmark::State &state) {
  const LargeModel model = cavs::bench::largeModel(state.range(0));
  llvm::SmallString<128> path;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("large", "cavs", path)) {
    state.SkipWithError(("cannot create a temporary file: " + error.message())
                            .c_str());
    return;
  }
  {
    std::error_code error;
    llvm::raw_fd_ostream out(path, error);
    out << model.source;
  }
  for (auto _ : state)
    if (std::optional<std::string> failure = compile(path)) {
      state.SkipWithError(failure->c_str());
      break;
    }
  llvm::sys::fs::remove(path);
  state.SetComplexityN(model.units);
  state.counters["size"] = double(model.units);
  state.counters["ir_ops"] = double(model.ops);
  state.counters["size/s"] = benchmark::Counter(
      double(model.units), benchmark::Counter::kIsIterationInvariantRate);
}

std::string usage() {
  return "usage: cavs-compile-bench [options] [--benchmark_* flags]\n"
         "Times cavsc on generated vertex functions of 1k, 5k, 20k and 60k\n"
         "operations (as the frontend's limit of 65,536 counts them) and\n"
         "fits the growth of compile time with size.\n\n"
         "  --cavsc=PATH       the compiler (default: the cavsc next to\n"
         "                     cavs-compile-bench)\n"
         "  --emit=KIND        what cavsc emits (stats: frontend and\n"
         "                     optimization pipeline; so: the whole library)\n"
         "  --print-model=N    print the generated model of size N and exit\n"
         "  --help             print this text\n";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> benchmarkArgs = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    int64_t ops = 0;
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << usage();
      return 0;
    } else if (arg.consume_front("--cavsc=")) {
      options.cavsc = arg.str();
    } else if (arg.consume_front("--emit=")) {
      options.emit = arg.str();
    } else if (arg.consume_front("--print-model=")) {
      if (arg.getAsInteger(10, ops) || ops < 1) {
        llvm::errs() << "cavs-compile-bench: --print-model expects a "
                        "positive size, got '"
                     << arg << "'\n";
        return 2;
      }
      options.printModel = ops;
    } else {
      benchmarkArgs.push_back(argv[i]);
    }
  }
  if (options.printModel) {
    llvm::outs() << cavs::bench::largeModel(*options.printModel).source;
    return 0;
  }
  if (options.cavsc.empty()) {
    llvm::SmallString<256> cavsc(
        llvm::sys::fs::getMainExecutable(argv[0], (void *)&usage));
    llvm::sys::path::remove_filename(cavsc);
    llvm::sys::path::append(cavsc, "cavsc");
    options.cavsc = cavsc.str().str();
  }
  llvm::outs() << "cavsc: " << options.cavsc << " --emit=" << options.emit
               << "\n";
  llvm::outs().flush();

  benchmark::RegisterBenchmark("compile_time", compileTime)
      ->Arg(1000)
      ->Arg(5000)
      ->Arg(20000)
      ->Arg(60000)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Complexity(benchmark::oN);
  int benchmarkArgc = int(benchmarkArgs.size());
  benchmarkArgs.push_back(nullptr);
  benchmark::Initialize(&benchmarkArgc, benchmarkArgs.data());
  if (benchmark::ReportUnrecognizedArguments(benchmarkArgc,
                                             benchmarkArgs.data()))
    return 2;
  // Google Benchmark reports a --benchmark_filter that matches nothing or
  // does not compile, but does not fail.
  const bool ran = benchmark::RunSpecifiedBenchmarks() > 0;
  benchmark::Shutdown();
  if (!ran)
    std::fprintf(stderr, "cavs-compile-bench: no benchmark ran\n");
  return ran ? 0 : 1;
}
