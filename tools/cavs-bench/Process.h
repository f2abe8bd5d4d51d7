//===- Process.h - running a helper program ---------------------*- C++ -*-===//
//
// cavs-bench runs cavsc to compile the models it benchmarks, and python3 to
// see whether PyTorch is there and to run the baselines. All of them only
// need the exit status and what the program printed; the baselines also a
// time limit, since a script that hangs would otherwise stall the whole run.
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
  /// The signal that ended it, else 0.
  int signal = 0;
  /// Whether it ran past its time limit and was killed (signal is SIGKILL).
  bool timedOut = false;
  /// Its stdout and stderr, interleaved.
  std::string output;

  /// How it ended, for messages: "exit status 3" or "signal 9 (Killed)".
  std::string describe() const;
};

/// Runs `argv` (argv[0] is looked up in $PATH unless it contains a '/') and
/// waits for it. With a `timeLimitSeconds` > 0 the program runs in a process
/// group of its own, which is killed (SIGKILL) when the limit passes, so
/// helpers it started die with it; a SIGINT, SIGTERM or SIGHUP that
/// cavs-bench gets meanwhile goes to that group too, then ends cavs-bench
/// as it would have.
ProcessResult runProcess(const std::vector<std::string> &argv,
                         double timeLimitSeconds = 0);

} // namespace cavs::bench

#endif // CAVS_BENCH_PROCESS_H
