//===- LineReader.h - streamed lines of a plain or gzipped file -----------===//
//
// Word-vector files are large (glove.840B.300d.txt is 5.6 GB, 2 GB
// gzipped), so they are streamed line by line in a buffer that holds about
// one chunk, not read whole like the loaders' inputs. zlib reads both
// kinds: it recognizes a gzip stream by its magic bytes and passes any
// other file through unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_VECTORS_LINEREADER_H
#define CAVS_RUNTIME_VECTORS_LINEREADER_H

#include "support/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// zlib's gzFile is a pointer to this struct; declared here so that zlib.h
// stays out of the header.
struct gzFile_s;

namespace cavs::runtime {

/// The lines of a file, gzip-compressed or plain.
class LineReader {
public:
  /// Opens the regular file `path`; `what` names it in messages ("word
  /// vectors"). CAVS_ERROR_IO as readWholeFile.
  static Status open(const std::string &path, const char *what,
                     LineReader &out);

  /// Moves to the next line (without its "\n" or "\r\n"), valid until the
  /// next call; `more` is false at the end. A read failure is
  /// CAVS_ERROR_IO, a corrupt or truncated gzip stream CAVS_ERROR_PARSE.
  Status next(std::string_view &line, bool &more);
  /// 1-based number of the current line.
  int64_t lineNumber() const { return lineNumber_; }
  /// Whether the file is a gzip stream.
  bool gzipped() const;

private:
  /// Appends the next chunk of the file to the buffer; false at the end.
  Status fill(bool &more);

  struct GzCloser {
    void operator()(gzFile_s *file) const;
  };
  std::string path_;
  const char *what_ = "";
  std::unique_ptr<gzFile_s, GzCloser> file_;
  std::vector<char> buffer_;
  /// The unread bytes are buffer_[begin_, end_).
  size_t begin_ = 0, end_ = 0;
  bool atEnd_ = false;
  int64_t lineNumber_ = 0;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_VECTORS_LINEREADER_H
