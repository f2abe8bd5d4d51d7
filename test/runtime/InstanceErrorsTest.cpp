//===- InstanceErrorsTest.cpp - failures of the executor's C ABI ----------===//
//
// Every documented failure of cavs/instance.h through the C ABI, with its
// status and message: inconsistent definitions, batches that do not fit the
// model, missing or ill-sized inputs, passes in the wrong order, unknown
// names, a failing phase, and NULL arguments (never a crash).
//
//===----------------------------------------------------------------------===//
#include "ToyModels.h"
#include "ToyReference.h"
#include "cavs/dist.h"

#include <gtest/gtest.h>

#include <string>

namespace cavs::test {
namespace {

/// Expects `status` to be `expected` with a message containing each of
/// `fragments`.
void expectFailure(cavs_status status, cavs_status expected,
                   std::initializer_list<std::string> fragments) {
  EXPECT_EQ(status, expected)
      << cavs_status_string(status) << ": " << cavs_last_error_message();
  const std::string message = cavs_last_error_message();
  for (const std::string &fragment : fragments)
    EXPECT_NE(message.find(fragment), std::string::npos)
        << "message '" << message << "' lacks '" << fragment << "'";
}

/// Expects cavs_model_create of `toy` to fail with `message` (exactly).
void expectCreateFails(const ToyModel &toy, const std::string &message,
                       cavs_status expected = CAVS_ERROR_INVALID_ARGUMENT) {
  cavs_model *model = nullptr;
  EXPECT_EQ(cavs_model_create(&toy.def, 1, &model), expected);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(std::string(cavs_last_error_message()), message);
}

/// A C ABI instance, destroyed with the test.
class Instance {
public:
  explicit Instance(const ToyModel &toy) {
    EXPECT_EQ(cavs_model_create(&toy.def, 1, &model_), CAVS_OK)
        << cavs_last_error_message();
  }
  ~Instance() { cavs_model_destroy(model_); }
  cavs_model *get() const { return model_; }
  cavs_status setX(int64_t count) {
    const std::vector<float> x(count, 0.5f);
    return cavs_model_set_input(model_, "x", x.data(), count);
  }
  cavs_status forward(const GraphBatch &batch,
                      cavs_mode mode = CAVS_MODE_TRAIN) {
    return cavs_model_forward(model_, batch.get(), mode, nullptr);
  }

private:
  cavs_model *model_ = nullptr;
};

TEST(InstanceErrors, CreateChecksVersionAndDescriptor) {
  auto toy = sumTreeModel();
  cavs_model *model = nullptr;
  expectFailure(cavs_model_create(nullptr, 1, &model),
                CAVS_ERROR_INVALID_ARGUMENT, {"def must not be NULL"});
  expectFailure(cavs_model_create(&toy->def, 1, nullptr),
                CAVS_ERROR_INVALID_ARGUMENT, {"out_model must not be NULL"});
  toy->def.version = CAVS_PROGRAM_VERSION + 1;
  expectCreateFails(*toy,
                    "the model definition has program version " +
                        std::to_string(CAVS_PROGRAM_VERSION + 1) +
                        "; this runtime runs version " +
                        std::to_string(CAVS_PROGRAM_VERSION),
                    CAVS_ERROR_UNSUPPORTED);
  toy->def.version = CAVS_PROGRAM_VERSION;
  toy->def.model = nullptr;
  expectCreateFails(*toy, "the model definition has no parameter descriptor "
                          "(model is NULL)");
  toy->spec.params[0].shape[0] = 0;
  toy->link();
  cavs_model_create(&toy->def, 1, &model);
  EXPECT_NE(std::string(cavs_last_error_message()).find("model 'sumtree'"),
            std::string::npos);
}

TEST(InstanceErrors, CreateChecksSizesAndSparseParams) {
  auto toy = sumTreeModel();
  toy->def.state_width = -1;
  expectCreateFails(*toy, "model 'sumtree': the state width is -1; it must "
                          "be in [0, 2147483647]");
  toy = sumTreeModel();
  toy->train[0].arena_floats = int64_t(1) << 40;
  expectCreateFails(*toy, "model 'sumtree': vertex function 'node': "
                          "arena_floats is 1099511627776; it must be in [0, "
                          "2147483647]");
  toy = sumTreeModel();
  toy->sparseParams = {3};
  toy->link();
  expectCreateFails(*toy, "model 'sumtree': sparse parameter 3 is out of "
                          "range; the model has 1 parameters");
  toy->sparseParams = {0};
  toy->link();
  expectCreateFails(*toy, "model 'sumtree': sparse parameter 'w' is a vector; "
                          "only matrices (lookup tables) have rows to track");
}

TEST(InstanceErrors, CreateChecksGradientLists) {
  auto toy = sumTreeModel();
  const int32_t outOfRange[] = {1};
  toy->train[0].grad_params[CAVS_PHASE_BACKWARD_BODY] = outOfRange;
  toy->train[0].num_grad_params[CAVS_PHASE_BACKWARD_BODY] = 1;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': phase 4 "
                          "lists parameter 1 at 0; the list must ascend "
                          "within [0, 1)");
  toy = sumTreeModel();
  toy->train[0].num_grad_params[CAVS_PHASE_BACKWARD_BODY] = 1;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': phase 4 "
                          "lists 1 parameter gradients in a NULL array");
}

