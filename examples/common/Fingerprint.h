//===- Fingerprint.h - FNV-1a fingerprints of an app's data -----*- C++ -*-===//
//
// Two runs, or two ranks of one run, must sometimes have loaded the same
// data: a resumed run its training samples, an evaluated checkpoint its
// vocabulary, the ranks of a distributed run their dev and test files.
// They compare 64-bit FNV-1a fingerprints, which are stable across builds
// and platforms (unlike std::hash), so checkpoints can carry them.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_FINGERPRINT_H
#define CAVS_EXAMPLES_FINGERPRINT_H

#include "cavs/runtime.hpp"
#include "cavs/sample_set.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace cavs_examples {

/// 64-bit FNV-1a over the bytes added, in order.
class Fnv1a {
public:
  void add(const void *bytes, size_t size);
  /// The int32 values' little-endian bytes, so that the fingerprint does
  /// not depend on the host's byte order.
  void add(cavs::Span<const int32_t> values);
  uint64_t value() const { return hash_; }

private:
  uint64_t hash_ = 0xcbf29ce484222325u;
};

/// The bytes of the file `path`; throws std::runtime_error when it cannot
/// be read.
uint64_t fileFingerprint(const std::string &path);

/// The words of `vocab` in id order (each followed by a newline).
uint64_t vocabFingerprint(const cavs::Vocab &vocab);

/// The samples of `set`: their types, children and attributes.
uint64_t samplesFingerprint(const cavs::SampleSet &set);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_FINGERPRINT_H
