//===- CheckpointTest.cpp - checkpoint format, round trips, corruption ----===//
//
// Checks the runtime's files byte for byte against an independent encoder
// of the documented format, round trips of parameters and of every
// optimizer's state, and that every kind of damaged or mismatched file is
// rejected with a clear message while the model and optimizer stay
// untouched. Saving is checked to be atomic, including when a write fails
// half way (RLIMIT_FSIZE).
//
//===----------------------------------------------------------------------===//
#include "CheckpointBytes.h"
#include "ModelFixtures.h"
#include "TestSupport.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>
#include <tuple>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" int cavsTestTrainFromC(const char *checkpointPath);

namespace cavs::test {
namespace {

/// Non-default hyperparameters of each kind, so restoring them shows.
cavs_optimizer_options trainingOptions(OptimizerKind kind) {
  cavs_optimizer_options o = Optimizer::defaults(kind);
  o.weight_decay = 0.01;
  o.clip_norm = 5;
  switch (kind) {
  case OptimizerKind::Sgd:
    o.learning_rate = 0.05;
    o.momentum = 0.9;
    o.nesterov = 1;
    break;
  case OptimizerKind::Adagrad:
    o.learning_rate = 0.1;
    o.epsilon = 1e-6;
    break;
  case OptimizerKind::Adam:
    o.learning_rate = 0.01;
    o.beta1 = 0.8;
    o.beta2 = 0.99;
    o.epsilon = 1e-7;
    break;
  }
  return o;
}

/// The tiny model with an optimizer, trained for two steps.
struct Trained {
  explicit Trained(OptimizerKind kind, uint64_t seed = 1)
      : params(tinyModel().desc(), seed), grads(params),
        optimizer(params, trainingOptions(kind)) {
    step(0);
    step(1);
  }
  /// One step with gradients that depend on `step` only.
  void step(int step) {
    for (int32_t i = 0; i < params.numParams(); ++i) {
      Span<float> g = grads.values(i);
      for (size_t j = 0; j < g.size(); ++j)
        g[j] = 0.1f * std::sin(float(3 * i + j + 7 * step));
    }
    optimizer.step(params, grads);
  }

  ParamStore params;
  GradStore grads;
  Optimizer optimizer;
};

/// The Adam hyperparameters of trainingOptions, in the order of the format.
std::vector<std::pair<std::string, double>> adamHyperparameters() {
  return {{"learning_rate", 0.01}, {"weight_decay", 0.01}, {"clip_norm", 5},
          {"beta1", 0.8},          {"beta2", 0.99},        {"epsilon", 1e-7}};
}

/// A valid checkpoint of the tiny model with Adam state, written by the
/// independent encoder.
CheckpointSpec adamSpec() {
  ParamStore params(tinyModel().desc(), 3);
  CheckpointSpec spec = paramsSpec(params);
  spec.optimizerKind = CAVS_OPTIMIZER_ADAM;
  spec.stepCount = 2;
  spec.hyperparameters = adamHyperparameters();
  Span<float> data = params.data();
  std::vector<float> squares(data.begin(), data.end());
  for (float &value : squares)
    value *= value;
  spec.slots = {{"m", tensorsOf(params, {data.data(), data.size()})},
                {"v", tensorsOf(params, {squares.data(), squares.size()})}};
  return spec;
}

/// A training state with both types and values whose bits must survive.
TrainState sampleState() {
  TrainState state;
  state.setU64("epoch", 3);
  state.setF64("best_score", -0.0);
  state.setU64("shuffle_state", ~uint64_t(0));
  state.setF64("tiny", 4.9e-324);
  return state;
}

/// The fields of sampleState() as the file has them, in order.
std::vector<TrainFieldSpec> sampleStateSpec() {
  auto bits = [](double value) {
    uint64_t result;
    std::memcpy(&result, &value, sizeof result);
    return result;
  };
  return {{"epoch", 1, 3},
          {"best_score", 2, bits(-0.0)},
          {"shuffle_state", 1, ~uint64_t(0)},
          {"tiny", 2, bits(4.9e-324)}};
}

class CheckpointTest : public TempDirTest {
protected:
  std::string path(const std::string &name = "model.ckpt") const {
    return (dir / name).string();
  }

  /// Expects loading `file` into a trained tiny model with Adam to fail with
  /// `status` and `fragments`, both when loading the parameters only (if
  /// `alsoParamsOnly`) and with the optimizer, and both to stay untouched:
  /// same values, and the next step equal to that of an unharmed twin.
  void expectLoadFails(const std::string &file, cavs_status status,
                       std::initializer_list<std::string> fragments,
                       bool alsoParamsOnly = true) {
    Trained victim(OptimizerKind::Adam), twin(OptimizerKind::Adam);
    const std::vector<float> before = toVector(victim.params.data());
    if (alsoParamsOnly)
      expectError([&] { loadCheckpoint(file, victim.params); }, status,
                  fragments);
    expectError([&] { loadCheckpoint(file, victim.params, victim.optimizer); },
                status, fragments);
    TrainState state;
    state.setU64("epoch", 7);
    expectError(
        [&] {
          check(cavs_checkpoint_load_with_state(
              file.c_str(), victim.params.get(), victim.optimizer.get(),
              state.get()));
        },
        status, fragments);
    EXPECT_EQ(state.size(), 1);
    EXPECT_EQ(state.u64("epoch"), 7u);
    EXPECT_EQ(toVector(victim.params.data()), before);
    EXPECT_EQ(victim.optimizer.stepCount(), 2);
    EXPECT_EQ(victim.optimizer.options().beta1, 0.8);
    victim.step(2);
    twin.step(2);
    EXPECT_EQ(toVector(victim.params.data()), toVector(twin.params.data()))
        << "the optimizer state changed";
  }

