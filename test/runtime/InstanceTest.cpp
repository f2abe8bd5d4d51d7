//===- InstanceTest.cpp - results of the executor (cavs/instance.h) -------===//
//
// Runs the toy models of ToyModels.h over random trees, DAGs with shared
// children, chains and two-type batches, and compares outputs, losses,
// input and parameter gradients with the direct evaluation of
// ToyReference.h; then checks the optimizer step, accumulation, buffer
// reuse across batch sizes, determinism, timing and the thread count.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"
#include "ToyModels.h"
#include "ToyReference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace cavs::test {
namespace {

/// Values of the toy models' initializers.
constexpr double kW = 0.5, kB = 0.25;

/// Trains one step's forward and backward of a scalar model (sumtree or
/// leafsum) on `batch` and compares everything with the reference.
void checkScalarModel(const ToyModel &toy, const GraphBatch &batch,
                      std::mt19937 &rng, float xLow, bool withOutputGrad) {
  const bool leafBias = toy.train.size() == 2;
  Model model(toy.def, 1);
  const int32_t n = batch.numVertices();
  const std::vector<float> x = randomFloats(rng, n, xLow);
  std::vector<float> dy;
  model.setInput("x", x);
  const double loss = model.forward(batch);
  if (withOutputGrad) {
    dy = randomFloats(rng, n);
    model.setOutputGrad("y", dy);
  }
  model.backward();

  const ScalarReference ref = scalarReference(batch, x, kW, leafBias, kB, dy);
  expectClose(model.output("y"), ref.h, "y");
  expectClose(loss, ref.loss, "loss");
  expectClose(model.inputGrad("x"), ref.dx, "dx");
  expectClose(model.grad("w")[0], ref.dw, "dw");
  if (leafBias)
    expectClose(model.grad("b")[0], ref.db, "db");
}

TEST(Instance, SumTreeMatchesReferenceOnRandomTrees) {
  auto toy = sumTreeModel();
  std::mt19937 rng(1);
  for (int32_t maxVertices : {1, 2, 9, 40})
    checkScalarModel(*toy, randomBatch(rng, 12, maxVertices, {}), rng, -1.0f,
                     /*withOutputGrad=*/true);
}

TEST(Instance, SumTreeMatchesReferenceOnDags) {
  auto toy = sumTreeModel();
  std::mt19937 rng(2);
  BatchShape shape;
  shape.dag = true;
  // Positive inputs: shared children grow the sums, so avoid cancellation.
  for (int round = 0; round < 4; ++round)
    checkScalarModel(*toy, randomBatch(rng, 10, 9, shape), rng, 0.5f,
                     /*withOutputGrad=*/round % 2 == 0);
}

TEST(Instance, SumTreeMatchesReferenceOnChains) {
  auto toy = sumTreeModel();
  std::mt19937 rng(3);
  // Equal lengths make every gather a view of the state; unequal ones mix.
  checkScalarModel(*toy, chainBatch({6, 6, 6}, 2), rng, -1.0f, true);
  checkScalarModel(*toy, chainBatch({3, 9, 1, 4}, 2), rng, -1.0f, false);
  checkScalarModel(*toy, chainBatch({300}, 2), rng, -1.0f, true);
}

TEST(Instance, TwoTypeBatchesRunEachFunctionOnItsVertices) {
  auto toy = leafSumModel();
  std::mt19937 rng(4);
  BatchShape shape;
  shape.leafTyping = true;
  checkScalarModel(*toy, randomBatch(rng, 15, 30, shape), rng, -1.0f, true);
  shape.dag = true;
  checkScalarModel(*toy, randomBatch(rng, 10, 8, shape), rng, 0.5f, false);
}

TEST(Instance, InferModeRunsTheInferProgram) {
  auto toy = leafSumModel();
  std::mt19937 rng(5);
  BatchShape shape;
  shape.leafTyping = true;
  const GraphBatch batch = randomBatch(rng, 8, 20, shape);
  const std::vector<float> x = randomFloats(rng, batch.numVertices());
  Model model(toy->def, 1);
  model.setInput("x", x);
  const double trainLoss = model.forward(batch);
  const std::vector<float> trainY = toVector(model.output("y"));
  // The infer arenas are narrower: a different layout, the same values.
  const double inferLoss = model.infer(batch);
  EXPECT_EQ(inferLoss, trainLoss);
  EXPECT_EQ(toVector(model.output("y")), trainY);
}

TEST(Instance, EmbeddingLookupsTrackTouchedRows) {
  auto toy = embedChainModel();
  std::mt19937 rng(6);
  BatchShape shape;
  shape.arity = 1;
  shape.words = true;
  for (bool dag : {false, true}) {
    shape.dag = dag;
    const GraphBatch batch = randomBatch(rng, 10, 12, shape);
    Model model(toy->def, 3);
    const std::vector<float> embed = toVector(model.param("embed"));
    const double loss = model.forward(batch);
    const std::vector<float> dy = randomFloats(rng, 2 * batch.numVertices());
    model.setOutputGrad("h", dy);
    model.backward();

    const EmbedReference ref = embedReference(batch, embed, dy);
    expectClose(model.output("h"), ref.h, "h");
    expectClose(loss, ref.loss, "loss");
    expectClose(model.grad("embed"), ref.dEmbed, "d embed");
    // Exactly the rows of the words that occur are marked.
    std::set<int32_t> used;
    for (int32_t word : batch.attribute("word"))
      if (word >= 0)
        used.insert(word);
    Span<const int32_t> touched = {
        cavs_grad_store_touched_rows(model.grads(), 0),
        size_t(cavs_grad_store_num_touched_rows(model.grads(), 0))};
    EXPECT_EQ(std::set<int32_t>(touched.begin(), touched.end()), used);
  }
}

TEST(Instance, GradientsAccumulateUntilTheStep) {
  auto toy = sumTreeModel();
  std::mt19937 rng(7);
  const GraphBatch batch = randomBatch(rng, 5, 10, {});
  const std::vector<float> x = randomFloats(rng, batch.numVertices());
  Model model(toy->def, 1);
  model.setInput("x", x);
  model.forward(batch);
  model.backward();
  const float once = model.grad("w")[0];
  model.forward(batch);
  model.backward();
  EXPECT_FLOAT_EQ(model.grad("w")[0], 2 * once);

  cavs_optimizer_options options = Optimizer::defaults(OptimizerKind::Sgd);
  options.learning_rate = 0.1;
  Optimizer sgd(model.params(), options);
  model.step(sgd);
  EXPECT_FLOAT_EQ(model.param("w")[0], float(kW) - 0.1f * (2 * once));
  EXPECT_EQ(model.grad("w")[0], 0.0f);
  EXPECT_GE(model.timing().optimizer, 0.0);
}

TEST(Instance, SparseStepsLeaveUntouchedRowsAlone) {
  auto toy = embedChainModel();
  // Only words 1 and 4 occur.
  GraphBuilder builder({1});
  builder.addAttribute("word");
  builder.addSample({0, 0, 0}, {-1, 0, 1}, {{1, 4, -1}});
  const GraphBatch batch = builder.finalize();
  Model model(toy->def, 9);
  Optimizer adam(model.params(), Optimizer::defaults(OptimizerKind::Adam));
  const std::vector<float> before = toVector(model.param("embed"));
  model.forward(batch);
  model.backward();
  model.step(adam);
  const std::vector<float> after = toVector(model.param("embed"));
  for (int32_t row = 0; row < kEmbedRows; ++row)
    for (int32_t j = 0; j < 2; ++j) {
      const size_t i = size_t(row) * 2 + j;
      if (row == 1 || row == 4)
        EXPECT_NE(after[i], before[i]) << "row " << row;
      else
        EXPECT_EQ(after[i], before[i]) << "row " << row;
    }
  EXPECT_EQ(cavs_grad_store_num_touched_rows(model.grads(), 0), 0);
}

/// Output, input gradient and parameter gradient of one fresh train step.
struct StepResult {
  std::vector<float> y, dx, dw, db;
  bool operator==(const StepResult &o) const {
    return y == o.y && dx == o.dx && dw == o.dw && db == o.db;
  }
};

StepResult runStep(Model &model, const GraphBatch &batch,
                   const std::vector<float> &x) {
  model.setInput("x", x);
  model.forward(batch);
  model.backward();
  StepResult result{toVector(model.output("y")), toVector(model.inputGrad("x")),
                    toVector(model.grad("w")), toVector(model.grad("b"))};
  cavs_grad_store_zero(model.grads());
  return result;
}

TEST(Instance, BuffersAreReusedAcrossBatchSizes) {
  auto toy = leafSumModel();
  std::mt19937 rng(8);
  BatchShape shape;
  shape.leafTyping = true;
  std::vector<GraphBatch> batches;
  std::vector<std::vector<float>> inputs;
  for (int32_t samples : {30, 2, 12, 1, 30}) {
    batches.push_back(randomBatch(rng, samples, 25, shape));
    inputs.push_back(randomFloats(rng, batches.back().numVertices()));
  }
  Model reused(toy->def, 1);
  for (size_t i = 0; i < batches.size(); ++i) {
    Model fresh(toy->def, 1);
    EXPECT_TRUE(runStep(reused, batches[i], inputs[i]) ==
                runStep(fresh, batches[i], inputs[i]))
        << "batch " << i;
  }
}

TEST(Instance, SameSeedGivesBitwiseIdenticalTraining) {
  auto toy = leafSumModel();
  std::mt19937 rng(9);
  BatchShape shape;
  shape.leafTyping = true;
  shape.dag = true;
  const GraphBatch batch = randomBatch(rng, 20, 10, shape);
  const std::vector<float> x = randomFloats(rng, batch.numVertices(), 0.5f);
  auto train = [&] {
    Model model(toy->def, 42);
    Optimizer adam(model.params(), Optimizer::defaults(OptimizerKind::Adam));
    std::vector<double> losses;
    for (int step = 0; step < 3; ++step) {
      model.setInput("x", x);
      losses.push_back(model.forward(batch));
      model.backward();
      model.step(adam);
    }
    return std::make_pair(
        losses, toVector(Span<float>(cavs_param_store_data(model.params()),
                                     cavs_param_store_size(model.params()))));
  };
  EXPECT_EQ(train(), train());
}

TEST(Instance, ReportsTasksLevelsAndTiming) {
  auto toy = leafSumModel();
  std::mt19937 rng(10);
  BatchShape shape;
  shape.leafTyping = true;
  const GraphBatch batch = randomBatch(rng, 6, 15, shape);
  Model model(toy->def, 1);
  EXPECT_EQ(model.numTasks(), 0);
  model.setInput("x", randomFloats(rng, batch.numVertices()));
  model.forward(batch);
  const Schedule schedule(batch);
  EXPECT_EQ(model.numTasks(), int32_t(schedule.tasks().size()));
  EXPECT_EQ(model.numLevels(), schedule.numLevels());
  EXPECT_EQ(cavs_model_last_num_vertices(model.get()), batch.numVertices());
  cavs_model_timing timing = model.timing();
  for (double seconds : {timing.schedule, timing.forward_eager,
                         timing.forward_body, timing.forward_lazy})
    EXPECT_GE(seconds, 0.0);
  EXPECT_EQ(timing.backward_body, 0.0);
  model.backward();
  timing = model.timing();
  EXPECT_GT(timing.backward_eager + timing.backward_body + timing.backward_lazy,
            0.0);
}

// The work of a pass is the compiler's per-vertex counts times the vertices
// of each type: the train program's in train mode, the infer program's in
// infer mode.
TEST(Instance, ReportsWorkFromThePerVertexCounts) {
  auto toy = leafSumModel();
  for (int phase = 0; phase < CAVS_NUM_PHASES; ++phase)
    for (size_t f = 0; f < toy->train.size(); ++f) {
      toy->train[f].flops[phase] = int64_t(10 * (f + 1) + phase);
      toy->train[f].copy_bytes[phase] = int64_t(f + 1);
      toy->infer[f].flops[phase] = int64_t(100 * (f + 1));
    }
  toy->link();
  std::mt19937 rng(11);
  BatchShape shape;
  shape.leafTyping = true;
  const GraphBatch batch = randomBatch(rng, 5, 12, shape);
  Model model(toy->def, 1);
  model.setInput("x", randomFloats(rng, batch.numVertices()));
  int64_t vertices[2] = {0, 0};
  for (int32_t type : batch.types())
    ++vertices[type];

  model.forward(batch);
  model.backward();
  cavs_model_work work = cavs_model_last_work(model.get());
  double forward = 0, backward = 0, bytes = 0;
  for (int f = 0; f < 2; ++f)
    for (int phase = 0; phase < CAVS_NUM_PHASES; ++phase) {
      (phase < 3 ? forward : backward) +=
          double(vertices[f]) * (10 * (f + 1) + phase);
      bytes += double(vertices[f]) * (f + 1);
    }
  EXPECT_EQ(work.forward_flops, forward);
  EXPECT_EQ(work.backward_flops, backward);
  EXPECT_EQ(work.copy_bytes, bytes);

  model.infer(batch);
  work = cavs_model_last_work(model.get());
  EXPECT_EQ(work.forward_flops,
            double(vertices[0]) * 300 + double(vertices[1]) * 600);
  EXPECT_EQ(work.backward_flops, 0.0);
  EXPECT_EQ(cavs_model_last_work(nullptr).forward_flops, 0.0);
}

TEST(Instance, KernelThreadCount) {
  const int32_t original = cavs_num_threads();
  EXPECT_GE(original, 1);
  EXPECT_EQ(cavs_set_num_threads(0), CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "the number of threads must be in [1, 4096], not 0");
  EXPECT_EQ(cavs_set_num_threads(-4), CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_set_num_threads(CAVS_MAX_THREADS + 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_num_threads(), original);
  ASSERT_EQ(cavs_set_num_threads(1), CAVS_OK);
  EXPECT_EQ(cavs_num_threads(), 1);
  // Creating a model does not reapply the default.
  auto toy = sumTreeModel();
  Model model(toy->def, 1);
  EXPECT_EQ(cavs_num_threads(), 1);
  ASSERT_EQ(cavs_set_num_threads(original), CAVS_OK);
}

} // namespace
} // namespace cavs::test
