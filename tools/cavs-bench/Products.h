//===- Products.h - merged and separate products (--products) --*- C++ -*-===//
//
// The N-ary Tree-LSTM's inner vertex multiplies each child's h by its own
// packed [5H x H] matrix (forward: two products over a task's rows) and the
// packed gradient by both matrices' transposes (backward: two more). Merging
// a pair into one product over the children side by side (forward K = 2H,
// backward N = 2H) is what issue 17 asks matmul merging to find. --products
// times both forms on the runtime's gemm op, with the operands laid out as
// the models lay them out, for a range of task rows, with the weights in
// cache and with them evicted, so that whether merging pays is measured on
// the machine at hand rather than assumed.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_PRODUCTS_H
#define CAVS_BENCH_PRODUCTS_H

#include "Options.h"

namespace cavs::bench {

/// Registers and runs the product benchmarks for options.hiddens,
/// options.threads and options.gemms (each in options.rounds interleaved
/// rounds), then prints the table of merged against separate GFLOP/s.
/// Returns the process status.
int runProducts(const Options &options);

} // namespace cavs::bench

#endif // CAVS_BENCH_PRODUCTS_H