  /// Writes `spec` and expects loading it to fail as in expectLoadFails.
  void expectSpecFails(const CheckpointSpec &spec, cavs_status status,
                       std::initializer_list<std::string> fragments,
                       bool alsoParamsOnly = true) {
    writeBytes(path(), encodeCheckpoint(spec));
    expectLoadFails(path(), status, fragments, alsoParamsOnly);
  }
};

// Tests the test encoder's CRC against the CRC-32C check value.
TEST(CheckpointBytes, Crc32cCheckValue) {
  EXPECT_EQ(referenceCrc32c("123456789"), 0xe3069283u);
  EXPECT_EQ(referenceCrc32c(""), 0u);
}

// Tests that saved files are exactly the documented format: parameters
// only, and with SGD momentum state (velocity = gradient after one step).
TEST_F(CheckpointTest, WritesTheDocumentedFormat) {
  ParamStore params(tinyModel().desc(), 1);
  saveCheckpoint(path(), params);
  EXPECT_EQ(readBytes(path()), encodeCheckpoint(paramsSpec(params)));

  GradStore grads(params);
  for (int32_t i = 0; i < params.numParams(); ++i)
    for (float &g : grads.values(i))
      g = 0.25f * float(i + 1);
  cavs_optimizer_options o = Optimizer::defaults(OptimizerKind::Sgd);
  o.learning_rate = 0.1;
  o.momentum = 0.9;
  Optimizer sgd(params, o);
  sgd.step(params, grads);
  saveCheckpoint(path(), params, sgd);
  CheckpointSpec spec = paramsSpec(params);
  spec.optimizerKind = CAVS_OPTIMIZER_SGD;
  spec.stepCount = 1;
  spec.hyperparameters = {{"learning_rate", 0.1},
                          {"weight_decay", 0},
                          {"clip_norm", 0},
                          {"momentum", 0.9},
                          {"nesterov", 0}};
  Span<float> g = grads.data();
  spec.slots = {{"velocity", tensorsOf(params, {g.data(), g.size()})}};
  EXPECT_EQ(readBytes(path()), encodeCheckpoint(spec));
  // No temporary file is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
}

// Tests a parameter round trip into a store initialised differently.
TEST_F(CheckpointTest, RoundTripParameters) {
  ParamStore saved(tinyModel().desc(), 1), loaded(tinyModel().desc(), 2);
  ASSERT_NE(toVector(saved.data()), toVector(loaded.data()));
  saveCheckpoint(path(), saved);
  loadCheckpoint(path(), loaded);
  EXPECT_EQ(toVector(loaded.data()), toVector(saved.data()));
}

// Tests, for every optimizer kind, that a restored optimizer continues
// exactly like the original: hyperparameters, step count and state.
TEST_F(CheckpointTest, RoundTripEachOptimizer) {
  for (OptimizerKind kind :
       {OptimizerKind::Sgd, OptimizerKind::Adagrad, OptimizerKind::Adam}) {
    SCOPED_TRACE(static_cast<int>(kind));
    Trained original(kind);
    saveCheckpoint(path(), original.params, original.optimizer);

    Trained restored(kind, 99);
    restored.optimizer.setLearningRate(0.5);
    restored.step(5); // different state and step count
    loadCheckpoint(path(), restored.params, restored.optimizer);
    EXPECT_EQ(toVector(restored.params.data()),
              toVector(original.params.data()));
    EXPECT_EQ(restored.optimizer.stepCount(), 2);
    EXPECT_EQ(restored.optimizer.options().learning_rate,
              original.optimizer.options().learning_rate);
    original.step(2);
    restored.step(2);
    EXPECT_EQ(toVector(restored.params.data()),
              toVector(original.params.data()));
  }
}

// Tests that restoring replaces the hyperparameters, including those that
// decide which state exists (SGD without momentum keeps none).
TEST_F(CheckpointTest, RestoresHyperparameters) {
  ParamStore params(tinyModel().desc(), 1);
  Optimizer plain(params, Optimizer::defaults(OptimizerKind::Sgd));
  saveCheckpoint(path(), params, plain);
  Trained momentum(OptimizerKind::Sgd);
  loadCheckpoint(path(), momentum.params, momentum.optimizer);
  EXPECT_EQ(momentum.optimizer.options().momentum, 0.0);
  EXPECT_EQ(momentum.optimizer.options().nesterov, 0);
  EXPECT_EQ(momentum.optimizer.options().learning_rate, 0.01);
  EXPECT_EQ(momentum.optimizer.stepCount(), 0);
  momentum.step(0); // runs without velocity
  EXPECT_EQ(momentum.optimizer.stepCount(), 1);
}

// Tests inference loading: parameters only from a checkpoint with state.
TEST_F(CheckpointTest, LoadsParametersOnly) {
  Trained trained(OptimizerKind::Adam);
  saveCheckpoint(path(), trained.params, trained.optimizer);
  ParamStore inference(tinyModel().desc(), 7);
  loadCheckpoint(path(), inference);
  EXPECT_EQ(toVector(inference.data()), toVector(trained.params.data()));
}

// Tests that tensors are matched by name: a file with reversed records,
// from the independent encoder, loads.
TEST_F(CheckpointTest, TensorOrderDoesNotMatter) {
  CheckpointSpec spec = adamSpec();
  std::reverse(spec.params.begin(), spec.params.end());
  std::reverse(spec.slots[1].tensors.begin(), spec.slots[1].tensors.end());
  writeBytes(path(), encodeCheckpoint(spec));
  Trained trained(OptimizerKind::Adam);
  loadCheckpoint(path(), trained.params, trained.optimizer);
  ParamStore expected(tinyModel().desc(), 3);
  EXPECT_EQ(toVector(trained.params.data()), toVector(expected.data()));
  EXPECT_EQ(trained.optimizer.stepCount(), 2);
}

// Tests that a conversion, which reads a checkpoint without a model,
// refuses optimizer slots that do not hold one tensor per parameter of its
// shape, as loading into the model does (it exported such a file).
TEST_F(CheckpointTest, ConversionChecksSlotsAgainstParameters) {
  struct Case {
    std::function<void(CheckpointSpec &)> change;
    std::string message;
  };
  const Case cases[] = {
      {[](CheckpointSpec &s) { s.slots[0].tensors.pop_back(); },
       "Adam state 'm' has no tensor for parameter 'b'"},
      {[](CheckpointSpec &s) {
         s.slots[1].tensors[3] = {"b", {6}, std::vector<float>(6, 0.0f)};
       },
       "Adam state 'v' has shape [6] for parameter 'b' of shape [5]"},
      {[](CheckpointSpec &s) {
         s.slots[0].tensors.push_back({"c", {1}, {0.0f}});
       },
       "Adam state 'm' holds tensor 'c', which is no parameter of the "
       "checkpoint"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    CheckpointSpec spec = adamSpec();
    c.change(spec);
    writeBytes(path(), encodeCheckpoint(spec));
    expectError(
        [&] { safetensorsFromCheckpoint(path(), path("out.safetensors")); },
        CAVS_ERROR_PARSE,
        {"checkpoint '" + path() + "' is malformed: " + c.message});
    EXPECT_FALSE(std::filesystem::exists(path("out.safetensors")));
  }
}

// Tests that names a safetensors header cannot hold are refused by name
// (the message was the JSON library's "[json.exception.type_error.316]").
TEST_F(CheckpointTest, ConversionRefusesNamesThatAreNotUtf8) {
  ParamStore params(tinyModel().desc(), 3);
  CheckpointSpec spec = paramsSpec(params);
  spec.params[1].name = "W\xff";
  writeBytes(path(), encodeCheckpoint(spec));
  expectError(
      [&] { safetensorsFromCheckpoint(path(), path("out.safetensors")); },
      CAVS_ERROR_INVALID_ARGUMENT,
      {"checkpoint '" + path() +
       "': the name of tensor 'W\\xff' is not UTF-8, which a safetensors "
       "header needs"});
  spec = paramsSpec(params);
  spec.model = "tiny\xc3";
  writeBytes(path(), encodeCheckpoint(spec));
  expectError(
      [&] { safetensorsFromCheckpoint(path(), path("out.safetensors")); },
      CAVS_ERROR_INVALID_ARGUMENT, {"the model name 'tiny\\xc3' is not UTF-8"});
  EXPECT_FALSE(std::filesystem::exists(path("out.safetensors")));
}

// Tests that the step count stops where the next step's count would no
// longer fit in int64 (a crafted count of 2^63 - 3 stepped twice overflowed
// and made Adam's update NaN), and that the refused step changes nothing.
TEST_F(CheckpointTest, StepCountStopsBeforeOverflow) {
  CheckpointSpec spec = adamSpec();
  spec.stepCount = (~uint64_t(0) >> 1) - 2;
  writeBytes(path(), encodeCheckpoint(spec));
  Trained trained(OptimizerKind::Adam);
  loadCheckpoint(path(), trained.params, trained.optimizer);
  trained.step(2);
  EXPECT_EQ(trained.optimizer.stepCount(),
            std::numeric_limits<int64_t>::max() - 1);
  const std::vector<float> before = toVector(trained.params.data());
  for (float value : before)
    ASSERT_TRUE(std::isfinite(value));
  try {
    trained.step(3);
    ADD_FAILURE() << "the step was taken";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "the optimizer has taken 9223372036854775806 "
                           "steps; the step count cannot grow further in "
                           "int64");
  }
  EXPECT_EQ(toVector(trained.params.data()), before);
  // The count saved there loads again.
  check(cavs_checkpoint_save_with_state(path("last.ckpt").c_str(),
                                        trained.params.get(),
                                        trained.optimizer.get(), nullptr));
  Trained other(OptimizerKind::Adam);
  loadCheckpoint(path("last.ckpt"), other.params, other.optimizer);
  EXPECT_EQ(other.optimizer.stepCount(),
            std::numeric_limits<int64_t>::max() - 1);
}

// Tests that a training state is written as documented and comes back
// field by field, bit for bit, in order; a file without one empties the
// state it loads into.
TEST_F(CheckpointTest, TrainStateRoundTrip) {
  Trained trained(OptimizerKind::Adam);
  check(cavs_checkpoint_save_with_state(path("params.ckpt").c_str(),
                                        trained.params.get(), nullptr,
                                        sampleState().get()));
  CheckpointSpec spec = paramsSpec(trained.params);
  spec.trainState = sampleStateSpec();
  EXPECT_EQ(readBytes(path("params.ckpt")), encodeCheckpoint(spec));

  check(cavs_checkpoint_save_with_state(path().c_str(), trained.params.get(),
                                        trained.optimizer.get(),
                                        sampleState().get()));
  Trained restored(OptimizerKind::Adam, 9);
  TrainState state;
  state.setU64("stale", 1);
  ASSERT_EQ(
      cavs_checkpoint_load_with_state(path().c_str(), restored.params.get(),
                                      restored.optimizer.get(), state.get()),
      CAVS_OK)
      << cavs_last_error_message();
  EXPECT_EQ(toVector(restored.params.data()), toVector(trained.params.data()));
  ASSERT_EQ(state.size(), 4);
  const char *names[] = {"epoch", "best_score", "shuffle_state", "tiny"};
  for (int32_t i = 0; i < 4; ++i) {
    const char *name = nullptr;
    cavs_train_field_type type{};
    ASSERT_EQ(cavs_train_state_field(state.get(), i, &name, &type), CAVS_OK);
    EXPECT_STREQ(name, names[i]);
    EXPECT_EQ(type, i % 2 ? CAVS_TRAIN_FIELD_F64 : CAVS_TRAIN_FIELD_U64);
  }
  EXPECT_EQ(state.u64("epoch"), 3u);
  EXPECT_TRUE(std::signbit(state.f64("best_score")));
  EXPECT_EQ(state.u64("shuffle_state"), ~uint64_t(0));
  EXPECT_EQ(state.f64("tiny"), 4.9e-324);

  // Parameters only, with a state: the file's state still comes back.
  ParamStore inference(tinyModel().desc(), 7);
  TrainState again;
  ASSERT_EQ(cavs_checkpoint_load_with_state(path().c_str(), inference.get(),
                                            nullptr, again.get()),
            CAVS_OK);
  EXPECT_EQ(again.size(), 4);

  saveCheckpoint(path("plain.ckpt"), trained.params, trained.optimizer);
  ASSERT_EQ(cavs_checkpoint_load_with_state(
                path("plain.ckpt").c_str(), restored.params.get(),
                restored.optimizer.get(), state.get()),
            CAVS_OK);
  EXPECT_EQ(state.size(), 0);
}

// Tests that a checkpoint of format version 1 (no training-state section),
// as the runtimes before version 2 wrote it, still loads: parameters,
// optimizer state, and an empty training state.
TEST_F(CheckpointTest, LoadsVersion1) {
  CheckpointSpec spec = adamSpec();
  spec.version = 1;
  writeBytes(path(), encodeCheckpoint(spec));
  Trained trained(OptimizerKind::Adam);
  TrainState state = sampleState();
  ASSERT_EQ(
      cavs_checkpoint_load_with_state(path().c_str(), trained.params.get(),
                                      trained.optimizer.get(), state.get()),
      CAVS_OK)
      << cavs_last_error_message();
  ParamStore expected(tinyModel().desc(), 3);
  EXPECT_EQ(toVector(trained.params.data()), toVector(expected.data()));
  EXPECT_EQ(trained.optimizer.stepCount(), 2);
  EXPECT_EQ(state.size(), 0);
  ParamStore inference(tinyModel().desc(), 7);
  loadCheckpoint(path(), inference);
  EXPECT_EQ(toVector(inference.data()), toVector(expected.data()));
}

// Tests the training state's C ABI: setting replaces by name (also the
// type), getting checks name and type, bad arguments are refused.
TEST(TrainState, CApi) {
  TrainState state;
  state.setU64("epoch", 1);
  state.setF64("score", 0.5);
  state.setF64("epoch", 2.5);
  EXPECT_EQ(state.size(), 2);
  EXPECT_EQ(state.f64("epoch"), 2.5);
  expectError([&] { state.u64("epoch"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"training-state field 'epoch' is a f64, not a u64"});
  expectError([&] { state.f64("best"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the training state has no field 'best'"});
  expectError([&] { state.setU64("", 1); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"a training-state field needs a name"});
  const char *name = nullptr;
  cavs_train_field_type type{};
  EXPECT_EQ(cavs_train_state_field(state.get(), 2, &name, &type),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "training-state field 2 does not exist (the state has 2)");
  EXPECT_EQ(cavs_train_state_set_u64(nullptr, "x", 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_train_state_get_u64(state.get(), "x", nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_train_state_num_fields(nullptr), 0);
  EXPECT_EQ(cavs_train_state_create(nullptr), CAVS_ERROR_INVALID_ARGUMENT);
}

// Tests optimizer-state mismatches: none in the file, or another kind.
TEST_F(CheckpointTest, OptimizerStateMustMatch) {
  ParamStore params(tinyModel().desc(), 1);
  saveCheckpoint(path("params.ckpt"), params);
  expectLoadFails(path("params.ckpt"), CAVS_ERROR_INVALID_ARGUMENT,
                  {"checkpoint '" + path("params.ckpt") +
                   "' holds no optimizer state to restore the Adam optimizer "
                   "from"},
                  false);
  Trained sgd(OptimizerKind::Sgd);
  saveCheckpoint(path("sgd.ckpt"), sgd.params, sgd.optimizer);
  expectLoadFails(path("sgd.ckpt"), CAVS_ERROR_INVALID_ARGUMENT,
                  {"checkpoint '" + path("sgd.ckpt") +
                   "' holds SGD optimizer state, not Adam"},
                  false);
}

// Tests files that are not checkpoints of this model: wrong magic, another
// version, another signature.
TEST_F(CheckpointTest, RejectsOtherFiles) {
  writeBytes(path(), "hello, world: not a checkpoint at all");
  expectLoadFails(path(), CAVS_ERROR_PARSE,
                  {"'" + path() + "' is not a cavs checkpoint (bad magic)"});

  CheckpointSpec spec = adamSpec();
  spec.version = 3;
  expectSpecFails(spec, CAVS_ERROR_UNSUPPORTED,
                  {"checkpoint '" + path() +
                   "' has format version 3; this runtime reads versions 1 "
                   "to 2"});
  spec.version = 0;
  expectSpecFails(spec, CAVS_ERROR_PARSE, {"has format version 0"});

  spec = adamSpec();
  spec.signature = 1;
  spec.model = "old";
  expectSpecFails(spec, CAVS_ERROR_INVALID_ARGUMENT,
                  {"checkpoint '" + path() +
                   "' was saved from model 'old' (signature "
                   "0x0000000000000001), not from model 'tiny' (signature "
                   "0x5eed5eed0000cafe)"});
}

// Tests a checkpoint whose parameters all match but whose signature does
// not: the signature also covers the state width, which the file does not
// record, so the message says that is what differs.
TEST_F(CheckpointTest, SignatureMismatchWithMatchingParameters) {
  CheckpointSpec spec = adamSpec();
  spec.signature = 1;
  expectSpecFails(spec, CAVS_ERROR_INVALID_ARGUMENT,
                  {"checkpoint '" + path() +
                   "' was saved from model 'tiny' (signature "
                   "0x0000000000000001), not from model 'tiny' (signature "
                   "0x5eed5eed0000cafe): every parameter has the model's "
                   "name and shape, so the state widths differ (or an older "
                   "cavsc signed one of the two)"});
}

// Tests that a checkpoint of another model with the same name (compiled
// with other sizes, say) is refused with its first difference, not only
// with the signatures.
TEST_F(CheckpointTest, SignatureMismatchNamesTheDifference) {
  struct Case {
    std::function<void(CheckpointSpec &)> change;
    std::string difference;
  };
  const Case cases[] = {
      {[](CheckpointSpec &s) {
         s.params[2] = {"W_f", {2, 5}, std::vector<float>(10, 0.0f)};
       },
       "parameter 'W_f' has shape [2, 5] in the checkpoint but [2, 4] in the "
       "model"},
      {[](CheckpointSpec &s) { s.params[2].name = "W_g"; },
       "tensor 'W_g' is not a parameter of model 'tiny'"},
      {[](CheckpointSpec &s) { s.params.pop_back(); },
       "parameter 'b' of model 'tiny' is missing"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.difference);
    CheckpointSpec spec = adamSpec();
    spec.signature = 1;
    c.change(spec);
    expectSpecFails(spec, CAVS_ERROR_INVALID_ARGUMENT,
                    {"checkpoint '" + path() +
                     "' was saved from model 'tiny' (signature "
                     "0x0000000000000001), not from model 'tiny' (signature "
                     "0x5eed5eed0000cafe): " +
                     c.difference});
  }
}

// Tests that a model name read from a checkpoint is quoted escaped and
// clipped, and the reason follows it.
TEST_F(CheckpointTest, ModelNameIsEscapedAndClipped) {
  CheckpointSpec spec = adamSpec();
  spec.signature = 1;
  spec.model = std::string("tiny\0", 5) + std::string(1000, 'm');
  expectSpecFails(spec, CAVS_ERROR_INVALID_ARGUMENT,
                  {"' was saved from model 'tiny\\x00" + std::string(75, 'm') +
                   "…(+925 bytes)' (signature 0x0000000000000001), not from "
                   "model 'tiny'"});
}

// Tests tensors that do not match the model: renamed, missing, extra,
// repeated, misshapen, in the parameters and in optimizer slots.
TEST_F(CheckpointTest, RejectsMismatchedTensors) {
  struct Case {
    std::function<void(CheckpointSpec &)> change;
    std::string message;
  };
  const TensorSpec widerWf{"W_f", {2, 5}, std::vector<float>(10, 0.0f)};
  const Case cases[] = {
      {[](CheckpointSpec &s) { s.params[2].name = "W_g"; },
       "': tensor 'W_g' is not a parameter of model 'tiny'"},
      {[](CheckpointSpec &s) { s.params.erase(s.params.begin() + 2); },
       "': parameter 'W_f' of model 'tiny' is missing"},
      {[](CheckpointSpec &s) {
         s.params.push_back({"extra", {1}, {1.0f}});
       },
       "': tensor 'extra' is not a parameter of model 'tiny'"},
      {[](CheckpointSpec &s) { s.params.push_back(s.params[0]); },
       "': parameter 'embed' appears twice"},
      {[&](CheckpointSpec &s) { s.params[2] = widerWf; },
       "': parameter 'W_f' has shape [2, 5] in the checkpoint but [2, 4] in "
       "the model"},
      {[](CheckpointSpec &s) {
         s.params[3].shape = {5, 1};
       },
       "': parameter 'b' has shape [5, 1] in the checkpoint but [5] in the "
       "model"},
      {[&](CheckpointSpec &s) { s.slots[1].tensors[2] = widerWf; },
       "', Adam state 'v': parameter 'W_f' has shape [2, 5] in the "
       "checkpoint but [2, 4] in the model"},
      {[](CheckpointSpec &s) { s.slots[0].tensors.pop_back(); },
       "', Adam state 'm': parameter 'b' of model 'tiny' is missing"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    CheckpointSpec spec = adamSpec();
    c.change(spec);
    expectSpecFails(spec, CAVS_ERROR_INVALID_ARGUMENT,
                    {"checkpoint '" + path() + c.message});
  }
}

// Tests malformed content behind a valid checksum (a faulty writer):
// records, optimizer kind, hyperparameters, slots, stray bytes.
TEST_F(CheckpointTest, RejectsMalformedContent) {
  struct Case {
    std::function<void(CheckpointSpec &)> change;
    cavs_status status;
    std::string message;
  };
  const Case cases[] = {
      {[](CheckpointSpec &s) { s.params[3].dtype = 2; }, CAVS_ERROR_UNSUPPORTED,
       "tensor 'b' has dtype 2; this runtime reads only dtype 1 (f32)"},
      {[](CheckpointSpec &s) { s.params[3].byteLength = 16; }, CAVS_ERROR_PARSE,
       "tensor 'b' of shape [5] holds 16 bytes instead of "
       "20"},
      {[](CheckpointSpec &s) {
         s.params[3].shape = {5, 1, 1};
       },
       CAVS_ERROR_PARSE, "tensor 'b' has rank 3; tensors have rank 1 or 2"},
      {[](CheckpointSpec &s) { s.params[3].shape = {0}; }, CAVS_ERROR_PARSE,
       "tensor 'b' has dimension 0, outside [1, 2147483647]"},
      {[](CheckpointSpec &s) { s.params[3].name = ""; }, CAVS_ERROR_PARSE,
       "a tensor has an empty name"},
      // The name runs into the rank (2), quoted escaped: a raw NUL would
      // cut the message before its reason.
      {[](CheckpointSpec &s) { s.params[1].nameLength = 9; }, CAVS_ERROR_PARSE,
       "tensor 'W_iou\\x02\\x00\\x00\\x00' has rank 6; tensors have rank 1 "
       "or 2"},
      {[](CheckpointSpec &s) { s.optimizerKind = 9; }, CAVS_ERROR_PARSE,
       "unknown optimizer kind 9"},
      {[](CheckpointSpec &s) { s.stepCount = ~uint64_t(0); }, CAVS_ERROR_PARSE,
       "the step count 18446744073709551615 leaves no room for another step "
       "in int64"},
      // 2^63 - 1 loaded, and the next step's count overflowed (a NaN loss).
      {[](CheckpointSpec &s) { s.stepCount = ~uint64_t(0) >> 1; },
       CAVS_ERROR_PARSE,
       "the step count 9223372036854775807 leaves no room for another step"},
      // nesterov is stored as a double; 0.5 was reported as -1.
      {[](CheckpointSpec &s) {
         s.optimizerKind = CAVS_OPTIMIZER_SGD;
         s.hyperparameters = {{"learning_rate", 0.1}, {"weight_decay", 0},
                              {"clip_norm", 0},       {"momentum", 0.9},
                              {"nesterov", 0.5}};
       },
       CAVS_ERROR_PARSE,
       "invalid hyperparameters: SGD: nesterov must be 0 or 1, not 0.5"},
      {[](CheckpointSpec &s) { s.hyperparameters[1].first = "gamma"; },
       CAVS_ERROR_PARSE, "unknown Adam hyperparameter 'gamma'"},
      {[](CheckpointSpec &s) { s.hyperparameters.pop_back(); },
       CAVS_ERROR_PARSE, "Adam hyperparameter 'epsilon' is missing"},
      {[](CheckpointSpec &s) {
         s.hyperparameters.push_back(s.hyperparameters[3]);
       },
       CAVS_ERROR_PARSE, "Adam hyperparameter 'beta1' appears twice"},
      {[](CheckpointSpec &s) { s.hyperparameters[3].second = 1.5; },
       CAVS_ERROR_PARSE,
       "invalid hyperparameters: Adam: beta1 must be in [0, 1), not 1.5"},
      {[](CheckpointSpec &s) { s.slots.pop_back(); }, CAVS_ERROR_PARSE,
       "Adam state has 1 slots; its hyperparameters need 2"},
      {[](CheckpointSpec &s) { s.slots[0].name = "mean"; }, CAVS_ERROR_PARSE,
       "Adam state slot 'mean' should be 'm'"},
      // A sum of squares below 0: sqrt(v) of the next step was NaN.
      {[](CheckpointSpec &s) { s.slots[1].tensors[3].values[2] = -0.25f; },
       CAVS_ERROR_PARSE,
       "Adam state 'v' of parameter 'b' holds -0.25 at element 2, but it "
       "sums squares"},
      {[](CheckpointSpec &s) { s.junk = "xy"; }, CAVS_ERROR_PARSE,
       "2 unexpected bytes before the checksum"},
      {[](CheckpointSpec &s) {
         s.trainState = {{"", 1, 0}};
       },
       CAVS_ERROR_PARSE, "a training-state field has an empty name"},
      {[](CheckpointSpec &s) {
         s.trainState = {{"epoch", 1, 1}, {"epoch", 1, 2}};
       },
       CAVS_ERROR_PARSE, "training-state field 'epoch' appears twice"},
      {[](CheckpointSpec &s) {
         s.trainState = {{"epoch", 3, 1}};
       },
       CAVS_ERROR_PARSE, "training-state field 'epoch' has the unknown type 3"},
      // Version 1 has no training-state section: its count is stray bytes.
      {[](CheckpointSpec &s) {
         s.version = 1;
         s.junk = std::string(4, '\0');
       },
       CAVS_ERROR_PARSE, "4 unexpected bytes before the checksum"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    CheckpointSpec spec = adamSpec();
    c.change(spec);
    expectSpecFails(spec, c.status, {"checkpoint '" + path() + "'", c.message});
  }
}

// Tests that every proper prefix of a checkpoint is reported as truncated
// at its length, leaving the model untouched.
TEST_F(CheckpointTest, TruncatedAtEveryOffset) {
  Trained trained(OptimizerKind::Adam);
  check(cavs_checkpoint_save_with_state(
      path("full.ckpt").c_str(), trained.params.get(), trained.optimizer.get(),
      sampleState().get()));
  const std::string bytes = readBytes(path("full.ckpt"));
  ASSERT_GT(bytes.size(), 1000u);
  Trained victim(OptimizerKind::Sgd);
  const std::vector<float> before = toVector(victim.params.data());
  for (size_t length = 0; length < bytes.size(); ++length) {
    writeBytes(path(), bytes.substr(0, length));
    ASSERT_EQ(cavs_checkpoint_load(path().c_str(), victim.params.get(),
                                   victim.optimizer.get()),
              CAVS_ERROR_PARSE)
        << "prefix of " << length << " bytes";
    const std::string message = cavs_last_error_message();
    ASSERT_NE(message.find("checkpoint '" + path() + "' is truncated at byte " +
                           std::to_string(length) + " ("),
              std::string::npos)
        << message;
  }
  EXPECT_EQ(toVector(victim.params.data()), before);
  EXPECT_EQ(victim.optimizer.options().kind, CAVS_OPTIMIZER_SGD);
  EXPECT_EQ(victim.optimizer.stepCount(), 2);
}

// Tests that flipping any byte is detected: in the magic, version and
// length by their own checks, everywhere else by the checksum.
TEST_F(CheckpointTest, FlippedByteAtEveryOffset) {
  Trained trained(OptimizerKind::Adagrad);
  check(cavs_checkpoint_save_with_state(
      path("full.ckpt").c_str(), trained.params.get(), trained.optimizer.get(),
      sampleState().get()));
  const std::string bytes = readBytes(path("full.ckpt"));
  Trained victim(OptimizerKind::Adagrad, 5);
  const std::vector<float> before = toVector(victim.params.data());
  for (size_t offset = 0; offset < bytes.size(); ++offset) {
    std::string damaged = bytes;
    damaged[offset] = char(damaged[offset] ^ 0x20);
    writeBytes(path(), damaged);
    const cavs_status status = cavs_checkpoint_load(
        path().c_str(), victim.params.get(), victim.optimizer.get());
    const std::string message = cavs_last_error_message();
    const char *expected = offset < 8    ? "(bad magic)"
                           : offset < 12 ? "has format version"
                           : offset < 20 ? "bytes"
                                         : "is corrupt: checksum mismatch";
    ASSERT_NE(status, CAVS_OK) << "byte " << offset;
    ASSERT_NE(message.find(expected), std::string::npos)
        << "byte " << offset << ": " << message;
  }
  EXPECT_EQ(toVector(victim.params.data()), before);
}

// Tests the length field: bytes after the recorded end, and a length too
// small for any checkpoint.
TEST_F(CheckpointTest, RejectsBadLengths) {
  const std::string bytes = encodeCheckpoint(adamSpec());
  writeBytes(path(), bytes + "abc");
  expectLoadFails(path(), CAVS_ERROR_PARSE,
                  {"checkpoint '" + path() +
                   "' has 3 unexpected bytes after "
                   "its end at byte " +
                   std::to_string(bytes.size())});
  std::string shortLength = bytes;
  shortLength[12] = 5;
  for (int i = 13; i < 20; ++i)
    shortLength[i] = 0;
  writeBytes(path(), shortLength);
  expectLoadFails(
      path(), CAVS_ERROR_PARSE,
      {"checkpoint '" + path() + "' records the impossible length 5"});
}

// Tests that a corrupt optimizer section fails a parameters-only load too:
// a checkpoint is valid as a whole or not at all.
TEST_F(CheckpointTest, ParamsOnlyLoadValidatesEverything) {
  CheckpointSpec spec = adamSpec();
  spec.slots[1].tensors[0].name = "embedding";
  writeBytes(path(), encodeCheckpoint(spec));
  ParamStore params(tinyModel().desc(), 1);
  const std::vector<float> before = toVector(params.data());
  expectError([&] { loadCheckpoint(path(), params); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"Adam state 'v': tensor 'embedding' is not a parameter"});
  EXPECT_EQ(toVector(params.data()), before);
}

// Tests I/O errors: missing file, files that are not regular files (a
// FIFO would block the open, /dev/zero never end), and unwritable
// locations.
TEST_F(CheckpointTest, IoErrors) {
  expectLoadFails(path("missing.ckpt"), CAVS_ERROR_IO,
                  {"cannot open checkpoint '" + path("missing.ckpt") +
                   "': No such file or directory"});
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  const std::pair<std::string, std::string> notRegular[] = {
      {dir.string(), "a directory"},
      {path("fifo"), "a FIFO"},
      {"/dev/zero", "a character device"}};
  for (const auto &[file, kind] : notRegular)
    expectLoadFails(file, CAVS_ERROR_IO,
                    {"cannot read checkpoint '" + file + "': it is " + kind +
                     ", not a regular file"});

  ParamStore params(tinyModel().desc(), 1);
  const std::string inMissingDir = path("no/such/dir/model.ckpt");
  expectError([&] { saveCheckpoint(inMissingDir, params); }, CAVS_ERROR_IO,
              {"cannot create checkpoint '" + inMissingDir + "' (via '" +
                   inMissingDir + ".tmp.",
               "'): No such file or directory"});
  writeBytes(path("file"), "x");
  const std::string underFile = path("file") + "/model.ckpt";
  expectError([&] { saveCheckpoint(underFile, params); }, CAVS_ERROR_IO,
              {"cannot create checkpoint '" + underFile, "Not a directory"});
  expectError([&] { saveCheckpoint("", params); },
              CAVS_ERROR_INVALID_ARGUMENT, {"the checkpoint path is empty"});
}

// Tests that a save, which renames a new file over its target, refuses a
// target that is no regular file (it would replace a device such as
// /dev/null, a FIFO or a directory, or the device a link names) and leaves
// it as it was, and that it follows a link to a regular file, which it
// replaces while the link stays.
TEST_F(CheckpointTest, SaveRefusesNonRegularTargetsAndFollowsLinks) {
  ParamStore params(tinyModel().desc(), 1);
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(path("folder"));
  std::filesystem::create_symlink("fifo", path("to-fifo"));
  const std::tuple<std::string, std::string, std::filesystem::file_type>
      refused[] = {
          {path("fifo"), "it is a FIFO", std::filesystem::file_type::fifo},
          {path("folder"), "it is a directory",
           std::filesystem::file_type::directory},
          {path("to-fifo"), "its link target '" + path("fifo") + "' is a FIFO",
           std::filesystem::file_type::symlink}};
  for (const auto &[file, what, type] : refused) {
    expectError([&] { saveCheckpoint(file, params); }, CAVS_ERROR_IO,
                {"cannot save checkpoint '" + file + "': " + what +
                 ", not a regular file"});
    EXPECT_EQ(std::filesystem::symlink_status(file).type(), type) << file;
  }

  saveCheckpoint(path("model.ckpt"), params);
  const std::string saved = readBytes(path("model.ckpt"));
  writeBytes(path("target.ckpt"), "old");
  std::filesystem::create_symlink("target.ckpt", path("link.ckpt"));
  saveCheckpoint(path("link.ckpt"), params);
  EXPECT_TRUE(std::filesystem::is_symlink(path("link.ckpt")));
  EXPECT_EQ(readBytes(path("target.ckpt")), saved);
  // A dangling link: the save creates the file it names.
  std::filesystem::create_symlink("new.ckpt", path("dangling.ckpt"));
  saveCheckpoint(path("dangling.ckpt"), params);
  EXPECT_TRUE(std::filesystem::is_symlink(path("dangling.ckpt")));
  EXPECT_EQ(readBytes(path("new.ckpt")), saved);
}

// Tests that a write failing half way (the file size limit) leaves the
// previous checkpoint intact and no temporary file behind.
TEST_F(CheckpointTest, FailedWriteKeepsPreviousCheckpoint) {
  Trained trained(OptimizerKind::Adam);
  saveCheckpoint(path(), trained.params, trained.optimizer);
  const std::string previous = readBytes(path());
  trained.step(2);

  // Writes past the limit fail with EFBIG instead of raising SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit original;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &original), 0);
  rlimit limited = original;
  limited.rlim_cur = 100;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  const cavs_status status = cavs_checkpoint_save(
      path().c_str(), trained.params.get(), trained.optimizer.get());
  const std::string message = cavs_last_error_message();
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &original), 0);
  std::signal(SIGXFSZ, SIG_DFL);

  EXPECT_EQ(status, CAVS_ERROR_IO);
  EXPECT_NE(message.find("cannot write checkpoint '" + path() + "' (via '" +
                         path() + ".tmp."),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  EXPECT_EQ(readBytes(path()), previous);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1)
      << "a temporary file was left behind";
  // The old checkpoint still loads.
  Trained reloaded(OptimizerKind::Adam, 8);
  loadCheckpoint(path(), reloaded.params, reloaded.optimizer);
}

// Tests that a save keeps the replaced file's permission bits (the renamed
// temporary file had the umask's: a private 0600 checkpoint became 0644),
// for checkpoints, safetensors files and vocabularies.
TEST_F(CheckpointTest, SaveKeepsPermissions) {
  Trained trained(OptimizerKind::Adam);
  const std::string tensors = (dir / "p.safetensors").string();
  const std::string words = (dir / "vocab.txt").string();
  cavs_vocab *vocab = nullptr;
  ASSERT_EQ(cavs_vocab_create(&vocab), CAVS_OK);
  int32_t id = -1;
  ASSERT_EQ(cavs_vocab_add(vocab, "w", &id), CAVS_OK);
  auto saveAll = [&] {
    saveCheckpoint(path(), trained.params, trained.optimizer);
    ASSERT_EQ(cavs_safetensors_save(tensors.c_str(), trained.params.get()),
              CAVS_OK);
    ASSERT_EQ(cavs_vocab_save(vocab, words.c_str()), CAVS_OK);
  };
  saveAll();
  for (const std::string &file : {path(), tensors, words})
    ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  saveAll();
  for (const std::string &file : {path(), tensors, words}) {
    struct stat info;
    ASSERT_EQ(::stat(file.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0600u) << file;
  }
  cavs_vocab_destroy(vocab);
}

// Tests that a save removes the temporary files that killed saves of the
// same path left (their pid is gone), and only those: not the one of a live
// process (the parent; this process's own name is the save's temporary
// file), nor those of other paths or with other suffixes.
TEST_F(CheckpointTest, SaveRemovesStaleTemporaries) {
  const pid_t child = ::fork();
  if (child == 0)
    ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const std::string deadPid = std::to_string(child);
  const std::string dead[] = {path() + ".tmp." + deadPid + ".7",
                              path() + ".tmp." + deadPid}; // earlier versions
  const std::string kept[] = {
      path() + ".tmp." + std::to_string(::getppid()) + ".1",
      path("other.ckpt") + ".tmp." + deadPid + ".1",
      path() + ".best.tmp." + deadPid + ".1",
      path() + ".tmp." + deadPid + "x",
      path() + ".tmp." + deadPid + ".1x",
      path() + ".tmp.0" + deadPid + ".1", // no pid is written so
  };
  for (const std::string &file : dead)
    writeBytes(file, "partial");
  for (const std::string &file : kept)
    writeBytes(file, "partial");
  Trained trained(OptimizerKind::Sgd);
  saveCheckpoint(path(), trained.params, trained.optimizer);
  for (const std::string &file : dead)
    EXPECT_FALSE(std::filesystem::exists(file)) << file;
  for (const std::string &file : kept)
    EXPECT_TRUE(std::filesystem::exists(file)) << file;
  Trained reloaded(OptimizerKind::Sgd, 8);
  loadCheckpoint(path(), reloaded.params, reloaded.optimizer);
  EXPECT_EQ(toVector(reloaded.params.data()), toVector(trained.params.data()));
}

// Tests saves of one path from several threads at once while another thread
// loads it: each save has a temporary file of its own (they shared
// `<path>.tmp.<pid>`, so saves failed to rename and loads saw partial
// files), every save succeeds and every load finds a whole checkpoint.
TEST_F(CheckpointTest, ConcurrentSavesOfOnePath) {
  Trained first(OptimizerKind::Adam), second(OptimizerKind::Adam, 2);
  saveCheckpoint(path(), first.params, first.optimizer);
  std::atomic<int> failedSaves{0}, failedLoads{0};
  std::atomic<bool> saving{true};
  auto saver = [&](Trained &trained) {
    for (int i = 0; i < 100; ++i)
      if (cavs_checkpoint_save(path().c_str(), trained.params.get(),
                               trained.optimizer.get()) != CAVS_OK)
        ++failedSaves;
  };
  std::thread loader([&] {
    Trained reloaded(OptimizerKind::Adam, 8);
    while (saving)
      if (cavs_checkpoint_load(path().c_str(), reloaded.params.get(),
                               reloaded.optimizer.get()) != CAVS_OK)
        ++failedLoads;
  });
  std::thread a(saver, std::ref(first)), b(saver, std::ref(second));
  a.join();
  b.join();
  saving = false;
  loader.join();
  EXPECT_EQ(failedSaves, 0);
  EXPECT_EQ(failedLoads, 0);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1)
      << "a temporary file was left behind";
}

// Tests that the optimizer must belong to the model being saved or loaded.
TEST_F(CheckpointTest, OptimizerOfAnotherModel) {
  Trained trained(OptimizerKind::Sgd);
  ModelSpec otherSpec;
  otherSpec.name = "other";
  otherSpec.signature = 0x99;
  otherSpec.params = {vectorParam("w", 2)};
  ParamStore other(otherSpec.desc(), 0);
  expectError([&] { saveCheckpoint(path(), other, trained.optimizer); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"the optimizer belongs to model 'tiny' (signature "
               "0x5eed5eed0000cafe), not to model 'other' (signature "
               "0x0000000000000099)"});
  saveCheckpoint(path(), trained.params, trained.optimizer);
  expectError([&] { loadCheckpoint(path(), other, trained.optimizer); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"the optimizer belongs to model 'tiny'"});
  EXPECT_EQ(cavs_checkpoint_save(nullptr, other.get(), nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "path must not be NULL");
  EXPECT_EQ(cavs_checkpoint_load(path().c_str(), nullptr, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "params must not be NULL");
}

// Tests the whole C ABI from strict C99 with a static descriptor, as a
// generated model library will use it (see ParamsFromC.c).
TEST_F(CheckpointTest, CApiFromC) {
  EXPECT_EQ(cavsTestTrainFromC(path().c_str()), 0) << cavs_last_error_message();
}

} // namespace
} // namespace cavs::test
