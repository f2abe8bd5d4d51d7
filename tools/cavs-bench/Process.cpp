//===- Process.cpp - running a helper program -----------------------------===//
#include "Process.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace cavs::bench {

namespace {

using Clock = std::chrono::steady_clock;

/// The last signal of kForwarded that cavs-bench got while a program ran in
/// its own process group, else 0.
volatile std::sig_atomic_t interruption = 0;

void noteInterruption(int signal) { interruption = signal; }

/// While alive, catches the signals that stop cavs-bench from a terminal or
/// a job runner and would no longer reach a program in its own process
/// group; those that cavs-bench ignores stay ignored.
class CaughtInterruptions {
public:
  CaughtInterruptions() {
    interruption = 0;
    struct sigaction action {};
    action.sa_handler = noteInterruption;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: poll() returns at once with EINTR.
    for (size_t i = 0; i < kForwarded.size(); ++i) {
      sigaction(kForwarded[i], nullptr, &previous_[i]);
      if (previous_[i].sa_handler != SIG_IGN)
        sigaction(kForwarded[i], &action, nullptr);
    }
  }
  /// Restores the handlers, then takes a caught signal as cavs-bench would
  /// have without this object.
  ~CaughtInterruptions() {
    for (size_t i = 0; i < kForwarded.size(); ++i)
      sigaction(kForwarded[i], &previous_[i], nullptr);
    if (interruption)
      std::raise(interruption);
  }

private:
  static constexpr std::array<int, 3> kForwarded = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, kForwarded.size()> previous_{};
};

/// Appends what arrives on `fd` to `output` until its writers close it;
/// false when `deadline` passes first. Signals caught meanwhile go to the
/// process group `group` (when > 0).
bool readAll(int fd, std::optional<Clock::time_point> deadline, pid_t group,
             std::string &output) {
  bool forwarded = false;
  char buffer[4096];
  while (true) {
    if (group > 0 && interruption && !forwarded)
      forwarded = kill(-group, interruption) == 0;
    int waitMs = -1;
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(
          *deadline - Clock::now());
      if (left.count() <= 0)
        return false;
      waitMs = int(left.count());
    }
    pollfd readable{fd, POLLIN, 0};
    const int ready = poll(&readable, 1, waitMs);
    if (ready < 0 && errno != EINTR)
      return true; // cannot wait on the pipe: take what came
    if (ready <= 0)
      continue;
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got == 0 || (got < 0 && errno != EINTR))
      return true;
    if (got > 0)
      output.append(buffer, size_t(got));
  }
}

} // namespace

std::string ProcessResult::describe() const {
  if (signal == 0)
    return "exit status " + std::to_string(status);
  return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
}

ProcessResult runProcess(const std::vector<std::string> &argv,
                         double timeLimitSeconds) {
  ProcessResult result;
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0) {
    result.status = 127;
    result.output = std::string("cannot create a pipe: ") + strerror(errno);
    return result;
  }
  const bool limited = timeLimitSeconds > 0;
  std::optional<Clock::time_point> deadline;
  // At most 30 years, which Clock::duration holds.
  if (limited)
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(
                                      std::min(timeLimitSeconds, 1e9)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0]);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[1]);
  // A time-limited program leads a process group of its own, so that the
  // kill reaches every process it started.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (limited) {
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  }
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, args[0], &actions, &attributes,
                                 args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(pipeEnds[1]);
  if (error != 0) {
    close(pipeEnds[0]);
    result.status = 127;
    result.output = "cannot run '" + argv[0] + "': " + strerror(error);
    return result;
  }
  std::optional<CaughtInterruptions> caught;
  if (limited)
    caught.emplace();
  result.timedOut =
      !readAll(pipeEnds[0], deadline, limited ? pid : 0, result.output);
  if (result.timedOut)
    kill(-pid, SIGKILL);
  close(pipeEnds[0]);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  result.signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
  result.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                  : result.signal    ? 128 + result.signal
                                     : 127;
  return result;
}

} // namespace cavs::bench
