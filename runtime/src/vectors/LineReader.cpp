//===- LineReader.cpp - streamed lines of a plain or gzipped file ---------===//
//
// The buffer keeps the unread rest of the last chunk; a refill moves that
// partial line to the front and reads behind it, growing the buffer only
// for a line longer than it, so reading stays linear in the file's size.
//
//===----------------------------------------------------------------------===//
#include "vectors/LineReader.h"

#include "support/ReadFile.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <unistd.h>

namespace cavs::runtime {

namespace {
/// Bytes read per refill (and the buffer's initial size).
constexpr size_t kChunk = size_t(1) << 20;
} // namespace

void LineReader::GzCloser::operator()(gzFile_s *file) const { gzclose(file); }

Status LineReader::open(const std::string &path, const char *what,
                        LineReader &out) {
  int fd;
  CAVS_RETURN_IF_ERROR(openRegularFile(path, what, fd));
  gzFile file = gzdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    return makeError(CAVS_ERROR_OUT_OF_MEMORY,
                     "cannot read {} '{}': out of memory", what, path);
  }
  // zlib's own buffers: large reads of a big file in few calls.
  gzbuffer(file, kChunk);
  out = LineReader();
  out.file_.reset(file);
  out.path_ = path;
  out.what_ = what;
  out.buffer_.resize(kChunk);
  return Status();
}

bool LineReader::gzipped() const { return gzdirect(file_.get()) == 0; }

Status LineReader::fill(bool &more) {
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  if (end_ == buffer_.size())
    buffer_.resize(buffer_.size() * 2);
  const size_t room = std::min<size_t>(buffer_.size() - end_, INT_MAX);
  const int n =
      gzread(file_.get(), buffer_.data() + end_, static_cast<unsigned>(room));
  int code = Z_OK;
  const char *message = gzerror(file_.get(), &code);
  // A truncated stream reads as an end of file with Z_BUF_ERROR set.
  if (n < 0 || (n == 0 && code != Z_OK)) {
    if (code == Z_ERRNO)
      return makeError(CAVS_ERROR_IO, "cannot read {} '{}': {}", what_, path_,
                       std::strerror(errno));
    // zlib starts its message with the file's name, "<fd:N>: " here.
    std::string_view reason = message;
    if (const size_t colon = reason.find(": "); colon != reason.npos)
      reason.remove_prefix(colon + 2);
    return makeError(CAVS_ERROR_PARSE,
                     "{} '{}' is not a valid gzip stream: {} (after line {})",
                     what_, path_, reason, lineNumber_);
  }
  end_ += static_cast<size_t>(n);
  more = n > 0;
  return Status();
}

Status LineReader::next(std::string_view &line, bool &more) {
  for (;;) {
    const char *begin = buffer_.data() + begin_;
    if (const void *newline = std::memchr(begin, '\n', end_ - begin_)) {
      const size_t length = static_cast<const char *>(newline) - begin;
      line = std::string_view(begin, length);
      begin_ += length + 1;
      break;
    }
    if (atEnd_) {
      // The last line may lack its "\n".
      more = begin_ < end_;
      line = std::string_view(begin, end_ - begin_);
      begin_ = end_;
      if (!more)
        return Status();
      break;
    }
    bool read;
    CAVS_RETURN_IF_ERROR(fill(read));
    atEnd_ = !read;
  }
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  // A UTF-8 byte-order mark is no part of the first word.
  if (lineNumber_ == 0 && line.substr(0, 3) == kUtf8ByteOrderMark)
    line.remove_prefix(3);
  ++lineNumber_;
  more = true;
  return Status();
}

} // namespace cavs::runtime
