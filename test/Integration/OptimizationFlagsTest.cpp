//===- OptimizationFlagsTest.cpp - flags change the code, not the model ---===//
//
// --merge-matmuls, --fusion and --lazy-batching change how a model runs,
// never what it is: each example model built with the default flags, with
// each flag off and with all off must list the same parameters (names,
// shapes, initializers) in declaration order under the same signature, so
// that a checkpoint saved from any of the builds, Adam state included,
// loads into every other and training goes on bit for bit. Parameter packs
// (merged matmuls) are a layout detail of a build. A build with other dims
// is refused with the parameter that differs.
//
//===----------------------------------------------------------------------===//

#include "dialects/CavsDialect.h"
#include "test/support/ExampleModels.h"
#include "test/support/LoadExampleModel.h"
#include "test/support/LoadedModelLibrary.h"

#include "cavs/runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <numeric>

using namespace cavs;

namespace {

struct Build {
  const char *name;
  OptimizationSwitches switches;
};

/// Every optimization but `off` (named, not by its position in
/// Optimizations.def).
OptimizationSwitches without(bool OptimizationSwitches::*off) {
  OptimizationSwitches switches;
  switches.*off = false;
  return switches;
}

const Build kBuilds[] = {
    {"default flags", {}},
    {"--merge-matmuls=false", without(&OptimizationSwitches::mergeMatmuls)},
    {"--lazy-batching=false", without(&OptimizationSwitches::lazyBatching)},
    {"--fusion=false", without(&OptimizationSwitches::fusion)},
    {"all three off", {false, false, false}},
};

/// A temporary checkpoint path, removed with the object.
struct TemporaryFile {
  TemporaryFile() {
    llvm::SmallString<128> name;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("cavs-flags", "ckpt", name));
    path = std::string(name);
  }
  ~TemporaryFile() { llvm::sys::fs::remove(path); }
  std::string path;
};

/// A model instance with an Adam optimizer (C API: this test is built
/// without exceptions).
struct Trainee {
  std::unique_ptr<cavs_model, void (*)(cavs_model *)> model{nullptr,
                                                            cavs_model_destroy};
  std::unique_ptr<cavs_optimizer, void (*)(cavs_optimizer *)> adam{
      nullptr, cavs_optimizer_destroy};

  void create(const cavs_model_def &def, uint64_t seed) {
    cavs_model *instance = nullptr;
    ASSERT_EQ(cavs_model_create(&def, seed, &instance), CAVS_OK)
        << cavs_last_error_message();
    model.reset(instance);
    cavs_optimizer_options options;
    ASSERT_EQ(cavs_optimizer_options_init(CAVS_OPTIMIZER_ADAM, &options),
              CAVS_OK);
    cavs_optimizer *optimizer = nullptr;
    ASSERT_EQ(cavs_optimizer_create(params(), &options, &optimizer), CAVS_OK)
        << cavs_last_error_message();
    adam.reset(optimizer);
  }
  cavs_param_store *params() const { return cavs_model_params(model.get()); }

  /// One Adam step from gradients that depend on each parameter's name and
  /// element only (builds that order parameters differently get the same
  /// ones), every row of a table that tracks rows marked.
  void step(float scale) {
    cavs_grad_store *grads = cavs_model_grads(model.get());
    for (int32_t p = 0; p < cavs_param_store_num_params(params()); ++p) {
      const cavs_param_info &info = *cavs_param_store_param(params(), p);
      const float phase = float(std::hash<std::string>{}(info.name) % 997);
      float *grad = cavs_grad_store_param_data(grads, p);
      for (int64_t i = 0; i < info.size; ++i)
        grad[i] = scale * std::sin(phase + 0.37f * float(i));
      if (cavs_grad_store_tracks_rows(grads, p)) {
        std::vector<int32_t> rows(size_t(info.shape[0]));
        std::iota(rows.begin(), rows.end(), 0);
        ASSERT_EQ(cavs_grad_store_mark_rows(grads, p, rows.data(),
                                            int64_t(rows.size())),
                  CAVS_OK);
      }
    }
    ASSERT_EQ(cavs_model_step(model.get(), adam.get()), CAVS_OK)
        << cavs_last_error_message();
  }

  /// Every parameter equals the one of the same name in `other`, bit for
  /// bit.
  void expectSameParams(const Trainee &other, const std::string &what) const {
    for (int32_t p = 0; p < cavs_param_store_num_params(params()); ++p) {
      const cavs_param_info &info = *cavs_param_store_param(params(), p);
      const int32_t q = cavs_param_store_find_param(other.params(), info.name);
      ASSERT_GE(q, 0) << what << ": " << info.name;
      const float *x = cavs_param_store_param_values(params(), p);
      const float *y = cavs_param_store_param_values(other.params(), q);
      for (int64_t i = 0; i < info.size; ++i)
        ASSERT_EQ(x[i], y[i]) << what << ": " << info.name << "[" << i << "]";
    }
  }
};

