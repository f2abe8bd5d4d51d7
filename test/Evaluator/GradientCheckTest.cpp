//===- GradientCheckTest.cpp - finite differences and random graphs -------===//
//
// A hand-written ∂F of a tanh tree-RNN must pass the finite-difference
// check on random chains, trees and DAGs, and wrong ones must fail it; the
// random graphs must be deterministic and have the promised structure.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorTestUtil.h"

#include "test/lib/Evaluator/GradientCheck.h"
#include "test/lib/Evaluator/RandomGraph.h"

using namespace cavs;
using namespace cavs::test;

namespace {

/// A leaf embeds a word, a cell combines two children and an f32 input;
/// both push h = tanh(z) and add a cross-entropy loss on Wo h + bo. The
/// placeholders select a correct ∂F or one of two bugs.
constexpr const char *kTreeRnn = R"mlir(
cavs.model @rnn state tensor<3xf32> {
  cavs.param @E : tensor<5x2xf32> init xavier
  cavs.param @W : tensor<3x2xf32> init xavier
  cavs.param @U : tensor<3x6xf32> init xavier
  cavs.param @b : tensor<3xf32> init zeros
  cavs.param @Wo : tensor<4x3xf32> init xavier
  cavs.param @bo : tensor<4xf32> init zeros
  cavs.vertex @leaf arity 0 pulls {word = i32, label = i32} pushes {h = tensor<3xf32>} {
    %word = cavs.pull "word" : i32
    %label = cavs.pull "label" : i32
    %E = cavs.param_ref @E : tensor<5x2xf32>
    %x = cavs.lookup %E[%word] : tensor<5x2xf32>, i32 -> tensor<2xf32>
    %W = cavs.param_ref @W : tensor<3x2xf32>
    %b = cavs.param_ref @b : tensor<3xf32>
    %a = cavs.matmul %W, %x : tensor<3x2xf32>, tensor<2xf32> -> tensor<3xf32>
    %z = cavs.add %a, %b : tensor<3xf32>
    %h = cavs.tanh %z : tensor<3xf32>
    cavs.scatter %h : tensor<3xf32>
    cavs.push "h", %h : tensor<3xf32>
    %Wo = cavs.param_ref @Wo : tensor<4x3xf32>
    %bo = cavs.param_ref @bo : tensor<4xf32>
    %o = cavs.matmul %Wo, %h : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %logits = cavs.add %o, %bo : tensor<4xf32>
    %loss = cavs.softmax_cross_entropy %logits, %label : tensor<4xf32>, i32
    cavs.loss %loss : tensor<f32>
    cavs.backward {
      %one = cavs.constant dense<1.0> : tensor<f32>
      %dlogits = cavs.softmax_cross_entropy_grad %logits, %label, %one : tensor<4xf32>, i32
      cavs.param_grad @bo, %dlogits : tensor<4xf32>
      cavs.param_grad_outer @Wo, %dlogits, %h : tensor<4xf32>, tensor<3xf32>
      %dho = cavs.matmul %Wo, %dlogits {transpose_lhs} : tensor<4x3xf32>, tensor<4xf32> -> tensor<3xf32>
      %ds = cavs.state_grad : tensor<3xf32>
      %dp = cavs.push_grad "h" : tensor<3xf32>
      %dh = cavs.sum {LEAF_DH} : tensor<3xf32>
      %h2 = cavs.mul %h, %h : tensor<3xf32>
      %dtanh = cavs.sub %one, %h2 : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
      %dz = cavs.mul %dh, %dtanh : tensor<3xf32>
      cavs.param_grad @b, %dz : tensor<3xf32>
      cavs.param_grad_outer @W, %dz, %x : tensor<3xf32>, tensor<2xf32>
      %dx = cavs.matmul %W, %dz {transpose_lhs} : tensor<3x2xf32>, tensor<3xf32> -> tensor<2xf32>
      cavs.lookup_grad @E[%word], %dx : i32, tensor<2xf32>
    }
  }
  cavs.vertex @cell arity 2 pulls {x = tensor<2xf32>, label = i32} pushes {h = tensor<3xf32>} {
    %x = cavs.pull "x" : tensor<2xf32>
    %label = cavs.pull "label" : i32
    %c0 = cavs.gather 0 : tensor<3xf32>
    %c1 = cavs.gather 1 : tensor<3xf32>
    %hc = cavs.concat %c0, %c1 : tensor<3xf32>, tensor<3xf32> -> tensor<6xf32>
    %W = cavs.param_ref @W : tensor<3x2xf32>
    %U = cavs.param_ref @U : tensor<3x6xf32>
    %b = cavs.param_ref @b : tensor<3xf32>
    %a = cavs.matmul %W, %x : tensor<3x2xf32>, tensor<2xf32> -> tensor<3xf32>
    %u = cavs.matmul %U, %hc : tensor<3x6xf32>, tensor<6xf32> -> tensor<3xf32>
    %z0 = cavs.add %a, %u : tensor<3xf32>
    %z = cavs.add %z0, %b : tensor<3xf32>
    %h = cavs.tanh %z : tensor<3xf32>
    cavs.scatter %h : tensor<3xf32>
    cavs.push "h", %h : tensor<3xf32>
    %Wo = cavs.param_ref @Wo : tensor<4x3xf32>
    %bo = cavs.param_ref @bo : tensor<4xf32>
    %o = cavs.matmul %Wo, %h : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %logits = cavs.add %o, %bo : tensor<4xf32>
    %loss = cavs.softmax_cross_entropy %logits, %label : tensor<4xf32>, i32
    cavs.loss %loss : tensor<f32>
    cavs.backward {
      %one = cavs.constant dense<1.0> : tensor<f32>
      %dlogits = cavs.softmax_cross_entropy_grad %logits, %label, %one : tensor<4xf32>, i32
      cavs.param_grad @bo, %dlogits : tensor<4xf32>
      cavs.param_grad_outer @Wo, %dlogits, %h : tensor<4xf32>, tensor<3xf32>
      %dho = cavs.matmul %Wo, %dlogits {transpose_lhs} : tensor<4x3xf32>, tensor<4xf32> -> tensor<3xf32>
      %ds = cavs.state_grad : tensor<3xf32>
      %dp = cavs.push_grad "h" : tensor<3xf32>
      %dh = cavs.sum %ds, %dp, %dho : tensor<3xf32>
      %h2 = cavs.mul %h, %h : tensor<3xf32>
      %dtanh = cavs.sub %one, %h2 : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
      %dz = cavs.mul %dh, %dtanh : tensor<3xf32>
      cavs.param_grad @b, %dz : tensor<3xf32>
      cavs.param_grad_outer @W, %dz, %x : tensor<3xf32>, tensor<2xf32>
      cavs.param_grad_outer @U, %dz, %hc : tensor<3xf32>, tensor<6xf32>
      %dx = cavs.matmul %W, %dz {transpose_lhs} : tensor<3x2xf32>, tensor<3xf32> -> tensor<2xf32>
      cavs.pull_grad "x", %dx : tensor<2xf32>
      %dhc = cavs.matmul %U, %dz {transpose_lhs} : tensor<3x6xf32>, tensor<3xf32> -> tensor<6xf32>
      %d0, %d1 = cavs.split %dhc : tensor<6xf32> -> tensor<3xf32>, tensor<3xf32>
      cavs.child_grad 0, %d0 : tensor<3xf32>
      cavs.child_grad 1, {CHILD1} : tensor<3xf32>
    }
  }
}
)mlir";

