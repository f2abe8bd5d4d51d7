//===- ModelLibraryTest.cpp - compiled model libraries vs. the evaluator --===//
//
// Each example model, shrunk with -D, is compiled to a shared object by the
// CPU backend (with every optimization on, and with each one off), loaded
// with dlopen and run by the runtime's executor on a batch of several random
// graphs. Loss, outputs, parameter gradients and input gradients must match
// the reference evaluator (double precision, vertex by vertex) within 1e-4
// relative (under both schedule policies), the inference program must
// reproduce the training program's forward results, and two runs must agree
// bit for bit. Two backward passes must add up, and an SGD step must move
// every parameter element by its gradient and then zero them all. With CUDA in
// the build the libraries also carry CUDA code: on a GPU (gtest skips
// otherwise) the same checks run there, and without one, asking for the GPU
// must fail cleanly. The GPU cases also run without a GPU on the host build
// of the runtime's CUDA library (test/lib/CudaHost), which runs the model's
// CUDA source and the runtime's device ops compiled for the host.
//
//===----------------------------------------------------------------------===//

#include "compiler/Config.h"
#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "dialects/CavsDialect.h"
#include "test/lib/CudaHost/HostKernels.h"
#include "test/lib/Evaluator/RandomGraph.h"
#include "test/support/ExampleModels.h"
#include "test/support/LoadExampleModel.h"
#include "test/support/LoadedModelLibrary.h"

#include "cavs/instance.h"
#include "cavs/runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

using namespace cavs;

namespace {
/// One optimization switched off, or none ("all").
struct Case {
  test::ExampleModel model;
  const char *ablation;
};

/// Prints a case as its model and ablation, for gtest's messages.
void PrintTo(const Case &value, std::ostream *os) {
  *os << value.model.file << " (" << value.ablation << ")";
}

std::string caseName(const testing::TestParamInfo<Case> &info) {
  std::string ablation = info.param.ablation;
  std::replace(ablation.begin(), ablation.end(), '-', '_');
  return test::getModelStem(info.param.model) + "_" + ablation;
}

/// |a - b| <= 1e-4 (|b| + floor max|b|): relative per element, with a floor
/// for elements that cancel to nearly zero in f32.
void expectClose(llvm::ArrayRef<float> actual, const std::vector<double> &want,
                 const std::string &what, double floor = 1e-3) {
  ASSERT_EQ(actual.size(), want.size()) << what;
  double scale = 0;
  for (double w : want)
    scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_LE(std::abs(actual[i] - want[i]),
              1e-4 * (std::abs(want[i]) + floor * scale))
        << what << "[" << i << "]: got " << actual[i] << ", want " << want[i];
}

/// The graphs of a batch in the runtime's form, with the inputs and output
/// gradients laid out by batch vertex id.
struct BatchInputs {
  std::unique_ptr<cavs_graph_batch, void (*)(cavs_graph_batch *)> batch{
      nullptr, cavs_graph_batch_destroy};
  /// First batch vertex of each graph.
  std::vector<int32_t> offsets;
  llvm::StringMap<std::vector<float>> f32Inputs, pushGrads;
};

class ModelLibraryTest : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    context.loadDialect<CavsDialect>();
    handler.emplace(&context, [](mlir::Diagnostic &diag) {
      ADD_FAILURE() << diag.str();
      return mlir::success();
    });
    test::loadExampleModel(GetParam().model, context, sourceMgr, checked,
                           module);
    if (HasFatalFailure())
      return;

