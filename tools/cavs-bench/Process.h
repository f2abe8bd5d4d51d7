//===- Process.h - running a helper program ---------------------*- C++ -*-===//
//
// cavs-bench runs cavsc to compile the models it benchmarks, and python3 to
// see whether PyTorch is there. Both only need the exit status and what the
// program printed.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_PROCESS_H
#define CAVS_BENCH_PROCESS_H

#include <string>
#include <vector>

namespace cavs::bench {

/// How a program ended.
struct ProcessResult {
  /// The exit status; 128 + the signal when a signal ended it; 127 when it
  /// could not be started.
  int status = 0;
  /// Its stdout and stderr, interleaved.
  std::string output;
};

/// Runs `argv` (argv[0] is looked up in $PATH unless it contains a '/') and
/// waits for it.
ProcessResult runProcess(const std::vector<std::string> &argv);

} // namespace cavs::bench

#endif // CAVS_BENCH_PROCESS_H