TEST(InstanceErrors, CreateChecksFunctions) {
  auto toy = sumTreeModel();
  toy->infer[0].arity = CAVS_MAX_ARITY + 1;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': arity "
                          "4097 is outside [0, 4096]");
  toy = sumTreeModel();
  toy->train[0].name = "";
  expectCreateFails(*toy, "model 'sumtree': vertex function 0 of the train "
                          "program has no name");
  toy = sumTreeModel();
  toy->trainPushes[0][0].is_i32 = 1;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': push 'y' "
                          "has is_i32 = 1; pushed values are f32");
  toy = sumTreeModel();
  toy->trainPulls[0][0].width = 0;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': pull 'x' "
                          "has width 0; it must be at least 1");
  toy = sumTreeModel();
  toy->trainPulls[0].push_back({"x", 0, 1, 0});
  toy->link();
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': pulls "
                          "'x' twice");
  toy = sumTreeModel();
  toy->trainPulls[0][0].limit = 3;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': pull 'x' "
                          "has limit 3; it must be 0 for an f32 value");
  toy = embedChainModel();
  toy->inferPulls[0][0].limit = -1;
  expectCreateFails(*toy, "model 'embedchain', vertex function 'cell': pull "
                          "'word' has limit -1; it must be at least 0");
  toy = sumTreeModel();
  toy->train[0].pushes = nullptr;
  expectCreateFails(*toy, "model 'sumtree', vertex function 'node': "
                          "num_pushes is 1 but pushes is NULL");
  toy = sumTreeModel();
  toy->def.infer.num_functions = 0;
  expectCreateFails(*toy, "model 'sumtree': the infer program has 0 vertex "
                          "functions; it needs at least 1");
}

TEST(InstanceErrors, CreateRequiresTheSameInterfaceInBothPrograms) {
  auto toy = leafSumModel();
  toy->def.infer.num_functions = 1;
  expectCreateFails(*toy, "model 'leafsum': the train program has 2 vertex "
                          "functions but the infer program has 1");
  toy = leafSumModel();
  toy->infer[1].name = "cell";
  expectCreateFails(*toy, "model 'leafsum': vertex function 1 is 'node' in "
                          "the train program but 'cell' in the infer program");
  toy = leafSumModel();
  toy->infer[1].arity = 3;
  expectCreateFails(*toy, "model 'leafsum', vertex function 'node': arity 2 "
                          "in the train program but 3 in the infer program");
  toy = leafSumModel();
  toy->inferPulls[0][0].width = 2;
  expectCreateFails(*toy, "model 'leafsum', vertex function 'leaf': pull 0 "
                          "is 'x' (f32[1]) in the train program but 'x' "
                          "(f32[2]) in the infer program");
  toy = leafSumModel();
  toy->inferPushes[1].clear();
  toy->link();
  expectCreateFails(*toy, "model 'leafsum', vertex function 'node': "
                          "num_pushes is 1 in the train program but 0 in the "
                          "infer program");
}