    std::string ablation = GetParam().ablation;
    OptimizationSwitches switches;
    switches.mergeMatmuls = ablation != "no-merge-matmuls";
    switches.lazyBatching = ablation != "no-lazy-batching";
    switches.fusion = ablation != "no-fusion";
    library.load(*module, switches, GetParam().model.file);
    definition = library.definition();
    // On the host build of the CUDA library, "cuda" runs this source.
    if (const CudaCode *cuda = library.cuda())
      hostKernels.buildForHostCudaLibrary(cuda->source, cuda->kernels);
  }

  /// The training program (F and ∂F), which the evaluator runs too.
  ModelOp model() { return library.trainModel(); }

  BatchInputs makeBatch(const std::vector<EvalGraph> &graphs);
  /// Runs the batches of every graph shape on `device` and checks the
  /// results against the evaluator.
  void checkAgainstEvaluator(const cavs_device_options &device);
  void setParams(cavs_model *instance, llvm::StringMap<EvalTensor> &params);

  llvm::SourceMgr sourceMgr;
  mlir::MLIRContext context;
  std::optional<mlir::ScopedDiagnosticHandler> handler;
  std::unique_ptr<FrontendResult> checked;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  test::LoadedModelLibrary library;
  test::HostKernels hostKernels;
  const cavs_model_def *definition = nullptr;
  /// Widths of the f32 inputs and of the outputs, by name.
  llvm::StringMap<int64_t> f32Widths, pushWidths;
};

BatchInputs ModelLibraryTest::makeBatch(const std::vector<EvalGraph> &graphs) {
  llvm::StringMap<int32_t> typeOf;
  std::vector<int32_t> arities;
  for (auto vertex : model().getBody().getOps<VertexOp>()) {
    typeOf[vertex.getSymName()] = int32_t(arities.size());
    arities.push_back(int32_t(vertex.getArity()));
  }
  size_t maxArity = size_t(*std::max_element(arities.begin(), arities.end()));

  // Every i32 input of any vertex function becomes a batch attribute.
  std::vector<std::string> attributes;
  for (auto vertex : model().getBody().getOps<VertexOp>()) {
    for (auto entry : vertex.getPulls()) {
      auto type = llvm::cast<mlir::TypeAttr>(entry.getValue()).getValue();
      auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
      if (tensor)
        f32Widths[entry.getName()] = tensor.getNumElements();
      else if (!llvm::is_contained(attributes, entry.getName().str()))
        attributes.push_back(entry.getName().str());
    }
    for (auto entry : vertex.getPushes())
      pushWidths[entry.getName()] =
          llvm::cast<mlir::RankedTensorType>(
              llvm::cast<mlir::TypeAttr>(entry.getValue()).getValue())
              .getNumElements();
  }

  BatchInputs inputs;
  int32_t total = 0;
  for (const EvalGraph &graph : graphs) {
    inputs.offsets.push_back(total);
    total += int32_t(graph.vertices.size());
  }
  for (const auto &entry : f32Widths)
    inputs.f32Inputs[entry.getKey()].assign(total * entry.getValue(), 0.0f);
  for (const auto &entry : pushWidths)
    inputs.pushGrads[entry.getKey()].assign(total * entry.getValue(), 0.0f);

  cavs_graph_builder *builder = nullptr;
  EXPECT_EQ(cavs_graph_builder_create(int32_t(arities.size()), arities.data(),
                                      &builder),
            CAVS_OK);
  std::unique_ptr<cavs_graph_builder, void (*)(cavs_graph_builder *)> owner(
      builder, cavs_graph_builder_destroy);
  for (const std::string &name : attributes) {
    int32_t index = 0;
    EXPECT_EQ(cavs_graph_builder_add_attribute(builder, name.c_str(), &index),
              CAVS_OK);
  }
  for (auto [g, graph] : llvm::enumerate(graphs)) {
    size_t n = graph.vertices.size();
    std::vector<int32_t> types(n), children(n * maxArity, CAVS_NO_CHILD);
    std::vector<std::vector<int32_t>> values(attributes.size(),
                                             std::vector<int32_t>(n, -1));
    for (size_t v = 0; v < n; ++v) {
      const EvalVertex &vertex = graph.vertices[v];
      int32_t id = inputs.offsets[g] + int32_t(v);
      types[v] = typeOf.lookup(vertex.function);
      for (auto [k, child] : llvm::enumerate(vertex.children))
        children[v * maxArity + k] = int32_t(child);
      for (auto [a, name] : llvm::enumerate(attributes))
        if (auto it = vertex.i32Inputs.find(name); it != vertex.i32Inputs.end())
          values[a][v] = it->second;
      for (const auto &input : vertex.f32Inputs) {
        int64_t width = f32Widths.lookup(input.getKey());
        for (int64_t i = 0; i < width; ++i)
          inputs.f32Inputs[input.getKey()][id * width + i] =
              float(input.getValue().data[i]);
      }
      for (const auto &grad : vertex.pushGrads) {
        int64_t width = pushWidths.lookup(grad.getKey());
        for (int64_t i = 0; i < width; ++i)
          inputs.pushGrads[grad.getKey()][id * width + i] =
              float(grad.getValue().data[i]);
      }
    }
    std::vector<const int32_t *> columns;
    for (const auto &column : values)
      columns.push_back(column.data());
    EXPECT_EQ(cavs_graph_builder_add_sample(builder, int32_t(n), types.data(),
                                            children.data(),
                                            columns.empty() ? nullptr
                                                            : columns.data()),
              CAVS_OK)
        << cavs_last_error_message();
  }
  cavs_graph_batch *batch = nullptr;
  EXPECT_EQ(cavs_graph_builder_finalize(builder, &batch), CAVS_OK)
      << cavs_last_error_message();
  inputs.batch.reset(batch);
  return inputs;
}

