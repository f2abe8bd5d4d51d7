//===- Products.cpp - merged against separate products (--products) -------===//
//
// Operands as the runtime hands them to the engine: children's h and the
// gradient rows are rows of an arena block (about 5 H floats apart, the
// stride of the gate gradients' block, dialects/ArenaLayout.h),
// outputs are scratch rows (10 H floats: both children's products side by
// side), and a parameter read transposed is its transposed copy, so every
// call is the no-transpose form. Each iteration is timed by hand; with
// "weights:memory" a 64 MiB sweep before it, outside the timing, leaves the
// operands in memory, as the weights of a model larger than the caches are
// when the next task starts.
//
//===----------------------------------------------------------------------===//
#include "Products.h"

#include "Peak.h"
#include "Runner.h"

#include "cavs/ops.h"
#include "cavs/runtime.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <new>
#include <string>
#include <vector>

namespace cavs::bench {
namespace {

/// A task's rows: the last levels of a batch of 64 SST trees (8, 20), its
/// typical task (57) and the first levels of larger batches (120, 300).
constexpr int32_t kTaskRows[] = {8, 20, 57, 120, 300};

/// What the eviction sweep reads: more than any last-level cache here.
constexpr size_t kEvictFloats = size_t(64) << 18;

enum class Direction { Forward, Backward };

struct ProductCase {
  Direction direction = Direction::Forward;
  bool merged = false;
  int32_t hidden = 0, rows = 0, threads = 1;
  /// The weights come from memory (evicted before each call).
  bool cold = false;
  /// The GEMM engine; empty: the runtime's choice.
  std::string gemm;
  int32_t round = 0;
  /// GFLOP/s of the finished run; 0 until it ran.
  double rate = 0;

  std::string name() const {
    std::string name = "products/";
    name += direction == Direction::Forward ? "forward/" : "backward/";
    name += merged ? "merged" : "separate";
    name += "/h:" + std::to_string(hidden) + "/rows:" + std::to_string(rows) +
            (cold ? "/weights:memory" : "/weights:cache") +
            "/threads:" + std::to_string(threads);
    if (!gemm.empty())
      name += "/gemm:" + gemm;
    if (round > 0)
      name += "/round:" + std::to_string(round);
    return name;
  }
  /// The same shape, other form or round.
  bool sameShape(const ProductCase &other) const {
    return hidden == other.hidden && rows == other.rows &&
           threads == other.threads && cold == other.cold && gemm == other.gemm;
  }
};

/// Arena rows: a block of 5 H columns, plus a cache line (16 floats) where
/// that is a multiple of 1 KiB (H = 512).
int64_t arenaLd(int32_t hidden) {
  const int64_t columns = 5 * int64_t(hidden);
  return columns % 256 == 0 ? columns + 16 : columns;
}
/// Scratch rows: both children's products side by side.
int64_t scratchLd(int32_t hidden) { return 10 * int64_t(hidden); }

/// Operand values, small and varied so that a layout mistake shows in the
/// results: element i of child `child`'s matrix as the separate form stores
/// it, and element i of the arena.
float weightAt(int32_t child, int64_t i) {
  return 0.01f * float((i * 7 + child * 3) % 13) - 0.06f;
}
float arenaAt(int64_t i) { return 0.01f * float((i * 5) % 11) - 0.05f; }

/// The bytes of a case's buffers: arena and scratch rows, both matrices.
double productBytes(int32_t hidden, int32_t rows) {
  const double h = hidden;
  return 4.0 *
         (rows * double(arenaLd(hidden) + scratchLd(hidden)) + 10 * h * h);
}

/// The one or two products of a case, on its own buffers.
class Products {
public:
  Products(Direction direction, bool merged, int32_t hidden, int32_t rows)
      : direction_(direction), merged_(merged), h_(hidden), rows_(rows),
        arena_(size_t(rows) * arenaLd(hidden)),
        scratch_(size_t(rows) * scratchLd(hidden), 0.0f) {
    for (size_t i = 0; i < arena_.size(); ++i)
      arena_[i] = arenaAt(int64_t(i));
    // Separate: one [H x 5H] (forward, transposed copy) or [5H x H]
    // (backward) matrix per child, as two parameters are stored. Merged:
    // both in one, stacked along K (forward) or side by side along N
    // (backward).
    const int64_t h = h_, matrix = 5 * h * h;
    if (!merged_) {
      first_.resize(matrix), second_.resize(matrix);
      for (int64_t i = 0; i < matrix; ++i)
        first_[i] = weightAt(0, i), second_[i] = weightAt(1, i);
      return;
    }
    first_.resize(2 * matrix);
    for (int64_t i = 0; i < 2 * matrix; ++i)
      first_[i] =
          direction_ == Direction::Forward
              ? weightAt(int32_t(i / matrix), i % matrix)
              : weightAt(int32_t(i % (2 * h) / h), i / (2 * h) * h + i % h);
  }