/// An example model's frontend module.
struct Frontend {
  explicit Frontend(mlir::MLIRContext &context,
                    const test::ExampleModel &model) {
    test::loadExampleModel(model, context, sourceMgr, checked, module);
  }
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<FrontendResult> checked;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

class OptimizationFlagsTest
    : public testing::TestWithParam<test::ExampleModel> {
protected:
  void SetUp() override {
    context.loadDialect<CavsDialect>();
    frontend = std::make_unique<Frontend>(context, GetParam());
    if (HasFatalFailure())
      return;
    for (const Build &build : kBuilds) {
      SCOPED_TRACE(build.name);
      libraries.push_back(std::make_unique<test::LoadedModelLibrary>());
      libraries.back()->load(*frontend->module, build.switches,
                             GetParam().file);
      if (HasFatalFailure())
        return;
    }
  }

  /// Every build lists the declared parameters under one signature.
  void checkParameters();
  /// A checkpoint of every build loads into every build.
  void checkCheckpoints();

  mlir::MLIRContext context;
  std::unique_ptr<Frontend> frontend;
  std::vector<std::unique_ptr<test::LoadedModelLibrary>> libraries;
};

// One test for both, since it compiles the model five times.
TEST_P(OptimizationFlagsTest, KeepParametersAndCheckpoints) {
  checkParameters();
  checkCheckpoints();
}

void OptimizationFlagsTest::checkParameters() {
  ModelOp declared = *frontend->module->getOps<ModelOp>().begin();
  const uint64_t signature = libraries[0]->definition()->model->signature;
  for (auto [build, library] : llvm::zip_equal(kBuilds, libraries)) {
    SCOPED_TRACE(build.name);
    const cavs_model_desc &desc = *library->definition()->model;
    EXPECT_EQ(desc.signature, signature);
    int32_t index = 0;
    for (ParamOp param : declared.getBody().getOps<ParamOp>()) {
      ASSERT_LT(index, desc.num_params);
      const cavs_param_desc &actual = desc.params[index++];
      EXPECT_EQ(actual.name, param.getSymName()) << "parameter " << index - 1;
      llvm::ArrayRef<int64_t> shape = param.getTensorType().getShape();
      EXPECT_EQ(actual.rank, int32_t(shape.size())) << actual.name;
      EXPECT_EQ(actual.shape[0], shape[0]) << actual.name;
      EXPECT_EQ(actual.shape[1], shape.size() == 2 ? shape[1] : 0)
          << actual.name;
      EXPECT_EQ(uint32_t(actual.init), uint32_t(param.getInit()))
          << actual.name;
    }
    EXPECT_EQ(index, desc.num_params);
  }
}

void OptimizationFlagsTest::checkCheckpoints() {
  for (auto [from, saved] : llvm::zip_equal(kBuilds, libraries)) {
    // After one step parameters and moments are not the initial ones.
    Trainee source;
    source.create(*saved->definition(), 1);
    source.step(1);
    TemporaryFile checkpoint;
    ASSERT_EQ(cavs_checkpoint_save(checkpoint.path.c_str(), source.params(),
                                   source.adam.get()),
              CAVS_OK)
        << cavs_last_error_message();
    for (auto [to, loading] : llvm::zip_equal(kBuilds, libraries)) {
      const std::string what =
          std::string("saved with ") + from.name + ", loaded with " + to.name;
      SCOPED_TRACE(what);
      // The build that saved it and another one restore the same state
      // and take the same next step.
      Trainee same, other;
      same.create(*saved->definition(), 2);
      other.create(*loading->definition(), 3);
      if (HasFatalFailure())
        return;
      for (Trainee *trainee : {&same, &other})
        ASSERT_EQ(cavs_checkpoint_load(checkpoint.path.c_str(),
                                       trainee->params(), trainee->adam.get()),
                  CAVS_OK)
            << cavs_last_error_message();
      other.expectSameParams(source, what + ", after loading");
      EXPECT_EQ(cavs_optimizer_step_count(other.adam.get()), 1);
      same.step(0.5f);
      other.step(0.5f);
      other.expectSameParams(same, what + ", one step later");
      if (HasFatalFailure())
        return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, OptimizationFlagsTest,
                         testing::ValuesIn(test::exampleModels()),
                         test::exampleModelName);

// A checkpoint that does not fit names the parameter that differs, not
// only the signatures.
TEST(OptimizationFlags, OtherDimsNameTheParameter) {
  mlir::MLIRContext context;
  context.loadDialect<CavsDialect>();
  test::ExampleModel narrow = {
      "treegru.cavs", {"V=20", "E=6", "H=5", "C=3"}, {}};
  test::ExampleModel wide = narrow;
  wide.defines[2] = "H=6";
  Frontend narrowFrontend(context, narrow), wideFrontend(context, wide);
  ASSERT_FALSE(testing::Test::HasFatalFailure());
  test::LoadedModelLibrary narrowLibrary, wideLibrary;
  narrowLibrary.load(*narrowFrontend.module, {}, narrow.file);
  wideLibrary.load(*wideFrontend.module, {false, true, true}, wide.file);
  Trainee saved, loading;
  saved.create(*narrowLibrary.definition(), 1);
  loading.create(*wideLibrary.definition(), 1);
  ASSERT_FALSE(testing::Test::HasFatalFailure());

  TemporaryFile checkpoint;
  ASSERT_EQ(
      cavs_checkpoint_save(checkpoint.path.c_str(), saved.params(), nullptr),
      CAVS_OK);
  EXPECT_EQ(
      cavs_checkpoint_load(checkpoint.path.c_str(), loading.params(), nullptr),
      CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cavs_last_error_message())
                .find(": parameter 'W_z' has shape [5, 6] in the checkpoint "
                      "but [6, 6] in the model"),
            std::string::npos)
      << cavs_last_error_message();
}

} // namespace