void ModelLibraryTest::setParams(cavs_model *instance,
                                 llvm::StringMap<EvalTensor> &params) {
  cavs_param_store *store = cavs_model_params(instance);
  for (auto &entry : params) {
    int32_t index = cavs_param_store_find_param(store, entry.getKey().str().c_str());
    ASSERT_GE(index, 0) << entry.getKey().str();
    float *data = cavs_param_store_param_data(store, index);
    // The evaluator gets the values the f32 code sees.
    for (size_t i = 0; i < entry.getValue().data.size(); ++i) {
      data[i] = float(entry.getValue().data[i]);
      entry.getValue().data[i] = data[i];
    }
  }
}

/// What one run of the library produced, for bitwise comparisons.
struct RunResult {
  double loss = 0;
  std::vector<float> grads;
  llvm::StringMap<std::vector<float>> outputs;
};

/// Whether this machine has a usable GPU; the reason in `why` otherwise.
bool haveGpu(std::string &why) {
  int32_t count = 0;
  if (cavs_cuda_device_count(&count) == CAVS_OK)
    return true;
  why = cavs_last_error_message();
  return false;
}

TEST_P(ModelLibraryTest, MatchesReferenceEvaluator) {
  checkAgainstEvaluator(cavs_device_options{CAVS_DEVICE_CPU, 0, 0});
}

TEST_P(ModelLibraryTest, MatchesReferenceEvaluatorOnGpu) {
  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA";
  std::string why;
  if (!haveGpu(why))
    GTEST_SKIP() << why;
  checkAgainstEvaluator(cavs_device_options{CAVS_DEVICE_CUDA, 0, 0});
}

/// Which phases of `vertex` hold a loss, by the phase each top-level op of
/// its forward and backward bodies is batched in.
static std::array<bool, CAVS_NUM_PHASES> phasesWithLoss(VertexOp vertex) {
  std::array<bool, CAVS_NUM_PHASES> hasLoss = {};
  auto markLosses = [&](mlir::Block &block, int first) {
    for (mlir::Operation &op : block) {
      auto kind =
          op.getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
      const int phase = first + int(kind ? kind.getValue() : BatchingKind::body);
      op.walk([&](LossOp) { hasLoss[phase] = true; });
    }
  };
  markLosses(vertex.getBody().front(), CAVS_PHASE_FORWARD_EAGER);
  if (BackwardOp backward = vertex.getBackward())
    markLosses(backward.getBody().front(), CAVS_PHASE_BACKWARD_EAGER);
  return hasLoss;
}