  double flops() const { return 20.0 * rows_ * double(h_) * h_; }

  void run() {
    const int64_t ld = arenaLd(h_), out = scratchLd(h_), h = h_;
    const float *a = arena_.data(), *w = first_.data();
    float *c = scratch_.data();
    if (direction_ == Direction::Forward) {
      // [h_l h_r] · [W_lᵀ; W_rᵀ] (K = 2H), or h_l · W_lᵀ and h_r · W_rᵀ
      // into two outputs, which the fused kernel adds.
      if (merged_)
        return cavs_op_gemm(0, 0, rows_, 5 * h, 2 * h, 1.0f, a, ld, w, 5 * h,
                            0.0f, c, out);
      cavs_op_gemm(0, 0, rows_, 5 * h, h, 1.0f, a, ld, w, 5 * h, 0.0f, c, out);
      return cavs_op_gemm(0, 0, rows_, 5 * h, h, 1.0f, a + h, ld,
                          second_.data(), 5 * h, 0.0f, c + 5 * h, out);
    }
    // dY · [W_l W_r] (N = 2H), or dY · W_l and dY · W_r.
    if (merged_)
      return cavs_op_gemm(0, 0, rows_, 2 * h, 5 * h, 1.0f, a, ld, w, 2 * h,
                          0.0f, c, out);
    cavs_op_gemm(0, 0, rows_, h, 5 * h, 1.0f, a, ld, w, h, 0.0f, c, out);
    cavs_op_gemm(0, 0, rows_, h, 5 * h, 1.0f, a, ld, second_.data(), h, 0.0f,
                 c + h, out);
  }