TEST(InstanceErrors, CreateRequiresOneTypePerName) {
  auto toy = leafSumModel();
  toy->trainPulls[1][0] = toy->inferPulls[1][0] = {"x", 1, 1, 0};
  expectCreateFails(*toy, "model 'leafsum': vertex functions 'leaf' and "
                          "'node' pull 'x' with different types (f32[1] and "
                          "i32)");
  toy = leafSumModel();
  toy->trainPushes[1][0].width = toy->inferPushes[1][0].width = 3;
  expectCreateFails(*toy, "model 'leafsum': vertex functions 'leaf' and "
                          "'node' push 'y' with different types (f32[1] and "
                          "f32[3])");
}

TEST(InstanceErrors, ForwardRejectsBatchesThatDoNotFit) {
  auto leafSum = leafSumModel();
  Instance model(*leafSum);
  expectFailure(model.forward(chainBatch({3}, 2)), CAVS_ERROR_INVALID_ARGUMENT,
                {"the batch has 1 vertex types but model 'leafsum' has 2 "
                 "vertex functions"});
  auto sumTree = sumTreeModel();
  Instance tree(*sumTree);
  expectFailure(tree.forward(chainBatch({3}, 3)), CAVS_ERROR_INVALID_ARGUMENT,
                {"vertex type 0 has arity 3 in the batch but vertex function "
                 "'node' of model 'sumtree' has arity 2"});
  expectFailure(tree.forward(chainBatch({3}, 2)), CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'sumtree' reads input 'x' (f32[1]) but it has not "
                 "been set (cavs_model_set_input)"});
  ASSERT_EQ(tree.setX(4), CAVS_OK);
  expectFailure(tree.forward(chainBatch({3}, 2)), CAVS_ERROR_INVALID_ARGUMENT,
                {"input 'x' of model 'sumtree' holds 4 floats but the batch "
                 "needs 3 (3 vertices of width 1)"});
  auto embed = embedChainModel();
  Instance chain(*embed);
  expectFailure(chain.forward(chainBatch({3}, 1)), CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'embedchain' reads input 'word' (i32) but the batch "
                 "has no attribute 'word'"});
  expectFailure(tree.forward(chainBatch({4}, 2), cavs_mode(7)),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'sumtree': unknown mode 7"});
}

TEST(InstanceErrors, RejectedBatchLeavesThePassIntact) {
  auto toy = sumTreeModel();
  Instance model(*toy);
  const GraphBatch batch = chainBatch({2, 3}, 2);
  ASSERT_EQ(model.setX(5), CAVS_OK);
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  EXPECT_NE(model.forward(chainBatch({3}, 2)), CAVS_OK);
  EXPECT_EQ(cavs_model_last_num_vertices(model.get()), 5);
  EXPECT_NE(cavs_model_output(model.get(), "y", nullptr), nullptr);
  EXPECT_EQ(cavs_model_backward(model.get()), CAVS_OK);
}

