//===- LargeStack.cpp - IR work on a thread with a large stack ------------===//
//
// POSIX threads rather than llvm::thread, for two things it cannot set: a
// guard area below the stack wider than any frame, so that an overflow
// always faults there, and an alternate signal stack, on which the handler
// can still run once the thread's own stack is gone.
//
//===----------------------------------------------------------------------===//

#include "compiler/Support/LargeStack.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
/// Wider than any frame of MLIR's recursive functions.
constexpr size_t kGuardBytes = size_t(1) << 20;
constexpr size_t kSignalStackBytes = size_t(64) << 10;

struct Job {
  llvm::function_ref<void()> fn;
  std::string exhaustedMessage;
};

/// The guard of this thread's stack and what to print on a fault in it; set
/// only on threads that report exhaustion, read by the signal handler.
thread_local uintptr_t guardLow = 0, guardHigh = 0;
thread_local const std::string *exhaustedMessage = nullptr;
struct sigaction previousAction;
std::once_flag installHandler;

void onSegv(int, siginfo_t *info, void *) {
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  if (exhaustedMessage && address >= guardLow && address < guardHigh) {
    (void)!write(STDERR_FILENO, exhaustedMessage->data(),
                 exhaustedMessage->size());
    _exit(1);
  }
  // Any other fault is a bug: returning repeats it under the handler that
  // was there before (LLVM's, which prints a stack trace).
  sigaction(SIGSEGV, &previousAction, nullptr);
}

/// Marks this thread's guard (glibc puts it just below the usable stack;
/// taking both sides of that boundary holds wherever its size is counted)
/// and gives the thread a signal stack.
void watchThisStack(std::vector<char> &signalStack) {
  pthread_attr_t attr;
  void *stackLow = nullptr;
  size_t stackSize = 0, guardSize = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return;
  pthread_attr_getstack(&attr, &stackLow, &stackSize);
  pthread_attr_getguardsize(&attr, &guardSize);
  pthread_attr_destroy(&attr);
  guardLow = reinterpret_cast<uintptr_t>(stackLow) - guardSize;
  guardHigh = reinterpret_cast<uintptr_t>(stackLow) + guardSize;
  stack_t altStack = {};
  altStack.ss_sp = signalStack.data();
  altStack.ss_size = signalStack.size();
  sigaltstack(&altStack, nullptr);
}

void *runJob(void *arg) {
  Job &job = *static_cast<Job *>(arg);
  std::vector<char> signalStack;
  if (!job.exhaustedMessage.empty()) {
    signalStack.resize(kSignalStackBytes);
    watchThisStack(signalStack);
    exhaustedMessage = &job.exhaustedMessage;
  }
  job.fn();
  if (exhaustedMessage) {
    exhaustedMessage = nullptr;
    stack_t off = {};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  }
  return nullptr;
}
} // namespace

void cavs::runOnLargeStack(llvm::function_ref<void()> fn,
                           llvm::StringRef tool) {
  Job job{fn, {}};
  if (!tool.empty()) {
    job.exhaustedMessage =
        (llvm::Twine(tool) +
         ": error: the input nests too deeply: processing it "
         "exhausted the " +
         llvm::Twine(kLargeStackBytes >> 20) + " MiB stack\n")
            .str();
    std::call_once(installHandler, [] {
      struct sigaction action = {};
      action.sa_sigaction = onSegv;
      action.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      sigaction(SIGSEGV, &action, &previousAction);
    });
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kLargeStackBytes);
  pthread_attr_setguardsize(&attr, kGuardBytes);
  pthread_t thread;
  int error = pthread_create(&thread, &attr, runJob, &job);
  pthread_attr_destroy(&attr);
  if (error != 0)
    llvm::report_fatal_error("cannot start a thread with a " +
                             llvm::Twine(kLargeStackBytes >> 20) +
                             " MiB stack");
  pthread_join(thread, nullptr);
}
