//===- MpiComm.cpp - MPI collectives polled against a deadline ------------===//
//
// MPI's blocking collectives wait forever for a rank that died or hangs;
// here every operation is an MPI_I* request and wait() polls MPI_Testall
// (which also drives MPI's progress) until all complete or the deadline
// passes. The process-wide MPI lifecycle lives here too, because whether
// MPI may be finalized depends on whether a collective failed.
//
//===----------------------------------------------------------------------===//
#include "distributed/MpiComm.h"

#include "support/Deadline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <thread>

namespace cavs::runtime {

namespace {

std::atomic<bool> failedFlag{false};
/// Whether the runtime called MPI_Init_thread, and so must finalize.
bool ownsMpi = false;

bool mpiActive() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

/// At exit: a clean finalize, unless a collective failed — then a peer may
/// be dead and MPI_Finalize could wait for it, so the whole job is aborted
/// (mpirun then ends every rank with a non-zero status).
void finishMpi() {
  if (!ownsMpi || !mpiActive())
    return;
  if (failedFlag)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}

std::string errorString(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return "MPI error " + std::to_string(code);
  return std::string(text, length);
}

} // namespace

void markMpiFailed() { failedFlag = true; }
bool mpiFailed() { return failedFlag; }

Status ensureMpiInitialized() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized)
    return Status(CAVS_ERROR_UNSUPPORTED,
                  "distributed training: MPI was already finalized in this "
                  "process and cannot be initialized again");
  if (initialized)
    return Status();
  // FUNNELED: only the thread that called the trainer uses MPI; the kernel
  // threads never do.
  int provided = 0;
  const int code =
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  if (code != MPI_SUCCESS)
    return makeError(CAVS_ERROR_IO,
                     "distributed training: MPI_Init_thread failed: {}",
                     errorString(code));
  ownsMpi = true;
  // Errors of the runtime's own MPI use come back as codes, not aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::atexit(finishMpi);
  return Status();
}

void finalizeMpi() { finishMpi(); }

Communicator::~Communicator() {
  // Freeing a communicator with requests still pending (after a timeout)
  // is erroneous; the process is about to end then anyway.
  if (comm_ != MPI_COMM_NULL && !failed_ && mpiActive())
    MPI_Comm_free(&comm_);
}

Status Communicator::create(double timeoutSeconds,
                            std::unique_ptr<Communicator> &out) {
  CAVS_RETURN_IF_ERROR(ensureMpiInitialized());
  std::unique_ptr<Communicator> comm(new Communicator());
  comm->timeoutSeconds_ = timeoutSeconds;
  MPI_Comm_rank(MPI_COMM_WORLD, &comm->rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &comm->size_);
  // The duplicate is a collective too: a rank that never starts must not
  // hang the others here either.
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Request request = MPI_REQUEST_NULL;
  CAVS_RETURN_IF_ERROR(comm->post(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &request),
                                  request, "joining the other ranks"));
  CAVS_RETURN_IF_ERROR(comm->wait("joining the other ranks"));
  comm->comm_ = dup;
  MPI_Comm_set_errhandler(comm->comm_, MPI_ERRORS_RETURN);
  out = std::move(comm);
  return Status();
}

Status Communicator::checkHealthy() const {
  if (!failed_)
    return Status();
  return makeError(CAVS_ERROR_IO,
                   "distributed training: rank {} of {}: an earlier "
                   "collective failed; the ranks are out of step (end the "
                   "job with cavs_dist_abort)",
                   rank_, size_);
}

Status Communicator::mpiError(int code, std::string_view what) {
  failed_ = true;
  markMpiFailed();
  return makeError(CAVS_ERROR_IO,
                   "distributed training: rank {} of {}: {} failed: {}", rank_,
                   size_, what, errorString(code));
}

Status Communicator::post(int code, const MPI_Request &request,
                          std::string_view what) {
  if (code != MPI_SUCCESS)
    return mpiError(code, what);
  pending_.push_back(request);
  return Status();
}

Status Communicator::postSum(void *data, int64_t count, MPI_Datatype type) {
  CAVS_RETURN_IF_ERROR(checkHealthy());
  MPI_Request request = MPI_REQUEST_NULL;
  return post(MPI_Iallreduce(MPI_IN_PLACE, data, static_cast<int>(count), type,
                             MPI_SUM, comm_, &request),
              request, "posting an all-reduce");
}

Status Communicator::postAllreduceSum(float *data, int64_t count) {
  return postSum(data, count, MPI_FLOAT);
}

Status Communicator::postAllreduceSum(double *data, int64_t count) {
  return postSum(data, count, MPI_DOUBLE);
}

Status Communicator::postAllgather(const void *send, int bytes, void *recv) {
  CAVS_RETURN_IF_ERROR(checkHealthy());
  MPI_Request request = MPI_REQUEST_NULL;
  return post(MPI_Iallgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE,
                             comm_, &request),
              request, "posting an all-gather");
}

Status Communicator::postAllgatherv(const int32_t *send, int count,
                                    int32_t *recv, const int *counts,
                                    const int *displs) {
  CAVS_RETURN_IF_ERROR(checkHealthy());
  MPI_Request request = MPI_REQUEST_NULL;
  return post(MPI_Iallgatherv(send, count, MPI_INT32_T, recv, counts, displs,
                              MPI_INT32_T, comm_, &request),
              request, "posting an all-gather");
}

Status Communicator::postBroadcast(void *data, int64_t bytes, int root) {
  CAVS_RETURN_IF_ERROR(checkHealthy());
  // MPI counts are int: large parameter stores go in pieces.
  constexpr int64_t piece = int64_t(1) << 30;
  for (int64_t done = 0; done < bytes; done += piece) {
    MPI_Request request = MPI_REQUEST_NULL;
    const int count = static_cast<int>(std::min(piece, bytes - done));
    CAVS_RETURN_IF_ERROR(
        post(MPI_Ibcast(static_cast<char *>(data) + done, count, MPI_BYTE, root,
                        comm_, &request),
             request, "posting a broadcast"));
  }
  return Status();
}

Status Communicator::progress() {
  CAVS_RETURN_IF_ERROR(checkHealthy());
  int done = 0;
  const int code = MPI_Testall(static_cast<int>(pending_.size()),
                               pending_.data(), &done, MPI_STATUSES_IGNORE);
  if (code != MPI_SUCCESS)
    return mpiError(code, "summing gradients");
  if (done)
    pending_.clear();
  return Status();
}

Status Communicator::wait(std::string_view what) {
  CAVS_RETURN_IF_ERROR(checkHealthy());
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = deadlineAfter(timeoutSeconds_);
  for (int polls = 0;; ++polls) {
    int done = 0;
    const int code = MPI_Testall(static_cast<int>(pending_.size()),
                                 pending_.data(), &done, MPI_STATUSES_IGNORE);
    if (code != MPI_SUCCESS)
      return mpiError(code, what);
    if (done) {
      pending_.clear();
      return Status();
    }
    if (Clock::now() >= deadline) {
      failed_ = true;
      markMpiFailed();
      return makeError(
          CAVS_ERROR_IO,
          "distributed training: rank {} of {}: {} did not complete within "
          "{} s: another rank died or hangs (the limit is "
          "cavs_dist_options::timeout_seconds or $CAVS_DIST_TIMEOUT)",
          rank_, size_, what, timeoutSeconds_);
    }
    // Spin briefly (the peers are usually just behind), then sleep, so a
    // waiting rank leaves the core to the others when ranks share cores.
    if (polls < 1000)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

} // namespace cavs::runtime
