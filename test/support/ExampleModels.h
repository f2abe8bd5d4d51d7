//===- ExampleModels.h - the example models as test cases -------*- C++ -*-===//
//
// Every model of examples/models, shrunk with -D overrides so that a test
// can compile and evaluate it in milliseconds, with the graph shapes it is
// meant for. Shared by the gradient checks and the model-library tests,
// which also run the corner-case models of test/Integration/Inputs.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TEST_SUPPORT_EXAMPLEMODELS_H
#define CAVS_TEST_SUPPORT_EXAMPLEMODELS_H

#include "test/lib/Evaluator/RandomGraph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace cavs::test {

struct ExampleModel {
  /// File name in `directory`.
  const char *file;
  /// -D overrides of its dims.
  std::vector<std::string> defines;
  std::vector<GraphShape> shapes;
  /// Where the file is: examples/models (CAVS_EXAMPLES_DIR) when null.
  const char *directory = nullptr;
};

/// The file name without `.cavs` (`treelstm`): what names a model's cases,
/// with '_' for the '-' that gtest refuses in a name (treelstm_nary).
inline std::string getModelStem(const ExampleModel &model) {
  std::string file = model.file;
  std::string stem = file.substr(0, file.find('.'));
  std::replace(stem.begin(), stem.end(), '-', '_');
  return stem;
}

/// Prints a model as its file name, so that gtest's messages say which case
/// ran instead of dumping the struct's bytes.
inline void PrintTo(const ExampleModel &model, std::ostream *os) {
  *os << model.file;
}

/// Names a test case on one example model after the model.
inline std::string
exampleModelName(const testing::TestParamInfo<ExampleModel> &info) {
  return getModelStem(info.param);
}

inline const std::vector<ExampleModel> &exampleModels() {
  static const std::vector<ExampleModel> models = {
      {"treelstm.cavs",
       {"V=20", "E=6", "H=5", "C=3"},
       {GraphShape::Tree, GraphShape::Dag}},
      {"treelstm-nary.cavs",
       {"V=20", "E=6", "H=5", "C=3"},
       {GraphShape::Tree, GraphShape::Dag}},
      {"treefc.cavs", {"V=20", "H=6", "C=3"}, {GraphShape::Tree}},
      {"chainlstm.cavs", {"V=20", "E=6", "H=5"}, {GraphShape::Chain}},
      {"tiedlm.cavs", {"V=20", "H=5"}, {GraphShape::Chain}},
      {"treegru.cavs", {"V=20", "E=6", "H=5", "C=3"}, {GraphShape::Tree}},
      {"twotype.cavs", {"V=20", "E=6", "H=5", "C=3"}, {GraphShape::Tree}},
      {"dag.cavs", {"F=4", "H=5", "C=3"}, {GraphShape::Dag}},
      {"treelstm2type.cavs",
       {"V=20", "E=6", "H=5", "C=3"},
       {GraphShape::Tree, GraphShape::Dag}},
      {"lattice.cavs", {"A=7", "V=9", "E=4", "H=5"}, {GraphShape::Dag}},
      {"attn_treelstm.cavs",
       {"V=20", "E=6", "H=6", "C=3", "A=4"},
       {GraphShape::Tree, GraphShape::Dag}},
  };
  return models;
}

#ifdef CAVS_TEST_MODELS_DIR
/// Models that are no example but exercise a corner of the compiler in a
/// compiled library (test/Integration/Inputs).
inline const std::vector<ExampleModel> &cornerCaseModels() {
  static const std::vector<ExampleModel> models = {
      {"state-outside-the-recursion.cavs",
       {},
       {GraphShape::Tree, GraphShape::Dag},
       CAVS_TEST_MODELS_DIR},
      {"inputs-as-logits.cavs", {}, {GraphShape::Tree}, CAVS_TEST_MODELS_DIR},
      {"table-between-dense.cavs",
       {},
       {GraphShape::Tree},
       CAVS_TEST_MODELS_DIR},
      {"products-of-parameters.cavs",
       {},
       {GraphShape::Tree, GraphShape::Dag},
       CAVS_TEST_MODELS_DIR},
  };
  return models;
}
#endif

} // namespace cavs::test

#endif // CAVS_TEST_SUPPORT_EXAMPLEMODELS_H