// The distributed trainer sums a gradient once the last backward phase
// that lists it has run (docs/distributed.md): every parameter of these
// models gets a gradient, so every one must be listed, by backward phases
// only, ascending and in range. (The MPI tests check the timing: a
// gradient written after its last listed phase would be summed too early
// and break their agreement with one process.)
// The same lists decide row_local: a phase is row-local exactly when it
// adds to no parameter gradient and holds no loss, the ops that sum over a
// call's rows (the runtime cuts only row-local phases into calls over
// fewer rows). One test for both: each model compiles once.
TEST_P(ModelLibraryTest, DescriptorListsTheGradientsAndRowLocalPhases) {
  const int32_t numParams = definition->model->num_params;
  std::vector<bool> listed(numParams, false);
  int32_t f = 0;
  for (auto vertex : model().getBody().getOps<VertexOp>()) {
    ASSERT_LT(f, definition->train.num_functions);
    const cavs_function_desc &function = definition->train.functions[f++];
    const std::array<bool, CAVS_NUM_PHASES> hasLoss = phasesWithLoss(vertex);
    for (int phase = 0; phase < CAVS_NUM_PHASES; ++phase) {
      const int32_t count = function.num_grad_params[phase];
      EXPECT_EQ(function.row_local[phase], count == 0 && !hasLoss[phase])
          << function.name << " phase " << phase;
      if (phase < CAVS_PHASE_BACKWARD_EAGER) {
        EXPECT_EQ(count, 0) << function.name << " phase " << phase;
        continue;
      }
      ASSERT_EQ(count > 0, function.grad_params[phase] != nullptr);
      for (int32_t i = 0; i < count; ++i) {
        const int32_t param = function.grad_params[phase][i];
        ASSERT_GE(param, 0);
        ASSERT_LT(param, numParams);
        if (i > 0) {
          EXPECT_LT(function.grad_params[phase][i - 1], param);
        }
        listed[param] = true;
      }
    }
  }
  EXPECT_EQ(f, definition->train.num_functions);
  for (int32_t p = 0; p < numParams; ++p)
    EXPECT_TRUE(listed[p]) << definition->model->params[p].name;
}

TEST_P(ModelLibraryTest, RunsOnCpuAndRefusesAMissingGpu) {
  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA";
  std::string why;
  if (haveGpu(why))
    GTEST_SKIP() << "this machine has a GPU";
  // The embedded image: an sm_90 CUBIN and PTX with every kernel.
  const cavs_cuda_desc *cuda = definition->cuda;
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->arch, 90);
  ASSERT_GT(cuda->cubin_size, 4);
  EXPECT_EQ(std::memcmp(cuda->cubin, "\177ELF", 4), 0);
  std::string ptx = cuda->ptx;
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  ASSERT_GT(cuda->num_kernels, 0);
  for (int32_t k = 0; k < cuda->num_kernels; ++k)
    EXPECT_NE(ptx.find(std::string(".entry ") + cuda->kernels[k]),
              std::string::npos)
        << cuda->kernels[k];
  cavs_model *instance = nullptr;
  const cavs_device_options gpu{CAVS_DEVICE_CUDA, 0, 0};
  EXPECT_EQ(cavs_model_create_on_device(definition, 1, &gpu, &instance),
            CAVS_ERROR_UNSUPPORTED);
  EXPECT_EQ(instance, nullptr);
  EXPECT_NE(std::string(cavs_last_error_message()).find("cannot use a GPU"),
            std::string::npos)
      << cavs_last_error_message();
  // AUTO falls back to the CPU.
  const cavs_device_options automatic{CAVS_DEVICE_AUTO, 0, 0};
  ASSERT_EQ(cavs_model_create_on_device(definition, 1, &automatic, &instance),
            CAVS_OK)
      << cavs_last_error_message();
  EXPECT_EQ(cavs_model_device(instance), CAVS_DEVICE_CPU);
  EXPECT_STREQ(cavs_model_device_name(instance), "cpu");
  cavs_model_destroy(instance);
}

