//===- InputIds.cpp - range checks of a batch's token ids and labels ------===//
//
// One pass over the vertices in sample order, so that the first bad id is
// the one a user meets first reading the data.
//
//===----------------------------------------------------------------------===//
#include "exec/InputIds.h"

#include <vector>

namespace cavs::runtime {

Status checkInputIds(std::string_view model, const GraphBatch &batch,
                     const cavs_program_desc &program) {
  struct Check {
    const cavs_io_desc *pull;
    const int32_t *values;
  };
  // Per vertex type, the bounded pulls of its function.
  std::vector<std::vector<Check>> checks(program.num_functions);
  bool any = false;
  for (int32_t f = 0; f < program.num_functions; ++f) {
    const cavs_function_desc &fn = program.functions[f];
    for (int32_t i = 0; i < fn.num_pulls; ++i)
      if (fn.pulls[i].is_i32 && fn.pulls[i].limit > 0) {
        const int32_t attribute = batch.findAttribute(fn.pulls[i].name);
        checks[f].push_back(
            {&fn.pulls[i], batch.attributes[attribute].values.data()});
        any = true;
      }
  }
  if (!any)
    return Status();
  for (int32_t s = 0; s < batch.numSamples(); ++s) {
    const int32_t begin = batch.sampleOffsets[s];
    for (int32_t v = begin; v < batch.sampleOffsets[s + 1]; ++v)
      for (const Check &check : checks[batch.types[v]])
        if (check.values[v] >= check.pull->limit)
          return makeError(
              CAVS_ERROR_INVALID_ARGUMENT,
              "model '{}': sample {}, vertex {} ({}): pull '{}' "
              "= {} is out of range [0, {})",
              model, s, v - begin, program.functions[batch.types[v]].name,
              check.pull->name, check.values[v], check.pull->limit);
  }
  return Status();
}

} // namespace cavs::runtime
