//===- ThreadedOpsTest.cpp - the CPU ops, bitwise, on any threads ---------===//
//
// Every op split over the pool (support/ThreadPool.h) is run on 1, 2 and 3
// threads from the same inputs, and its outputs must be bitwise equal:
// rows split by rows, accumulations by columns, products by blocks of C
// (OpenBLAS's products within rounding: its kernels do not promise it).
// $CAVS_MIN_PARALLEL_FLOATS is 1 in this program, so every call with more
// than one row (or column, or block) splits, down to a few floats. The
// sizes are odd, include fewer rows than threads and no rows at all. That
// one thread computes what the ops should is OpsTest's part.
//
//===----------------------------------------------------------------------===//
#include "RandomFloats.h"
#include "ops/CpuDeviceOps.h"
#include "ops/CpuOps.h"
#include "ops/GemmEngine.h"
#include "support/ThreadPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace cavs::test {
namespace {

using namespace cavs::runtime;

/// Every op splits from one float on; set before the first op reads it.
[[maybe_unused]] const bool kSplitEverything =
    setenv("CAVS_MIN_PARALLEL_FLOATS", "1", 1) == 0;

const int64_t kRowCounts[] = {0, 1, 2, 3, 7, 58};
const int64_t kWidths[] = {1, 17, 35};

std::vector<int32_t> randomIds(std::mt19937 &rng, int64_t count, int32_t low,
                               int32_t high) {
  std::uniform_int_distribution<int32_t> id(low, high - 1);
  std::vector<int32_t> ids(count);
  for (int32_t &v : ids)
    v = id(rng);
  return ids;
}

using Buffers = std::vector<std::vector<float>>;

/// Runs `op` on copies of `outputs` with 1, 2 and 3 threads; each run's
/// outputs must equal the 1-thread run's bit for bit, or, with a
/// `tolerance`, within it relative to the larger of 1 and the element.
void expectSameOnAnyThreads(const Buffers &outputs,
                            const std::function<void(Buffers &)> &op,
                            float tolerance = 0.0f) {
  Buffers expected;
  for (int32_t threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    setPoolThreads(threads);
    Buffers actual = outputs;
    op(actual);
    if (threads == 1) {
      expected = actual;
      continue;
    }
    for (size_t i = 0; i < actual.size(); ++i) {
      if (tolerance == 0.0f) {
        ASSERT_EQ(std::memcmp(actual[i].data(), expected[i].data(),
                              sizeof(float) * actual[i].size()),
                  0)
            << "output " << i;
        continue;
      }
      for (size_t e = 0; e < actual[i].size(); ++e)
        ASSERT_NEAR(actual[i][e], expected[i][e],
                    tolerance * std::max(1.0f, std::fabs(expected[i][e])))
            << "output " << i << ", element " << e;
    }
  }
  setPoolThreads(1);
}

/// Calls `check(rows, width)` for every size of the test.
template <typename Check> void forEachSize(Check check) {
  for (int64_t rows : kRowCounts)
    for (int64_t width : kWidths) {
      SCOPED_TRACE(std::to_string(rows) + " rows of " + std::to_string(width));
      check(rows, width);
    }
}

TEST(ThreadedOpsTest, SplitThresholdComesFromTheEnvironment) {
  EXPECT_EQ(minParallelFloats(), 1);
  setPoolThreads(3);
  EXPECT_EQ(partsFor(7, 7), 3);
  EXPECT_EQ(partsFor(2, 7), 2);
  EXPECT_EQ(partsFor(7, 0), 1);
  setPoolThreads(1);
}

TEST(ThreadedOpsTest, GatherAndScatterSplitByRows) {
  std::mt19937 rng(1);
  forEachSize([&](int64_t rows, int64_t width) {
    const int64_t stateRows = rows + 4, ld = width + 3;
    std::vector<float> state = randomFloats(rng, stateRows * width);
    std::vector<float> src = randomFloats(rng, rows * ld);
    std::vector<int32_t> children = randomIds(rng, 2 * rows, -1, stateRows);
    expectSameOnAnyThreads(
        {randomFloats(rng, rows * ld), state}, [&](Buffers &out) {
          cpu::gather(rows, 1, 2, children.data(), state.data(), width,
                      out[0].data(), ld);
          cpu::scatter(rows, src.data(), ld, out[1].data() + 4 * width, width);
        });
  });
}

TEST(ThreadedOpsTest, CopyAndZeroRowsSplitByRows) {
  std::mt19937 rng(2);
  forEachSize([&](int64_t rows, int64_t width) {
    std::vector<float> src = randomFloats(rng, rows * (width + 2));
    expectSameOnAnyThreads(
        {randomFloats(rng, rows * width), randomFloats(rng, rows * (width + 5)),
         randomFloats(rng, rows * (width + 1))},
        [&](Buffers &out) {
          // Dense on both sides (one copy per range) and strided.
          cpu::copy_rows(rows, width, src.data(), width, out[0].data(), width);
          cpu::copy_rows(rows, width, src.data(), width + 2, out[1].data(),
                         width + 5);
          cpu::zero_rows(rows, width, out[2].data(), width + 1);
        });
  });
}

TEST(ThreadedOpsTest, AccumulationsSplitByColumnsInRowOrder) {
  std::mt19937 rng(3);
  forEachSize([&](int64_t rows, int64_t width) {
    // Few destination rows, so most rows add into a row another row adds
    // into too.
    const int64_t targets = 3, ld = width + 2;
    std::vector<float> src = randomFloats(rng, rows * ld);
    std::vector<int32_t> children = randomIds(rng, rows, -1, targets);
    std::vector<int32_t> ids = randomIds(rng, 2 * rows, -1, targets);
    std::vector<int32_t> vertices = randomIds(rng, rows, 0, targets);
    expectSameOnAnyThreads(
        {randomFloats(rng, targets * width), randomFloats(rng, targets * width),
         randomFloats(rng, targets * width), randomFloats(rng, width)},
        [&](Buffers &out) {
          cpu::child_grad(rows, 0, 1, children.data(), src.data(), ld,
                          out[0].data(), width);
          ASSERT_EQ(cpu::lookup_grad(rows, ids.data(), 2, src.data(), ld,
                                     out[1].data(), targets, width),
                    CAVS_OK);
          cpu::scatter_rows(rows, vertices.data(), src.data(), ld,
                            out[2].data(), width, /*accumulate=*/1);
          cpu::column_sum(rows, width, src.data(), ld, out[3].data());
        });
  });
}

TEST(ThreadedOpsTest, VertexRowsAndLookupSplitByRows) {
  std::mt19937 rng(4);
  forEachSize([&](int64_t rows, int64_t width) {
    const int64_t tableRows = 9, ld = width + 1;
    std::vector<float> table = randomFloats(rng, tableRows * width);
    std::vector<float> src = randomFloats(rng, rows * ld);
    // Per batch vertex, indexed by vertex id.
    std::vector<float> external = randomFloats(rng, rows * width);
    std::vector<int32_t> ids = randomIds(rng, rows, -1, tableRows);
    // Distinct vertex ids, as a call's are.
    std::vector<int32_t> vertices(rows);
    for (int64_t r = 0; r < rows; ++r)
      vertices[r] = int32_t((r * 5 + 2) % rows);
    expectSameOnAnyThreads(
        {randomFloats(rng, rows * ld), randomFloats(rng, rows * ld),
         randomFloats(rng, rows * ld), randomFloats(rng, rows * width)},
        [&](Buffers &out) {
          ASSERT_EQ(cpu::lookup(rows, ids.data(), 1, table.data(), tableRows,
                                width, out[0].data(), ld),
                    CAVS_OK);
          cpu::gather_rows(rows, vertices.data(), external.data(), width,
                           out[1].data(), ld);
          cpu::gather_rows(rows, vertices.data(), nullptr, width, out[2].data(),
                           ld);
          cpu::scatter_rows(rows, vertices.data(), src.data(), ld,
                            out[3].data(), width, /*accumulate=*/0);
          cpu::scatter_rows(rows, vertices.data(), src.data(), ld, nullptr,
                            width, /*accumulate=*/0);
        });
  });
}

TEST(ThreadedOpsTest, SoftmaxesSplitByRows) {
  std::mt19937 rng(5);
  forEachSize([&](int64_t rows, int64_t width) {
    const int64_t ld = width + 2;
    std::vector<float> logits = randomFloats(rng, rows * ld);
    std::vector<float> grad = randomFloats(rng, rows);
    std::vector<int32_t> labels = randomIds(rng, rows, -1, int32_t(width));
    expectSameOnAnyThreads(
        {randomFloats(rng, rows * ld), randomFloats(rng, rows),
         randomFloats(rng, rows * width)},
        [&](Buffers &out) {
          cpu::softmax(rows, width, logits.data(), ld, out[0].data(), ld);
          ASSERT_EQ(cpu::softmax_cross_entropy(rows, width, logits.data(), ld,
                                               labels.data(), 1, out[1].data(),
                                               1),
                    CAVS_OK);
          ASSERT_EQ(cpu::softmax_cross_entropy_grad(
                        rows, width, logits.data(), ld, labels.data(), 1,
                        grad.data(), 1, out[2].data(), width),
                    CAVS_OK);
        });
  });
}

TEST(ThreadedOpsTest, CheckedOpsWriteNothingWhenALaterRowFails) {
  // The bad id sits in the last rows: a split that wrote before checking
  // every row would have written the first ranges.
  setPoolThreads(3);
  const int64_t rows = 7, width = 5;
  std::vector<float> table(4 * width, 1.0f), dst(rows * width, 9.0f);
  std::vector<int32_t> ids = {0, 1, 2, 3, 0, 1, 4};
  EXPECT_EQ(cpu::lookup(rows, ids.data(), 1, table.data(), 4, width, dst.data(),
                        width),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cpu::lookup_grad(rows, ids.data(), 1, dst.data(), width,
                             table.data(), 4, width),
            CAVS_ERROR_INVALID_ARGUMENT);
  std::vector<int32_t> labels = {0, 1, 2, 3, 4, 0, 5};
  EXPECT_EQ(cpu::softmax_cross_entropy(rows, width, table.data(), width,
                                       labels.data(), 1, dst.data(), width),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cpu::softmax_cross_entropy_grad(rows, width, table.data(), width,
                                            labels.data(), 1, table.data(), 0,
                                            dst.data(), width),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dst, std::vector<float>(rows * width, 9.0f));
  EXPECT_EQ(table, std::vector<float>(4 * width, 1.0f));
  setPoolThreads(1);
}

TEST(ThreadedOpsTest, GemmSplitsIntoBlocksOfC) {
  std::mt19937 rng(6);
  const std::string active = cpu::activeGemmEngine().name;
  for (const cpu::GemmEngine *engine : cpu::gemmEngines()) {
    SCOPED_TRACE(engine->name);
    ASSERT_TRUE(cpu::selectGemmEngine(engine->name).ok());
    // OpenBLAS's kernels take other code paths for other block shapes
    // (Haswell's and Zen's, which $OPENBLAS_CORETYPE=Haswell selects, change
    // the last bits of a product unless a block of rows starts at a multiple
    // of 12 rows, and for any cut of the columns; SkylakeX's for blocks of a
    // few rows): with it a product agrees across thread counts within
    // rounding only (docs/runtime.md).
    const float tolerance = engine->name == std::string("openblas") ? 1e-5f : 0.0f;
    // More rows than columns (blocks of rows) and fewer (of columns), in
    // the three uses of ops.def and with both operands transposed.
    struct Shape {
      int transA, transB;
      int64_t m, n, k;
    };
    for (Shape s : {Shape{0, 1, 7, 45, 19}, Shape{0, 0, 58, 33, 21},
                    Shape{1, 0, 61, 17, 5}, Shape{1, 1, 3, 2, 9},
                    Shape{0, 1, 1, 1, 3}, Shape{0, 0, 0, 5, 5},
                    Shape{1, 0, 5, 4, 3}, Shape{0, 0, 5, 4, 3},
                    Shape{1, 0, 9, 4, 2}, Shape{0, 0, 3, 17, 5},
                    Shape{0, 1, 2, 33, 4}, Shape{1, 0, 13, 6, 3}}) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                   std::to_string(s.k));
      const int64_t lda = (s.transA ? s.m : s.k) + 1;
      const int64_t ldb = (s.transB ? s.k : s.n) + 2, ldc = s.n + 3;
      std::vector<float> a = randomFloats(rng, (s.transA ? s.k : s.m) * lda);
      std::vector<float> b = randomFloats(rng, (s.transB ? s.n : s.k) * ldb);
      expectSameOnAnyThreads({randomFloats(rng, s.m * ldc)}, [&](Buffers &out) {
        cpu::gemm(s.transA, s.transB, s.m, s.n, s.k, 0.5f, a.data(), lda,
                  b.data(), ldb, 1.0f, out[0].data(), ldc);
      }, tolerance);
    }
  }
  ASSERT_TRUE(cpu::selectGemmEngine(active).ok());
}