TEST(InstanceErrors, BackwardNeedsOneSuccessfulTrainForward) {
  auto toy = sumTreeModel();
  Instance model(*toy);
  const GraphBatch batch = chainBatch({4}, 2);
  expectFailure(cavs_model_backward(model.get()), CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'sumtree': cannot run backward: no forward pass has "
                 "run yet"});
  ASSERT_EQ(model.setX(4), CAVS_OK);
  ASSERT_EQ(model.forward(batch, CAVS_MODE_INFER), CAVS_OK);
  expectFailure(cavs_model_backward(model.get()), CAVS_ERROR_INVALID_ARGUMENT,
                {"cannot run backward: the last forward pass ran in infer "
                 "mode"});
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  ASSERT_EQ(cavs_model_backward(model.get()), CAVS_OK);
  expectFailure(cavs_model_backward(model.get()), CAVS_ERROR_INVALID_ARGUMENT,
                {"cannot run backward: backward already ran for the last "
                 "forward pass"});
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  ASSERT_EQ(model.setX(4), CAVS_OK);
  expectFailure(cavs_model_backward(model.get()), CAVS_ERROR_INVALID_ARGUMENT,
                {"cannot run backward: input 'x' changed after the last "
                 "forward pass"});
  // Parameters changed in between (backward ran with F's values of the old
  // ones: gradients of neither); reading them does not count.
  cavs_param_store *params = cavs_model_params(model.get());
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  EXPECT_NE(cavs_param_store_values(params), nullptr);
  ASSERT_EQ(cavs_model_backward(model.get()), CAVS_OK);
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  cavs_param_store_param_data(params, 0)[0] += 1.0f;
  expectFailure(cavs_model_backward(model.get()), CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'sumtree': cannot run backward: the parameters "
                 "changed after the last forward pass"});
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  EXPECT_EQ(cavs_model_backward(model.get()), CAVS_OK);
}

TEST(InstanceErrors, FailingPhaseAbortsThePass) {
  auto toy = embedChainModel();
  Instance model(*toy);
  GraphBuilder builder({1});
  builder.addAttribute("word");
  builder.addSample({0, 0, 0}, {-1, 0, 1}, {{1, 2, kEmbedRows + 3}});
  const GraphBatch bad = builder.finalize();
  double loss = -1;
  expectFailure(
      cavs_model_forward(model.get(), bad.get(), CAVS_MODE_TRAIN, &loss),
      CAVS_ERROR_INVALID_ARGUMENT,
      {"model 'embedchain', vertex function 'cell', forward eager "
       "phase: lookup index 9 is out of range [0, 6) at row 2"});
  EXPECT_EQ(loss, -1);
  EXPECT_EQ(cavs_model_output(model.get(), "h", nullptr), nullptr);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "output 'h' of model 'embedchain' is not available: no forward "
            "pass has run yet, or the last one failed");
  expectFailure(cavs_model_backward(model.get()), CAVS_ERROR_INVALID_ARGUMENT,
                {"cannot run backward: the last forward pass failed"});
}

TEST(InstanceErrors, OutOfRangeIdsNameTheSampleVertexAndInput) {
  auto toy = embedChainModel();
  // As cavsc records it: the lookup table's rows bound the word ids.
  toy->trainPulls[0][0].limit = toy->inferPulls[0][0].limit = kEmbedRows;
  Instance model(*toy);
  GraphBuilder builder({1});
  builder.addAttribute("word");
  builder.addSample({0, 0}, {-1, 0}, {{1, 2}});
  const GraphBatch good = builder.finalize();
  builder.addSample({0, 0}, {-1, 0}, {{1, 2}});
  builder.addSample({0, 0, 0}, {-1, 0, 1}, {{-1, kEmbedRows - 1, kEmbedRows}});
  const GraphBatch bad = builder.finalize();
  ASSERT_EQ(model.forward(good), CAVS_OK);
  for (cavs_mode mode : {CAVS_MODE_TRAIN, CAVS_MODE_INFER})
    expectFailure(model.forward(bad, mode), CAVS_ERROR_INVALID_ARGUMENT,
                  {"model 'embedchain': sample 1, vertex 2 (cell): pull "
                   "'word' = 6 is out of range [0, 6)"});
  // Rejected before anything changed: the good pass awaits its backward.
  EXPECT_NE(cavs_model_output(model.get(), "h", nullptr), nullptr);
  EXPECT_EQ(cavs_model_backward(model.get()), CAVS_OK)
      << cavs_last_error_message();
}

