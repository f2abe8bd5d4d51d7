//===- ReadFile.cpp - whole-file reads of the runtime's inputs ------------===//
//
// Plain POSIX calls: open, fstat to check the kind and learn the size, then
// read, so that errno gives the reason of a failure for the message. EINTR
// is retried.
//
//===----------------------------------------------------------------------===//
#include "support/ReadFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cavs::runtime {

namespace {

/// Closes `fd` on scope exit, unless it was released (-1).
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

const char *fileKind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "a special file";
}

Status openRegularFile(const std::string &path, const char *what, int &fd,
                       size_t *size) {
  // O_NONBLOCK keeps open() from waiting for a writer when `path` is a
  // FIFO, which is then refused below; reads of regular files ignore it.
  int opened;
  do
    opened = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  while (opened < 0 && errno == EINTR);
  if (opened < 0)
    return makeError(CAVS_ERROR_IO, "cannot open {} '{}': {}", what, path,
                     std::strerror(errno));
  FdCloser closer{opened};
  struct stat info;
  if (::fstat(opened, &info) != 0)
    return makeError(CAVS_ERROR_IO, "cannot read {} '{}': {}", what, path,
                     std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    return makeError(CAVS_ERROR_IO,
                     "cannot read {} '{}': it is {}, not a regular file", what,
                     path, fileKind(info.st_mode));
  if (size)
    *size = static_cast<size_t>(info.st_size);
  closer.fd = -1;
  fd = opened;
  return Status();
}

Status readWholeFile(const std::string &path, const char *what,
                     FileBytes &out) {
  int fd;
  FileBytes bytes;
  CAVS_RETURN_IF_ERROR(openRegularFile(path, what, fd, &bytes.size));
  FdCloser closer{fd};
  bytes.data.reset(new unsigned char[bytes.size]);
  size_t done = 0;
  while (done < bytes.size) {
    const ssize_t n = ::read(fd, bytes.data.get() + done, bytes.size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return makeError(CAVS_ERROR_IO, "cannot read {} '{}': {}", what, path,
                       std::strerror(errno));
    if (n == 0) // Shrunk since fstat: what is there is the file.
      break;
    done += static_cast<size_t>(n);
  }
  bytes.size = done;
  out = std::move(bytes);
  return Status();
}

} // namespace cavs::runtime
