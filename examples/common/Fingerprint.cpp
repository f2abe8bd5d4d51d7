//===- Fingerprint.cpp - FNV-1a fingerprints of an app's data -------------===//
#include "Fingerprint.h"

#include <fstream>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace cavs_examples {

void Fnv1a::add(const void *bytes, size_t size) {
  const auto *byte = static_cast<const unsigned char *>(bytes);
  for (size_t i = 0; i < size; ++i)
    hash_ = (hash_ ^ byte[i]) * 0x100000001b3u;
}

void Fnv1a::add(cavs::Span<const int32_t> values) {
  for (const int32_t value : values)
    for (int byte = 0; byte < 4; ++byte) {
      const unsigned char bits = (uint32_t(value) >> (8 * byte)) & 0xffu;
      add(&bits, 1);
    }
}

uint64_t fileFingerprint(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::runtime_error("cannot read '" + path + "'");
  Fnv1a hash;
  char buffer[1 << 16];
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0)
    hash.add(buffer, size_t(file.gcount()));
  if (file.bad())
    throw std::runtime_error("cannot read '" + path + "'");
  return hash.value();
}

uint64_t vocabFingerprint(const cavs::Vocab &vocab) {
  Fnv1a hash;
  for (int32_t id = 0; id < vocab.size(); ++id) {
    const std::string word = vocab.word(id) + '\n';
    hash.add(word.data(), word.size());
  }
  return hash.value();
}

uint64_t samplesFingerprint(const cavs::SampleSet &set) {
  std::vector<int32_t> ids(size_t(set.size()));
  std::iota(ids.begin(), ids.end(), 0);
  const cavs::GraphBatch batch = set.batch(ids.data(), set.size());
  Fnv1a hash;
  hash.add(batch.sampleOffsets());
  hash.add(batch.types());
  for (int32_t v = 0; v < batch.numVertices(); ++v)
    hash.add(batch.children(v));
  for (int32_t a = 0; a < batch.numAttributes(); ++a)
    hash.add({cavs_graph_batch_attribute(batch.get(), a),
              size_t(batch.numVertices())});
  return hash.value();
}

} // namespace cavs_examples