TEST(InstanceErrors, NamesAndSizesOfInputsAndOutputs) {
  auto toy = embedChainModel();
  Instance model(*toy);
  const float data[4] = {};
  int64_t width = -1;
  expectFailure(cavs_model_set_input(model.get(), "z", data, 1),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'embedchain' has no input 'z'"});
  expectFailure(cavs_model_set_input(model.get(), "word", data, 1),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"input 'word' of model 'embedchain' is i32: it comes from "
                 "the batch attribute 'word', not from set_input"});
  EXPECT_EQ(cavs_model_output(model.get(), "y", &width), nullptr);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "model 'embedchain' has no output 'y'");
  EXPECT_EQ(width, 0);
  EXPECT_EQ(cavs_model_output(model.get(), "h", nullptr), nullptr);
  EXPECT_EQ(cavs_model_input_grad(model.get(), "word", nullptr), nullptr);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "input 'word' of model 'embedchain' is i32 and has no gradient");
  expectFailure(cavs_model_set_output_grad(model.get(), "h", data, 4),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"cannot set the gradient of output 'h' of model "
                 "'embedchain': no forward pass has run yet"});

  GraphBuilder builder({1});
  builder.addAttribute("word");
  builder.addSample({0, 0}, {-1, 0}, {{1, 2}});
  const GraphBatch batch = builder.finalize();
  ASSERT_EQ(model.forward(batch), CAVS_OK);
  const float *h = cavs_model_output(model.get(), "h", &width);
  EXPECT_NE(h, nullptr);
  EXPECT_EQ(width, 2);
  expectFailure(cavs_model_set_output_grad(model.get(), "h", data, 3),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"the gradient of output 'h' of model 'embedchain' needs 4 "
                 "floats (2 vertices of width 2), not 3"});
  expectFailure(cavs_model_set_output_grad(model.get(), "y", data, 4),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'embedchain' has no output 'y'"});

  auto sumTree = sumTreeModel();
  sumTree->trainPulls[0][0].width = sumTree->inferPulls[0][0].width = 2;
  Instance wide(*sumTree);
  expectFailure(cavs_model_set_input(wide.get(), "x", data, 3),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"input 'x' of model 'sumtree' has width 2, so its size must "
                 "be a multiple of 2, not 3"});
  expectFailure(cavs_model_set_input(wide.get(), "x", data, -2),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"input 'x' of model 'sumtree' cannot have -2 floats"});
  // A count whose bytes wrap around the address space (2^62 + 2 floats
  // were stored as 2) or that no vector can hold.
  for (int64_t count : {(int64_t(1) << 62) + 2, int64_t(1) << 61})
    expectFailure(
        cavs_model_set_input(wide.get(), "x", data, count),
        CAVS_ERROR_INVALID_ARGUMENT,
        {std::to_string(count) + " floats are more than memory can hold"});
  expectFailure(
      cavs_model_set_output_grad(wide.get(), "h", data, int64_t(1) << 62),
      CAVS_ERROR_INVALID_ARGUMENT,
      {"4611686018427387904 floats are more than memory can hold"});
  EXPECT_EQ(cavs_model_input_grad(wide.get(), "x", nullptr), nullptr);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "the gradient of input 'x' of model 'sumtree' is not available: "
            "backward has not succeeded since the last forward pass");
}

