//===- SstClassifier.h - a tree model trained on SST sentiment --*- C++ -*-===//
//
// The whole app of the SST tree models (treelstm, treegru, treelstm2type):
// they differ only in the compiled model, the name of the pushed hidden
// state and how vertices are typed, so each app's main() fills an SstModel
// and calls runSstClassifier. Training follows Tai et al. (2015): Adagrad,
// minibatches of 25 trees, L2 on the mean gradient, model selection on dev
// accuracy; the loss is at every node (dynet-benchmark's treenn) or, with
// --loss=root, at the roots only.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_SSTCLASSIFIER_H
#define CAVS_EXAMPLES_SSTCLASSIFIER_H

#include "cavs/sample_set.hpp"

#include "cavs/runtime.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace cavs_examples {

using cavs::SampleSet;

struct SstModel {
  SstModel(std::string program, std::string description, std::string output,
           cavs::TreeTyping typing, std::string defaultDataDir,
           std::string syntheticDataDir)
      : program(std::move(program)), description(std::move(description)),
        output(std::move(output)), typing(typing),
        defaultDataDir(std::move(defaultDataDir)),
        syntheticDataDir(std::move(syntheticDataDir)) {}

  /// The executable, e.g. "treelstm-train".
  std::string program;
  /// The paragraph at the top of --help.
  std::string description;
  /// Output of the model holding each vertex's hidden state.
  std::string output;
  /// How the SST loader types vertices (leaf/inner or a single type).
  cavs::TreeTyping typing;
  /// Default --data folder, and where a synthetic sample is generated.
  std::string defaultDataDir, syntheticDataDir;
  /// Default --checkpoint; none when empty.
  std::string checkpoint;
  /// Offers --distributed, data-parallel training over MPI ranks
  /// (Distributed.h).
  bool distributed = false;
  /// Optional: retypes a loaded split (e.g. two cell kinds) from the seed.
  std::function<void(SampleSet &set, uint64_t seed)> retype;
  /// A fresh model instance with parameters initialised from `seed`.
  std::function<std::unique_ptr<cavs::Model>(uint64_t seed,
                                             const std::string &device)>
      create;
};

/// Parses the command line and trains; returns the exit status.
int runSstClassifier(const SstModel &model, int argc, char **argv);

/// The same for the model class M that cavsc generated.
template <typename M>
int runSstClassifier(SstModel model, int argc, char **argv) {
  model.create = [](uint64_t seed,
                    const std::string &device) -> std::unique_ptr<cavs::Model> {
    return std::make_unique<M>(seed, device);
  };
  return runSstClassifier(static_cast<const SstModel &>(model), argc, argv);
}

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_SSTCLASSIFIER_H