/// A rows kernel: out row r = 2 · in row r + r, over `width` columns,
/// packed as (in, ld, out, ld, width) like a fused kernel's operands.
void doubleRows(int64_t begin, int64_t end, const int64_t *args) {
  const auto *in = reinterpret_cast<const float *>(args[0]);
  auto *out = reinterpret_cast<float *>(args[2]);
  for (int64_t r = begin; r < end; ++r)
    for (int64_t c = 0; c < args[4]; ++c)
      out[r * args[3] + c] = 2.0f * in[r * args[1] + c] + float(r);
}

TEST(ThreadedOpsTest, RunRowsRunsEveryRowOnce) {
  std::mt19937 rng(7);
  cavs_device_ops *table = cpuDeviceOps();
  forEachSize([&](int64_t rows, int64_t width) {
    std::vector<float> in = randomFloats(rng, rows * width);
    auto run = [&](Buffers &out) {
      const int64_t args[] = {reinterpret_cast<int64_t>(in.data()), width,
                              reinterpret_cast<int64_t>(out[0].data()), width,
                              width};
      table->run_rows(table, doubleRows, rows, width, args, 5);
    };
    expectSameOnAnyThreads({std::vector<float>(rows * width, 0.0f)}, run);
    setPoolThreads(3);
    Buffers out = {std::vector<float>(rows * width, 0.0f)};
    run(out);
    setPoolThreads(1);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < width; ++c)
        ASSERT_EQ(out[0][r * width + c], 2.0f * in[r * width + c] + float(r))
            << "row " << r << " column " << c;
  });
}

} // namespace
} // namespace cavs::test
