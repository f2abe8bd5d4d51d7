//===- ParamsTest.cpp - descriptors, parameter and gradient stores --------===//
//
// Checks the flat layout (alignment, packs back to back, padding), lookups,
// descriptor validation messages, and gradient stores with touched-row
// tracking.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "TestSupport.h"

#include <cmath>
#include <functional>

namespace cavs::test {
namespace {

bool isAligned(const void *pointer) {
  return reinterpret_cast<uintptr_t>(pointer) % 64 == 0;
}

// Tests offsets: each tensor starts at a multiple of 16 floats except the
// second pack member, which follows the first directly.
TEST(ParamStore, LayoutAndAlignment) {
  ParamStore params(tinyModel().desc(), 1);
  EXPECT_EQ(params.modelName(), "tiny");
  EXPECT_EQ(params.signature(), 0x5eed5eed0000cafeull);
  ASSERT_EQ(params.numParams(), 4);
  const int64_t offsets[] = {0, 48, 72, 80};
  const int64_t sizes[] = {40, 24, 8, 5};
  for (int32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(params.param(i).offset, offsets[i]) << i;
    EXPECT_EQ(params.param(i).size, sizes[i]) << i;
  }
  EXPECT_EQ(params.data().size(), 96u); // rounded up to 16 floats
  EXPECT_TRUE(isAligned(params.data().data()));
  for (int32_t i : {0, 1, 3})
    EXPECT_TRUE(isAligned(params.values(i).data())) << i;

  const cavs_param_info &w = params.param(1);
  EXPECT_STREQ(w.name, "W_iou");
  EXPECT_EQ(w.rank, 2);
  EXPECT_EQ(w.shape[0], 6);
  EXPECT_EQ(w.shape[1], 4);
  EXPECT_EQ(w.pack, 0);
  const cavs_param_info &b = params.param(3);
  EXPECT_EQ(b.rank, 1);
  EXPECT_EQ(b.shape[0], 5);
  EXPECT_EQ(b.shape[1], 0);
  EXPECT_EQ(b.pack, -1);
}

// Tests that a pack is its members back to back, as one row-stacked matrix.
TEST(ParamStore, PackIsContiguous) {
  ParamStore params(tinyModel().desc(), 1);
  ASSERT_EQ(params.numPacks(), 1);
  EXPECT_EQ(params.packIndex("W_iou_f"), 0);
  const cavs_pack_info &pack = params.pack(0);
  EXPECT_STREQ(pack.name, "W_iou_f");
  EXPECT_EQ(pack.rank, 2);
  EXPECT_EQ(pack.shape[0], 8);
  EXPECT_EQ(pack.shape[1], 4);
  ASSERT_EQ(pack.num_params, 2);
  EXPECT_EQ(pack.members[0], 1);
  EXPECT_EQ(pack.members[1], 2);
  EXPECT_EQ(pack.offset, 48);
  EXPECT_EQ(pack.size, 32);
  Span<float> packed = params.packValues(0);
  EXPECT_TRUE(isAligned(packed.data()));
  EXPECT_EQ(packed.data(), params.values("W_iou").data());
  EXPECT_EQ(params.values("W_f").data(), packed.data() + 24);
  // Row 6 of the pack is row 0 of W_f.
  EXPECT_EQ(packed[6 * 4], params.values("W_f")[0]);
}

// Tests packs of vectors, which are concatenated.
TEST(ParamStore, VectorPack) {
  ModelSpec spec;
  spec.params = {vectorParam("w", 3), vectorParam("b_i", 20),
                 vectorParam("b_f", 7), vectorParam("c", 2)};
  spec.packs = {{"b_if", {1, 2}}};
  ParamStore params(spec.desc(), 0);
  EXPECT_EQ(params.param(1).offset, 16);
  EXPECT_EQ(params.param(2).offset, 36);
  EXPECT_EQ(params.param(3).offset, 48);
  const cavs_pack_info &pack = params.pack(0);
  EXPECT_EQ(pack.rank, 1);
  EXPECT_EQ(pack.shape[0], 27);
  EXPECT_EQ(pack.shape[1], 0);
  EXPECT_EQ(pack.size, 27);
}

// Tests a pack whose members are not consecutive nor in declaration order
// (cavsc keeps declaration order and packs what merges): indices stay the
// declaration order, the pack is stored whole where its first declared
// member comes, and zeroing and optimizer steps reach every element.
TEST(ParamStore, PackMembersAnywhere) {
  ModelSpec spec;
  spec.params = {matrixParam("embed", 10, 4), matrixParam("W_i", 6, 4),
                 vectorParam("b", 5), matrixParam("W_f", 2, 4)};
  spec.packs = {{"W_fi", {3, 1}}};
  ParamStore params(spec.desc(), 0);
  EXPECT_EQ(params.paramIndex("b"), 2);
  EXPECT_EQ(params.paramIndex("W_f"), 3);
  const int64_t offsets[] = {0, 56, 80, 48};
  for (int32_t i = 0; i < 4; ++i)
    EXPECT_EQ(params.param(i).offset, offsets[i]) << i;
  const cavs_pack_info &pack = params.pack(0);
  EXPECT_EQ(pack.offset, 48);
  EXPECT_EQ(pack.shape[0], 8);
  EXPECT_EQ(pack.members[0], 3);
  EXPECT_EQ(params.data().size(), 96u);

  GradStore grads(params);
  for (int32_t i = 0; i < 4; ++i)
    std::fill(grads.values(i).begin(), grads.values(i).end(), 1.0f);
  cavs_optimizer_options options = Optimizer::defaults(OptimizerKind::Sgd);
  options.learning_rate = 1;
  Optimizer sgd(params, options);
  sgd.step(params, grads);
  for (int32_t i = 0; i < 4; ++i)
    for (float value : params.values(i))
      ASSERT_EQ(value, -1.0f) << params.param(i).name;
  grads.zero();
  for (int32_t i = 0; i < 4; ++i)
    for (float value : grads.values(i))
      ASSERT_EQ(value, 0.0f) << params.param(i).name;
}

// Tests that padding between tensors is zero after initialisation.
TEST(ParamStore, PaddingIsZero) {
  ModelSpec spec;
  spec.params = {vectorParam("a", 3, CAVS_INIT_ONES),
                 matrixParam("m", 3, 3, CAVS_INIT_CONSTANT, 7)};
  ParamStore params(spec.desc(), 0);
  Span<float> data = params.data();
  ASSERT_EQ(data.size(), 32u);
  for (size_t i = 0; i < data.size(); ++i) {
    const bool inA = i < 3, inM = i >= 16 && i < 25;
    EXPECT_EQ(data[i], inA ? 1.0f : inM ? 7.0f : 0.0f) << i;
  }
}

// Tests lookups by name and the wrapper's errors for unknown names/indices.
TEST(ParamStore, Lookups) {
  ParamStore params(tinyModel().desc(), 1);
  EXPECT_EQ(params.paramIndex("embed"), 0);
  EXPECT_EQ(params.paramIndex("b"), 3);
  EXPECT_EQ(cavs_param_store_find_param(params.get(), "W_iou_f"), -1);
  EXPECT_EQ(cavs_param_store_find_pack(params.get(), "W_f"), -1);
  expectError([&] { params.paramIndex("nope"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"the model has no parameter 'nope'"});
  expectError([&] { params.param(4); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"parameter index 4 is out of range"});
  expectError([&] { params.pack(-1); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"pack index -1 is out of range"});
}

// Tests that accessors are NULL- and range-safe.
TEST(ParamStore, AccessorsAreNullSafe) {
  EXPECT_EQ(cavs_param_store_model_name(nullptr), nullptr);
  EXPECT_EQ(cavs_param_store_signature(nullptr), 0u);
  EXPECT_EQ(cavs_param_store_size(nullptr), 0);
  EXPECT_EQ(cavs_param_store_data(nullptr), nullptr);
  EXPECT_EQ(cavs_param_store_values(nullptr), nullptr);
  EXPECT_EQ(cavs_param_store_num_params(nullptr), 0);
  EXPECT_EQ(cavs_param_store_find_param(nullptr, "b"), -1);
  EXPECT_EQ(cavs_param_store_param(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_param_store_param_data(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_param_store_param_values(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_param_store_num_packs(nullptr), 0);
  EXPECT_EQ(cavs_param_store_pack_data(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_grad_store_size(nullptr), 0);
  EXPECT_EQ(cavs_grad_store_param_data(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_grad_store_touched_rows(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_grad_store_num_touched_rows(nullptr, 0), 0);
  cavs_grad_store_zero(nullptr);
  cavs_param_store_destroy(nullptr);
  cavs_grad_store_destroy(nullptr);

  ParamStore params(tinyModel().desc(), 1);
  EXPECT_EQ(cavs_param_store_find_param(params.get(), nullptr), -1);
  EXPECT_EQ(cavs_param_store_param_data(params.get(), 4), nullptr);
  EXPECT_EQ(cavs_param_store_pack(params.get(), 1), nullptr);
  EXPECT_EQ(cavs_param_store_pack_data(params.get(), -1), nullptr);
  EXPECT_EQ(cavs_param_store_param_data(params.get(), 3),
            params.values(3).data());
  // The read-only accessors see the same values.
  EXPECT_EQ(cavs_param_store_param_values(params.get(), 3),
            params.values(3).data());
  EXPECT_EQ(cavs_param_store_param_values(params.get(), 4), nullptr);
  EXPECT_EQ(cavs_param_store_values(params.get()),
            cavs_param_store_data(params.get()));
  EXPECT_EQ(cavs_param_store_create(nullptr, 0, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "desc must not be NULL");
}

/// Expects creating a store from `spec` to fail with `status` and messages.
void expectBadModel(const ModelSpec &spec, cavs_status status,
                    std::initializer_list<std::string> fragments) {
  expectError([&] { ParamStore(spec.desc(), 0); }, status, fragments);
}

// Tests every descriptor error, each with its message.
TEST(ParamStore, DescriptorErrors) {
  struct Case {
    std::function<void(ModelSpec &)> change;
    std::string message;
  };
  const Case cases[] = {
      {[](ModelSpec &s) { s.name = ""; }, "the model descriptor has no name"},
      {[](ModelSpec &s) { s.params[1].name = ""; },
       "model 'tiny': parameter 1 has no name"},
      {[](ModelSpec &s) { s.params[2].name = "embed"; },
       "model 'tiny': parameter 2 repeats the name 'embed'"},
      {[](ModelSpec &s) { s.params[0].rank = 3; },
       "model 'tiny': parameter 'embed' has rank 3; parameters are vectors or "
       "matrices (rank 1 or 2)"},
      {[](ModelSpec &s) { s.params[0].shape[1] = 0; },
       "parameter 'embed' has shape [10, 0]; every dimension must be in [1, "
       "2147483647]"},
      {[](ModelSpec &s) { s.params[0].shape[0] = int64_t(1) << 31; },
       "parameter 'embed' has shape [2147483648, 4]"},
      {[](ModelSpec &s) { s.params[3].shape[1] = 2; },
       "parameter 'b' is a vector, so shape[1] must be 0, not 2"},
      {[](ModelSpec &s) { s.params[3].init = cavs_init_kind(9); },
       "parameter 'b' has the unknown initializer kind 9"},
      {[](ModelSpec &s) { s.params[0].init_args[1] = -0.5; },
       "parameter 'embed': the uniform initializer needs finite f32 bounds "
       "lo < hi, got [-0.1, -0.5]"},
      {[](ModelSpec &s) {
         s.params[3].init = CAVS_INIT_NORMAL;
         s.params[3].init_args[1] = 0;
       },
       "parameter 'b': the normal initializer needs a finite f32 mean and a "
       "finite f32 standard deviation > 0, got mean 0.25 and deviation 0"},
      {[](ModelSpec &s) { s.params[3].init_args[0] = HUGE_VAL; },
       "parameter 'b': the constant initializer needs a finite f32 value, "
       "got inf"},
      // Finite as doubles, not as the f32 values (every value was inf).
      {[](ModelSpec &s) { s.params[3].init_args[0] = 1e39; },
       "parameter 'b': the constant initializer needs a finite f32 value, "
       "got 1e+39"},
      {[](ModelSpec &s) {
         s.params[0].init_args[0] = -1e300;
         s.params[0].init_args[1] = 1e300;
       },
       "parameter 'embed': the uniform initializer needs finite f32 bounds "
       "lo < hi, got [-1e+300, 1e+300]"},
      // Finite arguments, draws past f32 (values inf).
      {[](ModelSpec &s) {
         s.params[3].init = CAVS_INIT_NORMAL;
         s.params[3].init_args[0] = 3e38;
         s.params[3].init_args[1] = 3e37;
       },
       "parameter 'b': the normal initializer draws up to 9 deviations from "
       "the mean, past f32 for mean 3e+38 and deviation 3e+37"},
      {[](ModelSpec &s) {
         s.params[3].init = CAVS_INIT_NORMAL;
         s.params[3].init_args[1] = 1e300;
       },
       "parameter 'b': the normal initializer needs a finite f32 mean and a "
       "finite f32 standard deviation > 0, got mean 0.25 and deviation "
       "1e+300"},
      {[](ModelSpec &s) { s.packs[0].name = "b"; },
       "model 'tiny': pack 0 repeats the name 'b'"},
      {[](ModelSpec &s) {
         s.packs[0].members = {1, 4};
       },
       "model 'tiny': member 1 of pack 'W_iou_f' is parameter 4, out of "
       "range; the model has 4 parameters"},
      {[](ModelSpec &s) { s.packs[0].members = {-1}; },
       "member 0 of pack 'W_iou_f' is parameter -1, out of range"},
      {[](ModelSpec &s) { s.packs[0].members.clear(); },
       "model 'tiny': pack 'W_iou_f' has 0 members; it needs at least one"},
      {[](ModelSpec &s) {
         s.packs[0].members = {1, 2, 1};
       },
       "model 'tiny': pack 'W_iou_f' lists parameter 'W_iou' twice"},
      {[](ModelSpec &s) {
         s.packs.push_back({"again", {2}});
       },
       "model 'tiny': parameter 'W_f' is in two packs, 'W_iou_f' and "
       "'again'"},
      {[](ModelSpec &s) {
         s.packs[0] = {"mixed", {2, 3}};
       },
       "model 'tiny': pack 'mixed' cannot stack 'W_f' [2, 4] and 'b' [5]; "
       "members are all vectors or all matrices with equal column counts"},
      {[](ModelSpec &s) { s.params[2].shape[1] = 5; },
       "pack 'W_iou_f' cannot stack 'W_iou' [6, 4] and 'W_f' [2, 5]"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    ModelSpec spec = tinyModel();
    c.change(spec);
    expectBadModel(spec, CAVS_ERROR_INVALID_ARGUMENT, {c.message});
  }
}

// Tests structural descriptor errors: version, counts and NULL arrays.
TEST(ParamStore, DescriptorStructureErrors) {
  ModelSpec spec = tinyModel();
  cavs_model_desc desc = spec.desc();
  cavs_param_store *store = nullptr;
  desc.version = 1;
  EXPECT_EQ(cavs_param_store_create(&desc, 0, &store), CAVS_ERROR_UNSUPPORTED);
  EXPECT_STREQ(cavs_last_error_message(),
               "model descriptor version 1 is not supported; this runtime "
               "reads version 2");
  desc = spec.desc();
  desc.num_packs = -1;
  EXPECT_EQ(cavs_param_store_create(&desc, 0, &store),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "model 'tiny' has a negative count (4 parameters, -1 packs)");
  desc = spec.desc();
  const cavs_pack_desc noMembers = {"W_iou_f", 2, nullptr};
  desc.packs = &noMembers;
  EXPECT_EQ(cavs_param_store_create(&desc, 0, &store),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "model 'tiny': pack 'W_iou_f' has 2 members but members is "
               "NULL");
  desc = spec.desc();
  desc.params = nullptr;
  EXPECT_EQ(cavs_param_store_create(&desc, 0, &store),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "model 'tiny': params and packs must not be NULL when their "
               "count is positive");
  EXPECT_EQ(store, nullptr);
}

// Tests that a model without parameters is valid (and empty).
TEST(ParamStore, EmptyModel) {
  ModelSpec spec;
  ParamStore params(spec.desc(), 0);
  EXPECT_EQ(params.numParams(), 0);
  EXPECT_EQ(params.data().size(), 0u);
}

// Tests that a gradient store shares the layout, is zeroed and aligned.
TEST(GradStore, SameLayoutZeroed) {
  ParamStore params(tinyModel().desc(), 1);
  GradStore grads(params);
  ASSERT_EQ(grads.data().size(), params.data().size());
  EXPECT_NE(grads.data().data(), params.data().data());
  EXPECT_TRUE(isAligned(grads.data().data()));
  for (float g : grads.data())
    EXPECT_EQ(g, 0.0f);
  for (int32_t i = 0; i < params.numParams(); ++i)
    EXPECT_EQ(grads.values(i).data() - grads.data().data(),
              params.param(i).offset);
  EXPECT_EQ(grads.packValues(0).data(), grads.values(1).data());
  EXPECT_EQ(grads.packValues(0).size(), 32u);
  expectError([&] { grads.values(7); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"parameter index 7 is out of range"});
  // The gradient store keeps the layout alive on its own.
  GradStore *orphan = nullptr;
  {
    ParamStore temporary(tinyModel().desc(), 1);
    orphan = new GradStore(temporary);
  }
  EXPECT_EQ(orphan->values(3).size(), 5u);
  delete orphan;
}

// Tests zeroing of untracked parameters: every element becomes 0.
TEST(GradStore, ZeroClearsEverything) {
  ParamStore params(tinyModel().desc(), 1);
  GradStore grads(params);
  for (int32_t i = 0; i < params.numParams(); ++i)
    for (float &g : grads.values(i))
      g = 3.0f;
  grads.zero();
  for (float g : grads.data())
    EXPECT_EQ(g, 0.0f);
}

// Tests touched-row tracking: distinct rows in first-marked order, zeroing
// that clears only those rows and empties the list.
TEST(GradStore, TouchedRows) {
  ParamStore params(tinyModel().desc(), 1);
  GradStore grads(params);
  for (float &g : grads.values(0))
    g = 1.0f;
  grads.trackRows(0);
  EXPECT_TRUE(grads.tracksRows(0));
  EXPECT_FALSE(grads.tracksRows(1));
  EXPECT_FALSE(grads.tracksRows(99));
  for (float g : grads.values(0))
    EXPECT_EQ(g, 0.0f) << "tracking starts from a zero gradient";

  grads.markRows(0, {7, 2, 7, 9});
  grads.markRows(0, {2, 0});
  EXPECT_EQ(std::vector<int32_t>(grads.touchedRows(0).begin(),
                                 grads.touchedRows(0).end()),
            (std::vector<int32_t>{7, 2, 9, 0}));
  Span<float> embed = grads.values(0);
  for (int32_t row : {7, 2, 9, 0, 5})
    for (int32_t c = 0; c < 4; ++c)
      embed[row * 4 + c] = float(row + 1);
  for (float &g : grads.values(3))
    g = 2.0f;

  grads.zero();
  EXPECT_TRUE(grads.touchedRows(0).empty());
  for (int32_t row = 0; row < 10; ++row)
    for (int32_t c = 0; c < 4; ++c)
      // Row 5 was written without being marked, breaking the contract, so
      // zeroing (which trusts the marks) leaves it: proof that only marked
      // rows are visited.
      EXPECT_EQ(embed[row * 4 + c], row == 5 ? 6.0f : 0.0f) << row;
  for (float g : grads.values(3))
    EXPECT_EQ(g, 0.0f);
  // Marks start afresh after zeroing.
  grads.markRows(0, {2});
  EXPECT_EQ(grads.touchedRows(0).size(), 1u);
  grads.trackRows(0); // again: harmless, the marks stay
  EXPECT_EQ(grads.touchedRows(0).size(), 1u);
}

// Tests the errors of tracking and marking; a failed mark marks nothing.
TEST(GradStore, TrackingErrors) {
  ParamStore params(tinyModel().desc(), 1);
  GradStore grads(params);
  expectError([&] { grads.trackRows(3); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"parameter 'b' is a vector; only matrices have rows to track"});
  expectError([&] { grads.trackRows(4); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"parameter index 4 is out of range; model 'tiny' has 4 "
               "parameters"});
  grads.trackRows(0);
  expectError(
      [&] {
        grads.markRows(0, {1, 10});
      },
      CAVS_ERROR_INVALID_ARGUMENT,
      {"row 10 (entry 1) of parameter 'embed' is out of range [0, "
       "10)"});
  EXPECT_TRUE(grads.touchedRows(0).empty());
  expectError([&] { grads.markRows(0, {-1}); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"row -1 (entry 0)"});
  // Untracked parameters check the rows but record nothing.
  grads.markRows(1, {5});
  EXPECT_EQ(cavs_grad_store_num_touched_rows(grads.get(), 1), 0);
  EXPECT_EQ(cavs_grad_store_touched_rows(grads.get(), 1), nullptr);
  expectError([&] { grads.markRows(1, {6}); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"row 6 (entry 0) of parameter 'W_iou' is out of range [0, 6)"});
  EXPECT_EQ(cavs_grad_store_mark_rows(grads.get(), 0, nullptr, 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "rows must not be NULL");
  EXPECT_EQ(cavs_grad_store_mark_rows(grads.get(), 0, nullptr, -2),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "cannot mark a negative number of rows (-2)");
  EXPECT_EQ(cavs_grad_store_mark_rows(grads.get(), 0, nullptr, 0), CAVS_OK);
}

} // namespace
} // namespace cavs::test
