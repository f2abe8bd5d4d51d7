//===- FileIo.cpp - POSIX atomic writes of checkpoint files ---------------===//
//
// Plain POSIX calls: open/write/fsync/rename (std::ofstream can neither
// fsync nor report why a write failed). EINTR is retried everywhere.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/FileIo.h"

#include "support/ReadFile.h"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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

/// Removes `<path>.tmp.<pid>` files whose pid no longer exists: a save that
/// was killed leaves its temporary file (up to the size of a checkpoint)
/// forever. Those of live pids may be saves in progress. Best effort: a
/// folder that cannot be listed fails the save at its own step.
void removeStaleTemporaries(const std::string &path) {
  namespace fs = std::filesystem;
  const std::string prefix = fs::path(path).filename().string() + ".tmp.";
  std::error_code error;
  for (fs::directory_iterator it(directoryOf(path), error), end;
       !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    const char *digits = name.c_str() + prefix.size();
    const char *nameEnd = name.c_str() + name.size();
    pid_t pid;
    auto [parsed, status] = std::from_chars(digits, nameEnd, pid);
    if (status == std::errc() && parsed == nameEnd && pid > 0 &&
        ::kill(pid, 0) != 0 && errno == ESRCH)
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
    target_ = (link.is_absolute() ? link
                                  : fs::path(target_).parent_path() / link)
                  .string();
  }
}

Status AtomicFileWriter::open() {
  if (path_.empty())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT, "the {} path is empty",
                     what_);
  CAVS_RETURN_IF_ERROR(resolveTarget());
  tempPath_ = target_ + ".tmp." + std::to_string(::getpid());
  removeStaleTemporaries(target_);
  do
    fd_ = ::open(tempPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                 0644);
  while (fd_ < 0 && errno == EINTR);
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
