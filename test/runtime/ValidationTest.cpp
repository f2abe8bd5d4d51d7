//===- ValidationTest.cpp - every class of graph validation error ---------===//
//
// Each test feeds one malformed sample and checks the status and the message
// text, which must name the sample and the vertex. Deep chains check that
// validation is iterative.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <limits>
#include <numeric>

namespace cavs::test {
namespace {

// A builder for one type of arity 2, holding one valid sample so that the
// sample under test has index 1.
GraphBuilder builderWithOneSample() {
  GraphBuilder builder({2});
  builder.addSample({0}, {-1, -1});
  return builder;
}

// Tests an empty sample and an empty batch.
TEST(Validation, EmptySampleAndBatch) {
  GraphBuilder builder({2});
  expectError([&] { builder.addSample({}, {}); }, CAVS_ERROR_INVALID_GRAPH,
              {"sample 0 has no vertices"});
  expectError([&] { builder.finalize(); }, CAVS_ERROR_INVALID_GRAPH,
              {"the batch has no samples"});
}

// Tests a negative vertex count, which is an argument error.
TEST(Validation, NegativeVertexCount) {
  GraphBuilder builder({2});
  const int32_t types[] = {0};
  EXPECT_EQ(
      cavs_graph_builder_add_sample(builder.get(), -3, types, nullptr, nullptr),
      CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "sample 0: negative vertex count -3");
}

// Tests an unknown vertex-function type id.
TEST(Validation, UnknownType) {
  GraphBuilder builder({0, 2});
  builder.addSample({0}, {-1, -1});
  expectError(
      [&] {
        builder.addSample({1, 0, 2}, {1, -1, -1, -1, -1, -1});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"sample 1, vertex 2: unknown type id 2 (the graph has types 0 "
       "to 1)"});
  expectError(
      [&] {
        builder.addSample({-1}, {-1, -1});
      },
      CAVS_ERROR_INVALID_GRAPH, {"vertex 0: unknown type id -1"});
}

// Tests child indices outside the sample (other samples' vertices are out of
// range too: children are sample-local).
TEST(Validation, ChildOutOfRange) {
  GraphBuilder builder = builderWithOneSample();
  expectError(
      [&] {
        builder.addSample({0, 0, 0}, {-1, -1, 7, -1, -1, -1});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"sample 1, vertex 1: child slot 0 refers to vertex 7, outside "
       "the sample's range [0, 3)"});
  expectError(
      [&] {
        builder.addSample({0, 0}, {-1, -1, -1, -2});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"vertex 1: child slot 1 refers to vertex -2",
       "use -1 for an absent child"});
}

// Tests a vertex that is its own child.
TEST(Validation, SelfReference) {
  GraphBuilder builder = builderWithOneSample();
  expectError(
      [&] {
        builder.addSample({0, 0}, {-1, -1, 0, 1});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"sample 1, vertex 1: child slot 1 refers to the vertex itself"});
}

// Tests a child in a slot past the arity of the vertex's type.
TEST(Validation, MoreChildrenThanArity) {
  GraphBuilder builder({1, 3});
  expectError(
      [&] {
        builder.addSample({0, 0, 1}, {-1, -1, -1, 0, 2, -1, 0, 1, -1});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"sample 0, vertex 1: child slot 1 is set (to 2) but type 0 has arity "
       "1"});
}

// Tests cycles: the message prints the cycle, eliding the middle of a long
// one.
TEST(Validation, Cycles) {
  GraphBuilder builder = builderWithOneSample();
  // 0 -> 1 -> 2 -> 0 (each a child of the one before), plus a tail 3 -> 0.
  expectError(
      [&] {
        builder.addSample({0, 0, 0, 0}, {1, -1, 2, -1, 0, -1, 0, -1});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"sample 1: cycle of 3 vertices through child links: 0 -> 1 -> 2 -> 0"});

  std::vector<int32_t> types(100, 0), children(200, -1);
  for (int32_t v = 0; v < 100; ++v)
    children[2 * v + 1] = (v + 1) % 100;
  expectError([&] { builder.addSample(types, children); },
              CAVS_ERROR_INVALID_GRAPH,
              {"cycle of 100 vertices through child links: 0 -> 1 -> 2 -> 3 "
               "-> ... -> 96 -> 97 -> 98 -> 99 -> 0"});
}

// Tests a cycle that is only reachable through a DAG's shared vertex.
TEST(Validation, CycleBehindSharedChild) {
  GraphBuilder builder({2});
  // 0 and 1 share child 2; 2 -> 3 -> 2.
  expectError(
      [&] {
        builder.addSample({0, 0, 0, 0}, {2, -1, 2, -1, 3, -1, 2, -1});
      },
      CAVS_ERROR_INVALID_GRAPH,
      {"sample 0: cycle of 2 vertices through child links: 2 -> 3 -> "
       "2"});
}

// Tests that 100k-vertex chains and cycles, numbered either way round or
// zigzagging (links up and down in index order, which the depth-first
// search checks), validate without recursion.
TEST(Validation, DeepChainsAreIterative) {
  constexpr int32_t n = 100000;
  std::vector<int32_t> types(n, 0), forward(n), backward(n), zigzag(n, -1);
  for (int32_t v = 0; v < n; ++v) {
    forward[v] = v - 1;                   // child before parent
    backward[v] = v + 1 < n ? v + 1 : -1; // child after parent
  }
  // The chain 0 -> n-1 -> 1 -> n-2 -> 2 -> ..., each the previous one's
  // child.
  std::vector<int32_t> chain;
  for (int32_t low = 0, high = n - 1; low <= high; ++low, --high) {
    chain.push_back(low);
    if (high != low)
      chain.push_back(high);
  }
  for (size_t i = 0; i + 1 < chain.size(); ++i)
    zigzag[chain[i]] = chain[i + 1];
  GraphBuilder builder({1});
  builder.addSample(types, forward);
  builder.addSample(types, backward);
  builder.addSample(types, zigzag);
  backward[n - 1] = 0;
  expectError([&] { builder.addSample(types, backward); },
              CAVS_ERROR_INVALID_GRAPH,
              {"sample 3: cycle of 100000 vertices", "-> 99999 -> 0"});
  zigzag[chain.back()] = chain.front();
  expectError([&] { builder.addSample(types, zigzag); },
              CAVS_ERROR_INVALID_GRAPH,
              {"sample 3: cycle of 100000 vertices", "0 -> 99999 -> 1 -> "});
  EXPECT_EQ(builder.finalize().numVertices(), 3 * n);
}

// Tests that sizes overflowing int32 are reported before any array is read.
TEST(Validation, Int32Overflow) {
  const int32_t arity[] = {CAVS_MAX_ARITY};
  cavs_graph_builder *raw = nullptr;
  ASSERT_EQ(cavs_graph_builder_create(1, arity, &raw), CAVS_OK);
  std::vector<int32_t> types(1 << 19, 0), children(CAVS_MAX_ARITY, -1);
  const int32_t dummy = 0;

  // Vertices: the arrays are far too short, so reading them would crash.
  ASSERT_EQ(cavs_graph_builder_add_sample(raw, 1, types.data(), children.data(),
                                          nullptr),
            CAVS_OK);
  EXPECT_EQ(cavs_graph_builder_add_sample(raw,
                                          std::numeric_limits<int32_t>::max(),
                                          &dummy, &dummy, nullptr),
            CAVS_ERROR_INVALID_GRAPH);
  EXPECT_STREQ(cavs_last_error_message(),
               "sample 1: the batch would have 2147483648 vertices, more than "
               "the int32 limit 2147483647");

  // Child slots: 2^19 vertices of arity 4096 are 2^31 slots; only the types
  // are read before the check.
  EXPECT_EQ(cavs_graph_builder_add_sample(raw, 1 << 19, types.data(), &dummy,
                                          nullptr),
            CAVS_ERROR_INVALID_GRAPH);
  EXPECT_STREQ(cavs_last_error_message(),
               "sample 1: the batch would have 2147487744 child slots, more "
               "than the int32 limit 2147483647");
  cavs_graph_builder_destroy(raw);
}

} // namespace
} // namespace cavs::test