/// The tree-RNN with `leafDh` summed into the leaf's dh and `child1` sent
/// to child 1 of a cell.
std::string treeRnn(llvm::StringRef leafDh = "%ds, %dp, %dho",
                    llvm::StringRef child1 = "%d1") {
  std::string text = kTreeRnn;
  auto replace = [&](llvm::StringRef placeholder, llvm::StringRef value) {
    text.replace(text.find(placeholder.str()), placeholder.size(), value.str());
  };
  replace("{LEAF_DH}", leafDh);
  replace("{CHILD1}", child1);
  return text;
}

class GradientCheckTest : public EvaluatorTest {
protected:
  /// Runs the check on a random graph of `shape` and returns the largest
  /// error (infinity when the check itself failed).
  double maxError(ModelOp model, GraphShape shape, uint64_t seed) {
    RandomGraphOptions options;
    options.shape = shape;
    options.numVertices = 9;
    options.seed = seed;
    mlir::FailureOr<EvalGraph> graph = randomGraph(model, options);
    if (mlir::failed(graph)) {
      ADD_FAILURE() << errors();
      return INFINITY;
    }
    mlir::FailureOr<GradientCheckReport> report =
        checkGradients(model, *graph, randomParams(model, seed));
    if (mlir::failed(report)) {
      ADD_FAILURE() << errors();
      return INFINITY;
    }
    EXPECT_GT(report->entries.size(), 50u);
    lastSummary = report->summary();
    return report->maxError;
  }

  std::string lastSummary;
};

/// The number of parents of each vertex.
std::vector<int> parentCounts(const EvalGraph &graph) {
  std::vector<int> parents(graph.vertices.size(), 0);
  for (const EvalVertex &vertex : graph.vertices)
    for (int64_t child : vertex.children)
      if (child >= 0)
        ++parents[child];
  return parents;
}

TEST_F(GradientCheckTest, CorrectBackwardPassesOnChainsTreesAndDags) {
  ModelOp model = parse(treeRnn());
  ASSERT_TRUE(model);
  for (GraphShape shape :
       {GraphShape::Chain, GraphShape::Tree, GraphShape::Dag})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      double error = maxError(model, shape, seed);
      EXPECT_LT(error, 1e-6) << "shape " << static_cast<int>(shape) << ", seed "
                             << seed << ": " << lastSummary;
    }
}

