//===- WordVectorsApi.cpp - C ABI of pretrained word vectors --------------===//
//
// A thin adapter from cavs/word_vectors.h onto loadWordVectors.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/word_vectors.h"
#include "support/Guard.h"
#include "vectors/WordVectors.h"

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_load_word_vectors(const char *path, const cavs_vocab *vocab,
                                   cavs_param_store *params, const char *param,
                                   uint32_t flags,
                                   cavs_word_vectors_report *out_report) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(path, "path"));
    CAVS_RETURN_IF_ERROR(requireNonNull(vocab, "vocab"));
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    CAVS_RETURN_IF_ERROR(requireNonNull(param, "param"));
    cavs_word_vectors_report report{};
    CAVS_RETURN_IF_ERROR(
        loadWordVectors(path, vocab->impl, params->impl, param, flags, report));
    if (out_report)
      *out_report = report;
    return Status();
  });
}

} // extern "C"
