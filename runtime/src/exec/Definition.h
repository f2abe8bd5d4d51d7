//===- Definition.h - checking a generated model definition ---------------===//
//
// checkDefinition validates a cavs_model_def (cavs/program.h) beyond its
// parameter descriptor and indexes its external inputs and outputs: a pull
// or push name denotes one tensor over all vertex functions, so the
// executor keeps one buffer per distinct name and gives every function a
// table of pointers into them, in its own pull and push order.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_DEFINITION_H
#define CAVS_RUNTIME_EXEC_DEFINITION_H

#include "cavs/instance.h"
#include "params/ModelLayout.h"

#include <string>
#include <string_view>
#include <vector>

namespace cavs::runtime {

/// One distinct pull (input) or push (output) name of a model.
struct ExternalTensor {
  std::string name;
  /// Inputs only: an int32 per vertex, read from the batch attribute.
  bool isI32 = false;
  /// Values per vertex.
  int32_t width = 0;
};

/// The external tensors of a checked definition.
struct ModelInterface {
  std::vector<ExternalTensor> inputs;
  std::vector<ExternalTensor> outputs;
  /// pullInputs[f][i]: the input of pull i of function f; likewise
  /// pushOutputs for pushes.
  std::vector<std::vector<int32_t>> pullInputs;
  std::vector<std::vector<int32_t>> pushOutputs;

  /// Index of the input or output called `name`, or -1.
  int32_t findInput(std::string_view name) const;
  int32_t findOutput(std::string_view name) const;
};

/// Checks `def` (whose version and parameter descriptor, of layout
/// `layout`, are already validated): the state width and sizes, the sparse
/// parameters, both programs with identical interfaces, and that every pull
/// and push name has one type throughout. Fills `out` on success.
Status checkDefinition(const cavs_model_def &def, const ModelLayout &layout,
                       ModelInterface &out);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_DEFINITION_H