TEST(InstanceErrors, NullArgumentsFailWithoutCrashing) {
  auto toy = sumTreeModel();
  Instance model(*toy);
  const GraphBatch batch = chainBatch({2}, 2);
  const float data[2] = {};
  const cavs_status invalid = CAVS_ERROR_INVALID_ARGUMENT;
  expectFailure(cavs_model_set_input(nullptr, "x", data, 2), invalid,
                {"model must not be NULL"});
  expectFailure(cavs_model_set_input(model.get(), nullptr, data, 2), invalid,
                {"name must not be NULL"});
  expectFailure(cavs_model_set_input(model.get(), "x", nullptr, 2), invalid,
                {"data must not be NULL"});
  expectFailure(
      cavs_model_forward(nullptr, batch.get(), CAVS_MODE_TRAIN, nullptr),
      invalid, {"model must not be NULL"});
  expectFailure(
      cavs_model_forward(model.get(), nullptr, CAVS_MODE_TRAIN, nullptr),
      invalid, {"batch must not be NULL"});
  expectFailure(cavs_model_set_output_enabled(nullptr, "y", 0), invalid,
                {"model must not be NULL"});
  expectFailure(cavs_model_set_output_enabled(model.get(), nullptr, 0),
                invalid, {"name must not be NULL"});
  expectFailure(cavs_model_set_output_grad(nullptr, "y", data, 2), invalid,
                {"model must not be NULL"});
  expectFailure(cavs_model_set_output_grad(model.get(), "y", nullptr, 2),
                invalid, {"data must not be NULL"});
  expectFailure(cavs_model_backward(nullptr), invalid,
                {"model must not be NULL"});
  expectFailure(cavs_model_step(nullptr, nullptr), invalid,
                {"model must not be NULL"});
  expectFailure(cavs_model_step(model.get(), nullptr), invalid,
                {"optimizer must not be NULL"});
  EXPECT_EQ(cavs_model_output(nullptr, "y", nullptr), nullptr);
  EXPECT_EQ(cavs_model_output(model.get(), nullptr, nullptr), nullptr);
  EXPECT_EQ(cavs_model_input_grad(nullptr, "x", nullptr), nullptr);
  EXPECT_EQ(cavs_model_definition(nullptr), nullptr);
  EXPECT_EQ(cavs_model_params(nullptr), nullptr);
  EXPECT_EQ(cavs_model_grads(nullptr), nullptr);
  EXPECT_EQ(cavs_model_last_timing(nullptr).schedule, 0.0);
  EXPECT_EQ(cavs_model_last_num_tasks(nullptr), 0);
  EXPECT_EQ(cavs_model_last_num_levels(nullptr), 0);
  EXPECT_EQ(cavs_model_last_num_vertices(nullptr), 0);
  EXPECT_EQ(cavs_model_device_name(nullptr), nullptr);
  cavs_model_destroy(nullptr);
  EXPECT_EQ(cavs_model_definition(model.get()), &toy->def);
}

TEST(InstanceErrors, StepNeedsAnOptimizerOfTheModel) {
  auto sumTree = sumTreeModel();
  auto leafSum = leafSumModel();
  Instance model(*sumTree);
  Instance other(*leafSum);
  cavs_optimizer_options options;
  ASSERT_EQ(cavs_optimizer_options_init(CAVS_OPTIMIZER_SGD, &options), CAVS_OK);
  cavs_optimizer *optimizer = nullptr;
  ASSERT_EQ(cavs_optimizer_create(cavs_model_params(other.get()), &options,
                                  &optimizer),
            CAVS_OK);
  // The optimizer is what the caller got wrong (it said the parameter
  // store belonged to the other model).
  expectFailure(cavs_model_step(model.get(), optimizer),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"the optimizer belongs to model 'leafsum'", "not to model "
                                                             "'sumtree'"});
  // So does the distributed trainer, when it is created (it failed at the
  // first step, after forward and backward ran); with or without MPI.
  cavs_dist_trainer *trainer = nullptr;
  expectFailure(
      cavs_dist_trainer_create(model.get(), optimizer, nullptr, &trainer),
      CAVS_ERROR_INVALID_ARGUMENT,
      {"the optimizer belongs to model 'leafsum'"});
  EXPECT_EQ(trainer, nullptr);
  cavs_optimizer_destroy(optimizer);
}

} // namespace
} // namespace cavs::test