TEST_P(ModelLibraryTest, BadInputFailsLikeTheCpuOnGpu) {
  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA";
  std::string why;
  if (!haveGpu(why))
    GTEST_SKIP() << why;
  RandomGraphOptions options;
  options.shape = GetParam().model.shapes.front();
  options.numVertices = 9;
  options.seed = 1;
  auto graph = randomGraph(model(), options);
  ASSERT_TRUE(mlir::succeeded(graph));
  // One token id or label far out of range: a checked op must fail.
  auto bad = llvm::find_if(graph->vertices, [](const EvalVertex &vertex) {
    return !vertex.i32Inputs.empty();
  });
  if (bad == graph->vertices.end())
    GTEST_SKIP() << "the model reads no i32 input";
  bad->i32Inputs.begin()->second = 1 << 20;
  BatchInputs inputs = makeBatch({*graph});
  // The sample, the vertex within it, its function and the input, not a
  // row of some phase's call.
  const std::string where =
      "sample 0, vertex " + std::to_string(bad - graph->vertices.begin()) +
      " (" + bad->function + "): pull '" +
      bad->i32Inputs.begin()->getKey().str() +
      "' = 1048576 is out of range [0, ";

  // The failure's own words, as the CPU and the device report them.
  auto failure = [&](cavs_device_kind kind) -> std::string {
    const cavs_device_options device{kind, 0, 0};
    cavs_model *instance = nullptr;
    EXPECT_EQ(cavs_model_create_on_device(definition, 1, &device, &instance),
              CAVS_OK)
        << cavs_last_error_message();
    std::unique_ptr<cavs_model, void (*)(cavs_model *)> owner(
        instance, cavs_model_destroy);
    for (const auto &input : inputs.f32Inputs)
      EXPECT_EQ(cavs_model_set_input(instance, input.getKey().str().c_str(),
                                     input.getValue().data(),
                                     int64_t(input.getValue().size())),
                CAVS_OK);
    double loss = 0;
    EXPECT_EQ(cavs_model_forward(instance, inputs.batch.get(),
                                 CAVS_MODE_TRAIN, &loss),
              CAVS_ERROR_INVALID_ARGUMENT);
    return cavs_last_error_message();
  };
  const std::string cpu = failure(CAVS_DEVICE_CPU);
  EXPECT_NE(cpu.find(where), std::string::npos) << cpu;
  EXPECT_EQ(failure(CAVS_DEVICE_CUDA), cpu);
}

