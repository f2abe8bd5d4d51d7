//===- ModelWrapperTest.cpp - the C++ Model wrapper (cavs/runtime.hpp) ----===//
//
// cavs::Model over a toy model: a training step, outputs and gradients as
// spans of the batch's size, parameters by name, frozen parameters,
// checkpoints with the optimizer, moves, and failures as cavs::Error.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"
#include "ToyModels.h"
#include "ToyReference.h"

#include <gtest/gtest.h>

namespace cavs::test {
namespace {

class ModelWrapper : public TempDirTest {};

TEST_F(ModelWrapper, TrainsSavesAndLoads) {
  auto toy = leafSumModel();
  std::mt19937 rng(1);
  BatchShape shape;
  shape.leafTyping = true;
  const GraphBatch batch = randomBatch(rng, 5, 12, shape);
  const size_t n = size_t(batch.numVertices());
  const std::vector<float> x = randomFloats(rng, int64_t(n));

  Model model(toy->def, 3);
  EXPECT_EQ(model.outputWidth("y"), 1);
  EXPECT_EQ(toVector(model.param("b")), std::vector<float>{0.25f});
  model.setInput("x", x);
  const double loss = model.forward(batch);
  EXPECT_EQ(model.output("y").size(), n);
  model.setOutputGrad("y", std::vector<float>(n, 0.5f));
  model.backward();
  EXPECT_EQ(model.inputGrad("x").size(), n);
  const ScalarReference ref =
      scalarReference(batch, x, 0.5, true, 0.25, std::vector<float>(n, 0.5f));
  expectClose(loss, ref.loss, "loss");
  expectClose(model.grad("b")[0], ref.db, "db");

  cavs_optimizer_options options = Optimizer::defaults(OptimizerKind::Sgd);
  options.momentum = 0.9;
  Optimizer sgd(model.params(), options);
  model.step(sgd);
  EXPECT_EQ(model.grad("w")[0], 0.0f);
  const std::string path = (dir / "leafsum.ckpt").string();
  model.save(path, &sgd);

  Model loaded(toy->def, 99);
  Optimizer restored(loaded.params(), Optimizer::defaults(OptimizerKind::Sgd));
  loaded.load(path, &restored);
  EXPECT_EQ(restored.stepCount(), 1);
  EXPECT_EQ(toVector(loaded.param("w")), toVector(model.param("w")));
  loaded.setInput("x", x);
  EXPECT_EQ(loaded.infer(batch), model.infer(batch));

  // A moved model keeps working.
  Model moved = std::move(loaded);
  EXPECT_EQ(moved.infer(batch), model.infer(batch));
  EXPECT_GT(moved.numTasks(), 0);
  EXPECT_GE(moved.numLevels(), 1);
  // The moved-from one throws, as the C calls fail for it: outputWidth
  // dereferenced its NULL definition, param() said it had no 'w'.
  for (auto call :
       {+[](Model &m) { m.outputWidth("y"); }, +[](Model &m) { m.param("w"); },
        +[](Model &m) { m.backward(); }, +[](Model &m) { m.deviceName(); }}) {
    try {
      call(loaded);
      ADD_FAILURE() << "no error from a moved-from model";
    } catch (const Error &e) {
      EXPECT_STREQ(e.what(), "model must not be NULL");
    }
  }
}

// Tests Model::freeze: a frozen parameter keeps its value through training
// steps while the other one moves, is still saved and loaded by
// checkpoints, and trains again once unfrozen.
TEST_F(ModelWrapper, FrozenParameterStays) {
  auto toy = leafSumModel();
  std::mt19937 rng(2);
  BatchShape shape;
  shape.leafTyping = true;
  const GraphBatch batch = randomBatch(rng, 4, 10, shape);
  Model model(toy->def, 5);
  model.setInput("x", randomFloats(rng, batch.numVertices()));
  model.freeze("w");
  EXPECT_TRUE(model.frozen("w"));
  EXPECT_FALSE(model.frozen("b"));
  Optimizer adam(model.params(), Optimizer::defaults(OptimizerKind::Adam));
  const std::vector<float> w = toVector(model.paramValues("w"));
  const std::vector<float> b = toVector(model.paramValues("b"));
  for (int step = 0; step < 3; ++step) {
    model.forward(batch);
    model.backward();
    EXPECT_NE(model.grad("w")[0], 0.0f) << "the gradient is still computed";
    model.step(adam);
  }
  EXPECT_EQ(toVector(model.paramValues("w")), w);
  EXPECT_NE(toVector(model.paramValues("b")), b);

  const std::string path = (dir / "frozen.ckpt").string();
  model.param("w")[0] = 4.5f; // frozen values stay writable
  model.save(path, &adam);
  Model loaded(toy->def, 6);
  loaded.load(path);
  EXPECT_EQ(loaded.paramValues("w")[0], 4.5f);
  EXPECT_FALSE(loaded.frozen("w")) << "checkpoints do not hold the flag";

  model.freeze("w", false);
  model.forward(batch);
  model.backward();
  model.step(adam);
  EXPECT_NE(model.paramValues("w")[0], 4.5f);
  expectError([&] { model.freeze("nope"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the model has no parameter 'nope'"});
}

TEST_F(ModelWrapper, FailuresThrow) {
  auto toy = sumTreeModel();
  Model model(toy->def, 1);
  expectError([&] { model.outputWidth("q"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the model has no output 'q'"});
  expectError([&] { model.param("q"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the model has no parameter 'q'"});
  expectError([&] { model.grad("q"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the model has no parameter 'q'"});
  expectError([&] { model.output("y"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"output 'y' of model 'sumtree' is not available"});
  expectError([&] { model.inputGrad("x"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the gradient of input 'x'"});
  expectError([&] { model.backward(); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"cannot run backward"});
  expectError([&] { model.forward(chainBatch({2}, 2)); },
              CAVS_ERROR_INVALID_ARGUMENT, {"reads input 'x'"});
  expectError([&] { model.load((dir / "none.ckpt").string()); }, CAVS_ERROR_IO,
              {"cannot open checkpoint"});
  toy->def.version = 0;
  expectError([&] { Model bad(toy->def, 1); }, CAVS_ERROR_UNSUPPORTED,
              {"program version 0"});
}

// Strings with a NUL byte are refused, not cut at it ("a\0b" added "a",
// "epoch\0x" set "epoch"); a lookup of one finds nothing.
TEST_F(ModelWrapper, StringsWithNulBytesThrow) {
  const std::string nulWord("a\0b", 3);
  cavs::Vocab vocab;
  expectError([&] { vocab.add(nulWord); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"holds a NUL byte at offset 1 of 3; the runtime would read "
               "'a'"});
  EXPECT_EQ(vocab.size(), 0);
  vocab.add("a");
  EXPECT_EQ(vocab.lookup(nulWord), -1);
  cavs::TrainState state;
  expectError([&] { state.setU64(std::string("epoch\0x", 7), 1); },
              CAVS_ERROR_INVALID_ARGUMENT, {"holds a NUL byte at offset 5"});
  auto toy = sumTreeModel();
  Model model(toy->def, 1);
  expectError([&] { model.param(std::string("b\0", 2)); },
              CAVS_ERROR_INVALID_ARGUMENT, {"holds a NUL byte"});
}

} // namespace
} // namespace cavs::test
