//===- GraphBuilderTest.cpp - graph builder, batch queries, status ABI ----===//
//
// Builds small batches through the C++ wrapper and the raw C ABI and checks
// every query: CSR children, samples, parent counts, roots, attributes.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <thread>

extern "C" int cavsTestScheduleFromC(void);

namespace cavs::test {
namespace {

// Two binary trees with types leaf (0, arity 0) and internal (1, arity 2).
GraphBatch twoTrees() {
  GraphBuilder builder({0, 2});
  EXPECT_EQ(builder.addAttribute("word"), 0);
  // Sample 0: ((a b) c) with the root first: 0=(1 4), 1=(2 3), 2=a 3=b 4=c.
  builder.addSample({1, 1, 0, 0, 0}, {1, 4, 2, 3, -1, -1, -1, -1, -1, -1},
                    {{-1, -1, 10, 11, 12}});
  // Sample 1: a single leaf.
  builder.addSample({0}, {-1, -1}, {{13}});
  return builder.finalize();
}

// Tests the shape queries of a two-sample batch.
TEST(GraphBuilder, QueriesShape) {
  GraphBatch batch = twoTrees();
  EXPECT_EQ(batch.numVertices(), 6);
  EXPECT_EQ(batch.numSamples(), 2);
  EXPECT_EQ(batch.numTypes(), 2);
  EXPECT_EQ(batch.arity(0), 0);
  EXPECT_EQ(batch.arity(1), 2);
  EXPECT_EQ(batch.arity(2), -1);
  EXPECT_EQ(batch.maxArity(), 2);
  EXPECT_EQ(std::vector<int32_t>(batch.types().begin(), batch.types().end()),
            (std::vector<int32_t>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(std::vector<int32_t>(batch.sampleOffsets().begin(),
                                 batch.sampleOffsets().end()),
            (std::vector<int32_t>{0, 5, 6}));
  EXPECT_EQ(std::vector<int32_t>(batch.vertexSamples().begin(),
                                 batch.vertexSamples().end()),
            (std::vector<int32_t>{0, 0, 0, 0, 0, 1}));
}

// Tests that children are stored CSR with global ids and per-type arity.
TEST(GraphBuilder, ChildrenAreGlobalCsr) {
  GraphBatch batch = twoTrees();
  ASSERT_EQ(batch.children(0).size(), 2u);
  EXPECT_EQ(batch.children(0)[0], 1);
  EXPECT_EQ(batch.children(0)[1], 4);
  EXPECT_EQ(batch.children(1)[0], 2);
  EXPECT_EQ(batch.children(1)[1], 3);
  EXPECT_TRUE(batch.children(2).empty());
  EXPECT_TRUE(batch.children(5).empty());
  const int32_t *offsets = cavs_graph_batch_child_offsets(batch.get());
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[6], 4); // only the two internal vertices have slots
}

// Tests parent counts and roots, which are per-vertex and grouped by sample.
TEST(GraphBuilder, ParentCountsAndRoots) {
  GraphBatch batch = twoTrees();
  EXPECT_EQ(std::vector<int32_t>(batch.parentCounts().begin(),
                                 batch.parentCounts().end()),
            (std::vector<int32_t>{0, 1, 1, 1, 1, 0}));
  EXPECT_EQ(std::vector<int32_t>(batch.roots().begin(), batch.roots().end()),
            (std::vector<int32_t>{0, 5}));
}

// Tests attributes: lookup by name, values concatenated over samples.
TEST(GraphBuilder, Attributes) {
  GraphBatch batch = twoTrees();
  EXPECT_TRUE(batch.hasAttribute("word"));
  EXPECT_FALSE(batch.hasAttribute("label"));
  Span<const int32_t> words = batch.attribute("word");
  EXPECT_EQ(std::vector<int32_t>(words.begin(), words.end()),
            (std::vector<int32_t>{-1, -1, 10, 11, 12, 13}));
  EXPECT_STREQ(cavs_graph_batch_attribute_name(batch.get(), 0), "word");
  EXPECT_EQ(cavs_graph_batch_attribute_name(batch.get(), 1), nullptr);
  expectError([&] { batch.attribute("label"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"no attribute 'label'"});
}

// Tests a DAG: a vertex gathered by two parents, and twice by one parent.
TEST(GraphBuilder, DagParentCounts) {
  GraphBuilder builder({2});
  // 0 and 3 both read 2; 1 reads 3 in both slots.
  builder.addSample({0, 0, 0, 0}, {2, -1, 3, 3, -1, -1, 2, -1});
  GraphBatch batch = builder.finalize();
  EXPECT_EQ(std::vector<int32_t>(batch.parentCounts().begin(),
                                 batch.parentCounts().end()),
            (std::vector<int32_t>{0, 0, 2, 2}));
  EXPECT_EQ(batch.roots().size(), 2u);
}

// Tests that finalize empties the builder but keeps types and attributes.
// Tests that reserving past the int32 limit is refused (it used to clamp
// and succeed, and a caller then learnt of the limit only samples later).
TEST(GraphBuilder, ReserveRefusesSizesPastTheLimit) {
  GraphBuilder builder({1});
  builder.addSample({0}, {-1}, {});
  expectError([&] { builder.reserve(int64_t(1) << 40, 1); },
              CAVS_ERROR_INVALID_GRAPH,
              {"cannot reserve 1099511627776 more vertices in 1 more samples: "
               "the batch would have more than the int32 limit 2147483647"});
  expectError([&] { builder.reserve(2147483647, 0); },
              CAVS_ERROR_INVALID_GRAPH, {"the int32 limit"});
  builder.reserve(2, 1);
  EXPECT_EQ(builder.finalize().numVertices(), 1);
}

TEST(GraphBuilder, FinalizeResetsForTheNextBatch) {
  GraphBuilder builder({1});
  builder.addAttribute("x");
  builder.reserve(100, 10);
  builder.addSample({0, 0}, {-1, 0}, {{1, 2}});
  GraphBatch first = builder.finalize();
  builder.addSample({0}, {-1}, {{3}});
  GraphBatch second = builder.finalize();
  EXPECT_EQ(first.numVertices(), 2);
  EXPECT_EQ(second.numVertices(), 1);
  EXPECT_EQ(second.attribute("x")[0], 3);
  EXPECT_EQ(second.children(0)[0], CAVS_NO_CHILD);
}

// Tests that a rejected sample leaves the builder unchanged.
TEST(GraphBuilder, RejectedSampleLeavesBuilderUnchanged) {
  GraphBuilder builder({1});
  builder.addSample({0, 0}, {-1, 0});
  expectError(
      [&] {
        builder.addSample({0, 0}, {1, 0});
      },
      CAVS_ERROR_INVALID_GRAPH, {"sample 1", "cycle"});
  builder.addSample({0}, {-1});
  GraphBatch batch = builder.finalize();
  EXPECT_EQ(batch.numSamples(), 2);
  EXPECT_EQ(batch.numVertices(), 3);
}

// Tests the wrapper's size checks, which the C ABI cannot make.
TEST(GraphBuilder, WrapperChecksSpanSizes) {
  GraphBuilder builder({2});
  builder.addAttribute("x");
  expectError([&] { builder.addSample({0}, {-1}, {{0}}); },
              CAVS_ERROR_INVALID_ARGUMENT, {"expected 2 per vertex"});
  expectError(
      [&] {
        builder.addSample({0}, {-1, -1});
      },
      CAVS_ERROR_INVALID_ARGUMENT, {"0 attribute arrays for 1"});
  expectError(
      [&] {
        builder.addSample({0}, {-1, -1}, {{1, 2}});
      },
      CAVS_ERROR_INVALID_ARGUMENT, {"2 values for 1 vertices"});
}

// Tests that C arrays pass as spans, with their sizes, to every argument.
TEST(GraphBuilder, TakesCArrays) {
  const int32_t arities[] = {0, 2};
  GraphBuilder builder(arities);
  builder.addAttribute("word");
  const int32_t types[] = {1, 0, 0};
  int32_t children[] = {1, 2, -1, -1, -1, -1};
  const int32_t words[] = {-1, 7, 8};
  const Span<const int32_t> attributes[] = {words};
  builder.addSample(types, children, attributes);
  GraphBatch batch = builder.finalize();
  EXPECT_EQ(batch.numVertices(), 3);
  EXPECT_EQ(batch.attribute("word")[2], 8);
  const int32_t tooFew[] = {-1, -1};
  expectError([&] { builder.addSample(types, tooFew, attributes); },
              CAVS_ERROR_INVALID_ARGUMENT, {"children has 2 entries"});
}

// Tests attribute declaration errors.
TEST(GraphBuilder, AttributeErrors) {
  GraphBuilder builder({0});
  builder.addAttribute("a");
  expectError([&] { builder.addAttribute("a"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"'a' is declared twice"});
  expectError([&] { builder.addAttribute(""); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"must not be empty"});
  builder.addSample({0}, {}, {{7}});
  expectError([&] { builder.addAttribute("b"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"after the first sample"});
}

// Tests builder creation errors: no types, negative or huge arity.
TEST(GraphBuilder, CreateErrors) {
  expectError([] { GraphBuilder builder({}); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"at least one vertex type"});
  expectError(
      [] {
        GraphBuilder builder({2, -1});
      },
      CAVS_ERROR_INVALID_ARGUMENT, {"type 1 has arity -1"});
  expectError([] { GraphBuilder builder({CAVS_MAX_ARITY + 1}); },
              CAVS_ERROR_INVALID_ARGUMENT, {"outside [0, 4096]"});
}

// Tests the raw C ABI: NULL arguments, NULL-safe accessors, error messages.
TEST(CApi, NullArgumentsAndAccessors) {
  cavs_graph_builder *builder = nullptr;
  EXPECT_EQ(cavs_graph_builder_create(1, nullptr, &builder),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "arities must not be NULL");
  const int32_t arities[] = {1};
  EXPECT_EQ(cavs_graph_builder_create(1, arities, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(cavs_graph_builder_create(1, arities, &builder), CAVS_OK);
  const int32_t types[] = {0};
  EXPECT_EQ(cavs_graph_builder_add_sample(builder, 1, types, nullptr, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(),
               "children must not be NULL when a type has children");
  cavs_graph_batch *batch = nullptr;
  EXPECT_EQ(cavs_graph_builder_finalize(builder, &batch),
            CAVS_ERROR_INVALID_GRAPH);
  EXPECT_STREQ(cavs_last_error_message(), "the batch has no samples");
  cavs_graph_builder_destroy(builder);
  cavs_graph_builder_destroy(nullptr);
  cavs_graph_batch_destroy(nullptr);

  EXPECT_EQ(cavs_graph_batch_num_vertices(nullptr), 0);
  EXPECT_EQ(cavs_graph_batch_types(nullptr), nullptr);
  EXPECT_EQ(cavs_graph_batch_type_arity(nullptr, 0), -1);
  EXPECT_EQ(cavs_graph_batch_find_attribute(nullptr, "word"), -1);
  EXPECT_EQ(cavs_schedule_num_tasks(nullptr), 0);
  EXPECT_EQ(cavs_schedule_type_rows(nullptr, 0), nullptr);
  EXPECT_EQ(cavs_vocab_word(nullptr, 0), nullptr);
}

// Tests that the public headers compile as strict C99 and work from C.
TEST(CApi, UsableFromC) { EXPECT_EQ(cavsTestScheduleFromC(), 3); }

// Tests status strings, including for values this version does not know.
TEST(CApi, StatusStrings) {
  EXPECT_STREQ(cavs_status_string(CAVS_OK), "ok");
  EXPECT_STREQ(cavs_status_string(CAVS_ERROR_INVALID_GRAPH), "invalid graph");
  EXPECT_STREQ(cavs_status_string(CAVS_ERROR_PARSE), "parse error");
  EXPECT_STREQ(cavs_status_string(static_cast<cavs_status>(1000)),
               "unknown status");
}

// Tests that the last error message is per thread and survives successes.
TEST(CApi, LastErrorIsThreadLocal) {
  const int32_t arities[] = {0};
  cavs_graph_builder *builder = nullptr;
  EXPECT_EQ(cavs_graph_builder_create(0, arities, &builder),
            CAVS_ERROR_INVALID_ARGUMENT);
  const std::string mine = cavs_last_error_message();
  EXPECT_NE(mine.find("at least one vertex type"), std::string::npos);
  std::string other = "unset";
  std::thread([&] { other = cavs_last_error_message(); }).join();
  EXPECT_EQ(other, "");
  ASSERT_EQ(cavs_graph_builder_create(1, arities, &builder), CAVS_OK);
  EXPECT_EQ(cavs_last_error_message(), mine);
  cavs_graph_builder_destroy(builder);
}

} // namespace
} // namespace cavs::test
