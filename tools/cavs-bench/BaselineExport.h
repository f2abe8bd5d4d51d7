//===- BaselineExport.h - inputs of the PyTorch baselines ------*- C++ -*-===//
//
// The PyTorch baselines (tools/cavs-bench/baselines) start from the very
// parameters of a cavs model instance and train on the very batches
// cavs-bench runs, so that their losses can be compared step by step. This
// writes both to a folder in the format harness.py documents: manifest.json,
// params.f32 and one batch-NNN.i32 per batch.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_BASELINEEXPORT_H
#define CAVS_BENCH_BASELINEEXPORT_H

#include "cavs/runtime.hpp"

#include <string>
#include <vector>

namespace cavs::bench {

/// What the folder describes besides the model and the batches.
struct ExportHeader {
  std::string workload;
  int32_t hidden = 0;
  int32_t batchSize = 0;
  cavs_optimizer_options optimizer{};
};

/// Writes the current parameters of `model` and the first `count` of
/// `batches` (all of one vertex typing and attribute set) into `folder`,
/// which must exist. Throws std::runtime_error when a file cannot be
/// written.
void exportBaselineInputs(const std::string &folder, const ExportHeader &header,
                          cavs::Model &model,
                          const std::vector<cavs::GraphBatch> &batches,
                          size_t count);

} // namespace cavs::bench

#endif // CAVS_BENCH_BASELINEEXPORT_H
