//===- Process.cpp - running a helper program -----------------------------===//
#include "Process.h"

#include <cerrno>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace cavs::bench {

ProcessResult runProcess(const std::vector<std::string> &argv) {
  ProcessResult result;
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0) {
    result.status = 127;
    result.output = std::string("cannot create a pipe: ") + strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0]);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeEnds[1]);
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int error =
      posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeEnds[1]);
  if (error != 0) {
    close(pipeEnds[0]);
    result.status = 127;
    result.output = "cannot run '" + argv[0] + "': " + strerror(error);
    return result;
  }
  char buffer[4096];
  ssize_t got;
  while ((got = read(pipeEnds[0], buffer, sizeof buffer)) != 0) {
    if (got > 0)
      result.output.append(buffer, size_t(got));
    else if (errno != EINTR)
      break;
  }
  close(pipeEnds[0]);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(wstatus)     ? WEXITSTATUS(wstatus)
                  : WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus)
                                         : 127;
  return result;
}

} // namespace cavs::bench
