//===- AtomicFile.cpp - POSIX atomic file writes -------------------------===//
//
// Plain POSIX calls: open/write/fsync/rename (std::ofstream can neither
// fsync nor report why a write failed). EINTR is retried everywhere.
//
//===----------------------------------------------------------------------===//
#include "support/AtomicFile.h"

#include "support/ReadFile.h"

#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace cavs::runtime {

namespace {

/// Buffered writes go out in chunks of this size.
constexpr size_t kWriteBufferSize = size_t(1) << 20;

/// The directory part of `path` ("." when there is none).
std::string directoryOf(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// As many links as the kernel follows in one path before ELOOP.
constexpr int kMaxSymbolicLinks = 40;

/// Numbers the saves of this process, so that threads saving the same path
/// at once never share a temporary file.
std::atomic<uint64_t> savesStarted{0};

/// Reads a canonical decimal number (no sign, no leading zero) that ends
/// `text` or precedes a '.' in it; the rest after the number is returned
/// in `rest`.
template <typename Number>
bool canonicalNumber(std::string_view text, Number &value,
                     std::string_view &rest) {
  if (text.empty() || text.front() == '0')
    return false;
  const char *end = text.data() + text.size();
  auto [parsed, status] = std::from_chars(text.data(), end, value);
  if (status != std::errc())
    return false;
  rest = text.substr(size_t(parsed - text.data()));
  return true;
}

/// Removes the temporary files (`<path>.tmp.<pid>.<n>`, and `<path>.tmp.<pid>`
/// of earlier versions) whose pid no longer exists: a save that was killed
/// leaves its temporary file (up to the size of a checkpoint) forever.
/// Those of live pids may be saves in progress. Best effort: a folder that
/// cannot be listed fails the save at its own step.
void removeStaleTemporaries(const std::string &path) {
  namespace fs = std::filesystem;
  const std::string prefix = fs::path(path).filename().string() + ".tmp.";
  std::error_code error;
  for (fs::directory_iterator it(directoryOf(path), error), end;
       !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    pid_t pid;
    uint64_t save;
    std::string_view rest;
    if (!canonicalNumber(std::string_view(name).substr(prefix.size()), pid,
                         rest))
      continue;
    if (!rest.empty() &&
        !(rest.front() == '.' && canonicalNumber(rest.substr(1), save, rest) &&
          rest.empty()))
      continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH)
      ::unlink(it->path().c_str());
  }
}

} // namespace

AtomicFileWriter::AtomicFileWriter(std::string path, const char *what)
    : path_(std::move(path)), target_(path_), what_(what) {}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0)
    ::close(fd_);
  if (created_ && !committed_)
    ::unlink(tempPath_.c_str());
}

Status AtomicFileWriter::ioError(const char *action) const {
  return makeError(CAVS_ERROR_IO, "cannot {} {} '{}' (via '{}'): {}", action,
                   what_, path_, tempPath_, std::strerror(errno));
}

Status AtomicFileWriter::resolveTarget() {
  namespace fs = std::filesystem;
  for (int links = 0;; ++links) {
    struct stat info;
    // Absent (a new file) or not reachable: creating the temporary file
    // then says why, if it cannot.
    if (::lstat(target_.c_str(), &info) != 0)
      return Status();
    if (S_ISREG(info.st_mode))
      return Status();
    if (!S_ISLNK(info.st_mode))
      return makeError(CAVS_ERROR_IO,
                       "cannot save {} '{}': {} is {}, not a regular file",
                       what_, path_,
                       target_ == path_ ? std::string("it")
                                        : "its link target '" + target_ + "'",
                       fileKind(info.st_mode));
    if (links == kMaxSymbolicLinks)
      return makeError(CAVS_ERROR_IO,
                       "cannot save {} '{}': too many levels of symbolic links",
                       what_, path_);
    std::error_code error;
    const fs::path link = fs::read_symlink(target_, error);
    if (error)
      return makeError(CAVS_ERROR_IO, "cannot save {} '{}': {}", what_, path_,
                       error.message());
    target_ =
        (link.is_absolute() ? link : fs::path(target_).parent_path() / link)
            .string();
  }
}

Status AtomicFileWriter::open() {
  if (path_.empty())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT, "the {} path is empty",
                     what_);
  CAVS_RETURN_IF_ERROR(resolveTarget());
  tempPath_ = target_ + ".tmp." + std::to_string(::getpid()) + "." +
              std::to_string(++savesStarted);
  removeStaleTemporaries(target_);
  // The name is this writer's alone: a file that has it was left by a
  // killed process whose pid this one reuses.
  for (bool retried = false;;) {
    do
      fd_ = ::open(tempPath_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                   0644);
    while (fd_ < 0 && errno == EINTR);
    if (fd_ >= 0 || errno != EEXIST || std::exchange(retried, true))
      break;
    ::unlink(tempPath_.c_str());
  }
  if (fd_ < 0)
    return ioError("create");
  created_ = true;
  buffer_.reserve(kWriteBufferSize);
  return Status();
}

Status AtomicFileWriter::writeAll(const unsigned char *data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return ioError("write");
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status();
}

Status AtomicFileWriter::flush() {
  CAVS_RETURN_IF_ERROR(writeAll(buffer_.data(), buffer_.size()));
  buffer_.clear();
  return Status();
}

Status AtomicFileWriter::write(const void *data, size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (buffer_.size() + size <= kWriteBufferSize) {
    buffer_.insert(buffer_.end(), bytes, bytes + size);
    return Status();
  }
  // Large tensors bypass the buffer.
  CAVS_RETURN_IF_ERROR(flush());
  return writeAll(bytes, size);
}

Status AtomicFileWriter::commit() {
  CAVS_RETURN_IF_ERROR(flush());
  // The new file takes the replaced one's permission bits: the rename
  // would give it the umask's (a private 0600 checkpoint became 0644).
  struct stat replaced;
  if (::stat(target_.c_str(), &replaced) == 0 &&
      ::fchmod(fd_, replaced.st_mode & 07777) != 0)
    return ioError("keep the permissions of");
  if (::fsync(fd_) != 0)
    return ioError("sync");
  if (::close(std::exchange(fd_, -1)) != 0)
    return ioError("close");
  if (::rename(tempPath_.c_str(), target_.c_str()) != 0)
    return ioError("rename onto");
  committed_ = true;
  // Make the rename itself durable. Best effort: some file systems cannot
  // sync directories, and the checkpoint is complete either way.
  const int directory =
      ::open(directoryOf(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {
    ::fsync(directory);
    ::close(directory);
  }
  return Status();
}

} // namespace cavs::runtime