void ModelLibraryTest::checkAgainstEvaluator(
    const cavs_device_options &device) {
  const bool onGpu = device.kind == CAVS_DEVICE_CUDA;
  // A GPU adds a column's terms in blocks and then with atomics, in another
  // order than the CPU's row loop: an element that is a difference of large
  // terms (the attention bias of attn_treelstm, whose softmax gradients sum
  // to zero over the children) then differs by up to 1e-5 of the largest
  // element, measured on an H200 (tools/gpu-check.sh).
  const double floor = onGpu ? 1e-1 : 1e-3;
  for (GraphShape shape : GetParam().model.shapes) {
    SCOPED_TRACE("shape " + std::to_string(int(shape)));
    std::vector<EvalGraph> graphs;
    // And a lone vertex: a root that is nobody's child and has none (a
    // one-word sentence), whose state gradient no body task zeroes.
    for (uint64_t seed : {1, 2, 3, 4}) {
      RandomGraphOptions options;
      options.shape = shape;
      options.numVertices = seed == 4 ? 1 : 5 + 4 * unsigned(seed);
      options.seed = seed;
      auto graph = randomGraph(model(), options);
      ASSERT_TRUE(mlir::succeeded(graph));
      graphs.push_back(std::move(*graph));
    }
    BatchInputs inputs = makeBatch(graphs);
    llvm::StringMap<EvalTensor> params = randomParams(model(), 7);

    using Instance = std::unique_ptr<cavs_model, void (*)(cavs_model *)>;
    // An instance on `device` with the batch's parameters and inputs.
    auto create = [&](Instance &owner, cavs_schedule_policy policy) {
      cavs_model *instance = nullptr;
      ASSERT_EQ(cavs_model_create_on_device(definition, 1, &device, &instance),
                CAVS_OK)
          << cavs_last_error_message();
      owner.reset(instance);
      ASSERT_EQ(cavs_model_device(instance), device.kind);
      ASSERT_EQ(cavs_model_set_schedule_policy(instance, policy), CAVS_OK)
          << cavs_last_error_message();
      setParams(instance, params);
      for (const auto &input : inputs.f32Inputs)
        ASSERT_EQ(cavs_model_set_input(instance, input.getKey().str().c_str(),
                                       input.getValue().data(),
                                       int64_t(input.getValue().size())),
                  CAVS_OK)
            << cavs_last_error_message();
    };
    // The backward pass of the last (training) forward pass, on `batch`.
    auto backwardOn = [&](cavs_model *instance, const BatchInputs &batch) {
      for (const auto &grad : batch.pushGrads)
        ASSERT_EQ(cavs_model_set_output_grad(
                      instance, grad.getKey().str().c_str(),
                      grad.getValue().data(), int64_t(grad.getValue().size())),
                  CAVS_OK)
            << cavs_last_error_message();
      ASSERT_EQ(cavs_model_backward(instance), CAVS_OK)
          << cavs_last_error_message();
    };
    auto backward = [&](cavs_model *instance) { backwardOn(instance, inputs); };
    // `withOutputs` false: every output disabled, so the pass writes none.
    auto run = [&](cavs_mode mode, RunResult &result,
                   cavs_schedule_policy policy = CAVS_SCHEDULE_LEVELS,
                   bool withOutputs = true) {
      Instance owner(nullptr, cavs_model_destroy);
      create(owner, policy);
      if (HasFatalFailure())
        return;
      cavs_model *instance = owner.get();
      if (!withOutputs) {
        for (const auto &output : pushWidths)
          ASSERT_EQ(cavs_model_set_output_enabled(
                        instance, output.getKey().str().c_str(), 0),
                    CAVS_OK)
              << cavs_last_error_message();
      }
      ASSERT_EQ(cavs_model_forward(instance, inputs.batch.get(), mode,
                                   &result.loss),
                CAVS_OK)
          << cavs_last_error_message();
      for (const auto &grad : pushWidths) {
        if (!withOutputs)
          break;
        int64_t width = 0;
        const float *values =
            cavs_model_output(instance, grad.getKey().str().c_str(), &width);
        ASSERT_NE(values, nullptr) << cavs_last_error_message();
        result.outputs[grad.getKey()].assign(
            values, values + width * cavs_graph_batch_num_vertices(inputs.batch.get()));
      }
      if (mode == CAVS_MODE_INFER)
        return;
      backward(instance);
      cavs_grad_store *grads = cavs_model_grads(instance);
      result.grads.assign(cavs_grad_store_data(grads),
                          cavs_grad_store_data(grads) +
                              cavs_grad_store_size(grads));
      // Input gradients, checked against the evaluator below.
      for (const auto &input : f32Widths) {
        int64_t width = 0;
        const float *values = cavs_model_input_grad(
            instance, input.getKey().str().c_str(), &width);
        ASSERT_NE(values, nullptr) << cavs_last_error_message();
        result.outputs["grad:" + input.getKey().str()].assign(
            values, values + width * cavs_graph_batch_num_vertices(inputs.batch.get()));
      }
      // Parameter gradients by name.
      cavs_param_store *store = cavs_model_params(instance);
      for (const auto &param : params) {
        int32_t index =
            cavs_param_store_find_param(store, param.getKey().str().c_str());
        const float *grad = cavs_grad_store_param_data(grads, index);
        result.outputs["param:" + param.getKey().str()].assign(
            grad, grad + param.getValue().data.size());
      }
    };

    // `fewest`: the same training pass under the fewest-tasks schedule,
    // which batches multi-type graphs differently.
    RunResult train, again, infer, fewest, withoutOutputs;
    run(CAVS_MODE_TRAIN, train);
    run(CAVS_MODE_TRAIN, again);
    run(CAVS_MODE_TRAIN, withoutOutputs, CAVS_SCHEDULE_LEVELS,
        /*withOutputs=*/false);
    run(CAVS_MODE_INFER, infer);
    run(CAVS_MODE_TRAIN, fewest, CAVS_SCHEDULE_FEWEST_TASKS);
    if (HasFatalFailure())
      return;

    // The reference: every graph on its own, summed.
    double loss = 0;
    llvm::StringMap<std::vector<double>> paramGrads;
    for (auto [g, graph] : llvm::enumerate(graphs)) {
      auto reference =
          evaluate(model(), graph, params, {/*runBackward=*/true});
      ASSERT_TRUE(mlir::succeeded(reference));
      loss += reference->loss;
      for (const auto &grad : reference->paramGrads) {
        auto &sum = paramGrads[grad.getKey()];
        sum.resize(grad.getValue().data.size());
        for (size_t i = 0; i < sum.size(); ++i)
          sum[i] += grad.getValue().data[i];
      }
      for (size_t v = 0; v < graph.vertices.size(); ++v) {
        int64_t id = inputs.offsets[g] + int64_t(v);
        std::string where = "vertex " + std::to_string(id);
        for (const auto &push : reference->pushes[v]) {
          int64_t width = pushWidths.lookup(push.getKey());
          for (RunResult *result : {&train, &infer, &fewest})
            expectClose(llvm::ArrayRef(result->outputs[push.getKey()])
                            .slice(id * width, width),
                        push.getValue().data,
                        "output " + push.getKey().str() + " of " + where, floor);
        }
        for (const auto &input : f32Widths) {
          int64_t width = input.getValue();
          auto it = reference->pullGrads[v].find(input.getKey());
          std::vector<double> want(width, 0.0);
          if (it != reference->pullGrads[v].end())
            want = it->getValue().data;
          for (RunResult *result : {&train, &fewest})
            expectClose(
                llvm::ArrayRef(result->outputs["grad:" + input.getKey().str()])
                    .slice(id * width, width),
                want,
                "input gradient " + input.getKey().str() + " of " + where,
                floor);
        }
      }
    }
    EXPECT_NEAR(train.loss, loss, 1e-4 * std::abs(loss));
    EXPECT_NEAR(infer.loss, loss, 1e-4 * std::abs(loss));
    EXPECT_NEAR(fewest.loss, loss, 1e-4 * std::abs(loss));
    for (const auto &grad : paramGrads)
      for (RunResult *result : {&train, &fewest})
        expectClose(result->outputs["param:" + grad.getKey().str()],
                    grad.getValue(), "gradient of @" + grad.getKey().str(),
                    floor);

    // Training: two backward passes add up; a plain SGD step then moves
    // every element by -lr times its gradient (the untouched rows of a
    // sparse table have none) and zeroes every gradient. Tracking rows
    // must lose none of it: a table that is also an `@` operand (tied
    // embeddings) gets gradient rows no lookup marks.
    {
      Instance owner(nullptr, cavs_model_destroy);
      create(owner, CAVS_SCHEDULE_LEVELS);
      if (HasFatalFailure())
        return;
      cavs_model *instance = owner.get();
      // The first pass takes the graphs in the opposite order, so the
      // second finds the buffers' rows holding other vertices' values (a
      // state gradient row not zeroed again would add them in).
      BatchInputs reversed =
          makeBatch(std::vector<EvalGraph>(graphs.rbegin(), graphs.rend()));
      for (const BatchInputs *pass : {&reversed, &inputs}) {
        for (const auto &input : pass->f32Inputs)
          ASSERT_EQ(cavs_model_set_input(instance,
                                         input.getKey().str().c_str(),
                                         input.getValue().data(),
                                         int64_t(input.getValue().size())),
                    CAVS_OK)
              << cavs_last_error_message();
        double passLoss = 0;
        ASSERT_EQ(cavs_model_forward(instance, pass->batch.get(),
                                     CAVS_MODE_TRAIN, &passLoss),
                  CAVS_OK)
            << cavs_last_error_message();
        backwardOn(instance, *pass);
        if (HasFatalFailure())
          return;
      }
      cavs_param_store *store = cavs_model_params(instance);
      cavs_grad_store *grads = cavs_model_grads(instance);
      for (const auto &grad : paramGrads) {
        const int32_t index =
            cavs_param_store_find_param(store, grad.getKey().str().c_str());
        const float *sum = cavs_grad_store_param_data(grads, index);
        std::vector<double> twice = grad.getValue();
        for (double &value : twice)
          value *= 2;
        expectClose(llvm::ArrayRef(sum, twice.size()), twice,
                    "two passes' gradient of @" + grad.getKey().str(), floor);
      }
      const std::vector<float> before(cavs_param_store_values(store),
                                      cavs_param_store_values(store) +
                                          cavs_param_store_size(store));
      const std::vector<float> gradient(cavs_grad_store_data(grads),
                                        cavs_grad_store_data(grads) +
                                            cavs_grad_store_size(grads));
      cavs_optimizer_options options;
      ASSERT_EQ(cavs_optimizer_options_init(CAVS_OPTIMIZER_SGD, &options),
                CAVS_OK);
      options.learning_rate = 0.5;
      cavs_optimizer *sgd = nullptr;
      ASSERT_EQ(cavs_optimizer_create(store, &options, &sgd), CAVS_OK)
          << cavs_last_error_message();
      std::unique_ptr<cavs_optimizer, void (*)(cavs_optimizer *)> sgdOwner(
          sgd, cavs_optimizer_destroy);
      ASSERT_EQ(cavs_model_step(instance, sgd), CAVS_OK)
          << cavs_last_error_message();
      const float *after = cavs_param_store_values(store);
      for (const auto &param : params) {
        const cavs_param_info *info = cavs_param_store_param(
            store,
            cavs_param_store_find_param(store, param.getKey().str().c_str()));
        for (int64_t i = info->offset; i < info->offset + info->size; ++i) {
          const double want = double(before[i]) - 0.5 * double(gradient[i]);
          ASSERT_LE(std::abs(after[i] - want),
                    1e-6 * (std::abs(before[i]) + std::abs(gradient[i])))
              << "@" << param.getKey().str() << " element " << i - info->offset
              << " after an SGD step: got " << after[i] << ", want " << want
              << " (gradient " << gradient[i] << ")";
        }
      }
      const float *zeroed = cavs_grad_store_data(grads);
      for (int64_t i = 0; i < cavs_grad_store_size(grads); ++i)
        ASSERT_EQ(zeroed[i], 0.0f)
            << "gradient element " << i << " after the step's zeroing";
    }

    // Same seed, same threads: the same bits (on the CPU: GPU kernels add
    // with atomics, in no fixed order).
    if (onGpu)
      continue;
    EXPECT_EQ(train.loss, again.loss);
    EXPECT_TRUE(train.grads == again.grads) << "gradients differ run to run";
    EXPECT_TRUE(train.outputs == again.outputs) << "outputs differ run to run";
    // Outputs disabled: the same loss and gradients.
    EXPECT_EQ(train.loss, withoutOutputs.loss);
    EXPECT_TRUE(train.grads == withoutOutputs.grads)
        << "disabling the outputs changed the gradients";
  }
}


std::vector<Case> allCases(const std::vector<test::ExampleModel> &models) {
  std::vector<Case> cases;
  for (const test::ExampleModel &model : models)
    for (const char *ablation :
         {"all", "no-fusion", "no-lazy-batching", "no-merge-matmuls"})
      cases.push_back({model, ablation});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Examples, ModelLibraryTest,
                         testing::ValuesIn(allCases(test::exampleModels())),
                         caseName);
INSTANTIATE_TEST_SUITE_P(CornerCases, ModelLibraryTest,
                         testing::ValuesIn(allCases(test::cornerCaseModels())),
                         caseName);
} // namespace