  /// Output row r, as the merged form lays it out (forward: the two
  /// children's products added).
  std::vector<float> mergedRow(int32_t r) const {
    const float *row = scratch_.data() + r * scratchLd(h_);
    if (direction_ == Direction::Backward)
      return std::vector<float>(row, row + 2 * h_);
    std::vector<float> sum(row, row + 5 * h_);
    if (!merged_)
      for (int64_t n = 0; n < 5 * h_; ++n)
        sum[n] += row[5 * h_ + n];
    return sum;
  }

private:
  Direction direction_;
  bool merged_;
  int32_t h_, rows_;
  std::vector<float> arena_, scratch_, first_, second_;
};

/// Whether both forms of a product compute the same values (to rounding):
/// the benchmark compares equal work.
bool formsAgree(Direction direction, int32_t hidden, int32_t rows) {
  Products separate(direction, false, hidden, rows),
      merged(direction, true, hidden, rows);
  separate.run();
  merged.run();
  for (int32_t r = 0; r < rows; ++r) {
    const std::vector<float> a = separate.mergedRow(r), b = merged.mergedRow(r);
    for (size_t n = 0; n < a.size(); ++n)
      if (std::fabs(a[n] - b[n]) > 1e-4f * (1.0f + std::fabs(a[n]))) {
        std::fprintf(stderr,
                     "cavs-bench: the merged %s product differs from the "
                     "separate ones at H = %d, row %d, column %zu: %g "
                     "against %g\n",
                     direction == Direction::Forward ? "forward" : "backward",
                     hidden, r, n, double(b[n]), double(a[n]));
        return false;
      }
  }
  return true;
}

/// Reads kEvictFloats floats, one per cache line; returns their sum so the
/// reads are not optimized away.
float evictCaches(const std::vector<float> &sweep) {
  float sum = 0;
  for (size_t i = 0; i < sweep.size(); i += 16)
    sum += sweep[i];
  return sum;
}

void runCase(benchmark::State &state, ProductCase &c,
             const std::vector<float> &sweep) {
  cavs::check(cavs_set_num_threads(c.threads));
  if (!c.gemm.empty())
    cavs::check(cavs_set_gemm_engine(c.gemm.c_str()));
  Products products(c.direction, c.merged, c.hidden, c.rows);
  products.run(); // first touch of the buffers, untimed
  using Clock = std::chrono::steady_clock;
  double seconds = 0;
  for (auto _ : state) {
    if (c.cold)
      benchmark::DoNotOptimize(evictCaches(sweep));
    const auto start = Clock::now();
    products.run();
    const double elapsed =
        std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(elapsed);
    seconds += elapsed;
  }
  c.rate = seconds > 0
               ? products.flops() * double(state.iterations()) / seconds / 1e9
               : 0.0;
  state.counters["GFLOP/s"] = c.rate;
  state.SetLabel(cavs_gemm_engine());
}

/// The median GFLOP/s of the finished runs of one form of a shape.
double medianRate(const std::deque<ProductCase> &cases,
                  const ProductCase &shape, Direction direction, bool merged) {
  std::vector<double> rates;
  for (const ProductCase &c : cases)
    if (c.rate > 0 && c.sameShape(shape) && c.direction == direction &&
        c.merged == merged)
      rates.push_back(c.rate);
  return median(std::move(rates));
}

void printTable(const std::deque<ProductCase> &cases, int32_t rounds) {
  std::printf(
      "\nproducts (GFLOP/s%s): separate, merged, merged / separate\n",
      rounds > 1
          ? (", medians of " + std::to_string(rounds) + " rounds").c_str()
          : "");
  std::printf("  %6s %5s %8s %8s | %9s %8s %6s | %9s %8s %6s\n", "H", "rows",
              "weights", "threads", "fwd sep", "merged", "ratio", "bwd sep",
              "merged", "ratio");
  for (const ProductCase &c : cases) {
    // One line per shape: at its first forward separate case.
    if (c.round > 1 || c.direction != Direction::Forward || c.merged)
      continue;
    std::printf("  %6d %5d %8s %8d", c.hidden, c.rows,
                c.cold ? "memory" : "cache", c.threads);
    for (Direction direction : {Direction::Forward, Direction::Backward}) {
      const double separate = medianRate(cases, c, direction, false);
      const double merged = medianRate(cases, c, direction, true);
      if (separate > 0 && merged > 0)
        std::printf(" | %9.1f %8.1f %5.2fx", separate, merged,
                    merged / separate);
      else
        std::printf(" | %9s %8s %6s", "-", "-", "-");
    }
    std::printf("%s\n", c.gemm.empty() ? "" : ("  " + c.gemm).c_str());
  }
}

/// Registers the four benchmarks of `shape` (its direction and form are
/// set here): both forms of a direction one after the other, so that a
/// drifting machine slows both alike.
void registerShape(std::deque<ProductCase> &cases, const ProductCase &shape,
                   const std::vector<float> &sweep, double minSeconds) {
  for (Direction direction : {Direction::Forward, Direction::Backward})
    for (bool merged : {false, true}) {
      // A deque: the benchmarks keep references to their cases.
      ProductCase &c = cases.emplace_back(shape);
      c.direction = direction;
      c.merged = merged;
      auto *benchmark = benchmark::RegisterBenchmark(
          c.name().c_str(),
          [&c, &sweep](benchmark::State &state) { runCase(state, c, sweep); });
      benchmark->UseManualTime()->Unit(benchmark::kMicrosecond);
      // From memory, every call pays a sweep of the caches besides its own
      // time: a fixed count bounds the run.
      if (c.cold)
        benchmark->Iterations(std::max<int64_t>(10, int64_t(minSeconds * 50)));
      else
        benchmark->MinTime(minSeconds);
    }
}

} // namespace

int runProducts(const Options &options) {
  const std::vector<SgemmPeak> peaks = measureSgemmPeaks(options.threads);
  reportMachine(peaks, options.gemms);
  std::fflush(stdout);
  for (int32_t hidden : options.hiddens)
    for (int32_t rows : kTaskRows)
      for (Direction direction : {Direction::Forward, Direction::Backward}) {
        try {
          if (!formsAgree(direction, hidden, rows))
            return 1;
        } catch (const std::bad_alloc &) {
          std::fprintf(stderr,
                       "cavs-bench: --products at H = %d: the operands of "
                       "both forms for %d rows (%.1f GiB) do not fit in "
                       "memory\n",
                       hidden, rows,
                       2 * productBytes(hidden, rows) / 1073741824.0);
          return 1;
        }
      }
  const std::vector<float> sweep(kEvictFloats, 1.0f);
  std::vector<std::string> gemms = options.gemms;
  if (gemms.empty())
    gemms.push_back("");
  std::deque<ProductCase> cases;
  ProductCase shape;
  for (int32_t round = 1; round <= options.rounds; ++round)
    for (int32_t hidden : options.hiddens)
      for (bool cold : {false, true})
        for (int32_t rows : kTaskRows)
          for (int32_t threads : options.threads)
            for (const std::string &gemm : gemms) {
              // The sweep takes milliseconds, long enough for the pool's
              // workers to fall asleep: with more threads the call would
              // time their wake-up too.
              if (cold && threads > 1)
                continue;
              shape.hidden = hidden, shape.rows = rows;
              shape.threads = threads, shape.cold = cold, shape.gemm = gemm;
              shape.round = options.rounds > 1 ? round : 0;
              registerShape(cases, shape, sweep, options.minSeconds);
            }
  if (!runRegisteredBenchmarks())
    return 1;
  printTable(cases, options.rounds);
  return 0;
}

} // namespace cavs::bench