TEST_F(GradientCheckTest, FlagsChildGradientSentToTheWrongChild) {
  ModelOp model = parse(treeRnn("%ds, %dp, %dho", "%d0"));
  ASSERT_TRUE(model);
  for (uint64_t seed = 1; seed <= 3; ++seed)
    EXPECT_GT(maxError(model, GraphShape::Tree, seed), 1e-2) << lastSummary;
}

TEST_F(GradientCheckTest, FlagsIgnoredPushGradient) {
  ModelOp model = parse(treeRnn("%ds, %dho", "%d1"));
  ASSERT_TRUE(model);
  for (uint64_t seed = 1; seed <= 3; ++seed)
    EXPECT_GT(maxError(model, GraphShape::Dag, seed), 1e-2) << lastSummary;
}

TEST_F(GradientCheckTest, SummaryNamesTheWorstElement) {
  GradientCheckReport report;
  report.entries.push_back({"@W[0, 1]", 1.0, 1.0, 0.0});
  report.entries.push_back({"vertex 2 input 'x'[1]", 0.5, 0.25, 0.5});
  report.maxError = 0.5;
  EXPECT_EQ(report.summary(),
            "max relative error 0.5 over 2 elements, worst at vertex 2 input "
            "'x'[1]: analytic 0.5 vs numeric 0.25");
}

TEST_F(GradientCheckTest, RandomGraphsAreDeterministic) {
  ModelOp model = parse(treeRnn());
  ASSERT_TRUE(model);
  auto describe = [&](uint64_t seed) {
    RandomGraphOptions options;
    options.shape = GraphShape::Dag;
    options.seed = seed;
    EvalGraph graph = *randomGraph(model, options);
    std::string text;
    for (const EvalVertex &vertex : graph.vertices) {
      text += vertex.function + "(";
      for (int64_t child : vertex.children)
        text += std::to_string(child) + " ";
      for (const auto &input : vertex.i32Inputs)
        text +=
            input.getKey().str() + "=" + std::to_string(input.getValue()) + " ";
      for (const auto &input : vertex.f32Inputs)
        for (double x : input.getValue().data)
          text += std::to_string(x) + " ";
      text += ")";
    }
    return text;
  };
  EXPECT_EQ(describe(7), describe(7));
  EXPECT_NE(describe(7), describe(8));
  EXPECT_EQ(randomParams(model, 3)["U"].data, randomParams(model, 3)["U"].data);
  EXPECT_NE(randomParams(model, 3)["U"].data, randomParams(model, 4)["U"].data);
}

TEST_F(GradientCheckTest, RandomGraphShapesAndInputs) {
  ModelOp model = parse(treeRnn());
  ASSERT_TRUE(model);
  bool sawNegativeIndex = false, sawMultipleParents = false;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    for (GraphShape shape :
         {GraphShape::Chain, GraphShape::Tree, GraphShape::Dag}) {
      RandomGraphOptions options;
      options.shape = shape;
      options.numVertices = 9;
      options.seed = seed;
      EvalGraph graph = *randomGraph(model, options);
      ASSERT_EQ(graph.vertices.size(), 9u);
      std::vector<int> parents = parentCounts(graph);
      int roots = llvm::count(parents, 0);
      if (shape != GraphShape::Dag) {
        // One connected chain or tree: a single root, one parent elsewhere.
        EXPECT_EQ(roots, 1);
        EXPECT_LE(*llvm::max_element(parents), 1);
      }
      sawMultipleParents |= *llvm::max_element(parents) > 1;
      for (const EvalVertex &vertex : graph.vertices) {
        EXPECT_EQ(vertex.pushGrads.count("h"), 1u);
        bool isLeaf = vertex.function == "leaf";
        EXPECT_EQ(vertex.children.size(), isLeaf ? 0u : 2u);
        if (shape == GraphShape::Chain && !isLeaf) {
          EXPECT_EQ(vertex.children[1], -1);
        }
        int32_t label = vertex.i32Inputs.lookup("label");
        EXPECT_TRUE(label >= -1 && label < 4) << label;
        sawNegativeIndex |= label < 0;
        if (isLeaf) {
          int32_t word = vertex.i32Inputs.lookup("word");
          EXPECT_TRUE(word >= -1 && word < 5) << word;
        }
      }
      // Valid input: the evaluator accepts it.
      EXPECT_TRUE(mlir::succeeded(
          evaluate(model, graph, randomParams(model, seed),
                   EvalOptions{/*runBackward=*/true})))
          << errors();
    }
  }
  EXPECT_TRUE(sawNegativeIndex);
  EXPECT_TRUE(sawMultipleParents);
}

} // namespace
