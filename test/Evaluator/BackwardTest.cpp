//===- BackwardTest.cpp - the ∂F ops of the reference evaluator -----------===//
//
// Every op of cavs.backward regions against values computed by hand, and
// the order and accumulation of state gradients in a DAG.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorTestUtil.h"

#include "test/lib/Evaluator/GradientCheck.h"

using namespace cavs;
using namespace cavs::test;

namespace {

using BackwardTest = EvaluatorTest;

TEST_F(BackwardTest, GradientOpsAndAccumulation) {
  // The parameters named after ops only serve to read results out through
  // cavs.param_grad.
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.param @W : tensor<2x3xf32> init zeros
      cavs.param @E : tensor<4x3xf32> init zeros
      cavs.param @relu : tensor<3xf32> init zeros
      cavs.param @sum : tensor<1xf32> init zeros
      cavs.param @pad : tensor<5xf32> init zeros
      cavs.param @sce : tensor<3xf32> init zeros
      cavs.param @sceneg : tensor<3xf32> init zeros
      cavs.vertex @f arity 0 pulls {x = tensor<3xf32>, label = i32, none = i32} pushes {} {
        %x = cavs.pull "x" : tensor<3xf32>
        %l = cavs.pull "label" : i32
        %n = cavs.pull "none" : i32
        %y = cavs.relu %x : tensor<3xf32>
        cavs.backward {
          %g = cavs.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
          %dr = cavs.relu_grad %y, %g : tensor<3xf32>
          cavs.param_grad @relu, %dr : tensor<3xf32>
          cavs.pull_grad "x", %dr : tensor<3xf32>
          %s = cavs.reduce_sum %x : tensor<3xf32>
          %one = cavs.constant dense<1.0> : tensor<1xf32>
          %s1 = cavs.mul %s, %one : tensor<f32>, tensor<1xf32> -> tensor<1xf32>
          cavs.param_grad @sum, %s1 : tensor<1xf32>
          %p = cavs.pad %x[1] : tensor<3xf32> -> tensor<5xf32>
          cavs.param_grad @pad, %p : tensor<5xf32>
          %logits = cavs.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
          %two = cavs.constant dense<2.0> : tensor<f32>
          %dl = cavs.softmax_cross_entropy_grad %logits, %l, %two : tensor<3xf32>, i32
          cavs.param_grad @sce, %dl : tensor<3xf32>
          %dn = cavs.softmax_cross_entropy_grad %logits, %n, %two : tensor<3xf32>, i32
          cavs.param_grad @sceneg, %dn : tensor<3xf32>
          %dy = cavs.constant dense<[1.0, 2.0]> : tensor<2xf32>
          cavs.param_grad_outer @W, %dy, %x : tensor<2xf32>, tensor<3xf32>
          cavs.lookup_grad @E[%l], %x : i32, tensor<3xf32>
          cavs.lookup_grad @E[%l], %x : i32, tensor<3xf32>
          cavs.lookup_grad @E[%n], %x : i32, tensor<3xf32>
        }
      }
    })mlir");
  ASSERT_TRUE(model);
  llvm::StringMap<EvalTensor> params;
  params["W"] = EvalTensor::zeros({2, 3});
  params["E"] = EvalTensor::zeros({4, 3});
  params["relu"] = EvalTensor::zeros({3});
  params["sum"] = EvalTensor::zeros({1});
  params["pad"] = EvalTensor::zeros({5});
  params["sce"] = EvalTensor::zeros({3});
  params["sceneg"] = EvalTensor::zeros({3});
  EvalGraph graph;
  graph.vertices.push_back(
      {"f", {}, {{"x", vec({1, -2, 0.5})}}, {{"label", 2}, {"none", -1}}, {}});
  EvalResult result = run(model, graph, params, /*runBackward=*/true);
  llvm::StringMap<EvalTensor> &grads = result.paramGrads;
  // relu(x) = [1, 0, 0.5]: the gradient passes where it is positive.
  expectTensor(grads["relu"], {3}, {10, 0, 30});
  expectTensor(result.pullGrads[0]["x"], {3}, {10, 0, 30});
  expectTensor(grads["sum"], {1}, {-0.5});
  expectTensor(grads["pad"], {5}, {0, 1, -2, 0.5, 0});
  // 2 * (softmax([1, 2, 3]) - onehot(2)), and zeros for label -1.
  expectTensor(grads["sce"], {3},
               {0.18006114634076092, 0.4894569421095953, -0.6695180884503562});
  expectTensor(grads["sceneg"], {3}, {0, 0, 0});
  // [1, 2] ⊗ x.
  expectTensor(grads["W"], {2, 3}, {1, -2, 0.5, 2, -4, 1});
  // Row 2 twice; index -1 adds nothing.
  expectTensor(grads["E"], {4, 3}, {0, 0, 0, 0, 0, 0, 2, -4, 1, 0, 0, 0});
}

TEST_F(BackwardTest, StateGradientsSumOverParentsInADag) {
  // node: s = a + 2 b, pushed as h; ∂F sends (ds + dh) to child 0 and twice
  // that to child 1. The two-valued constant is a forward value used by ∂F.
  ModelOp model = parse(R"mlir(
    cavs.model @dag state tensor<1xf32> {
      cavs.vertex @leaf arity 0 pulls {x = tensor<1xf32>} pushes {} {
        %x = cavs.pull "x" : tensor<1xf32>
        cavs.scatter %x : tensor<1xf32>
        cavs.backward {
          %ds = cavs.state_grad : tensor<1xf32>
          cavs.pull_grad "x", %ds : tensor<1xf32>
        }
      }
      cavs.vertex @node arity 2 pulls {} pushes {h = tensor<1xf32>} {
        %a = cavs.gather 0 : tensor<1xf32>
        %b = cavs.gather 1 : tensor<1xf32>
        %two = cavs.constant dense<2.0> : tensor<f32>
        %b2 = cavs.mul %two, %b : tensor<f32>, tensor<1xf32> -> tensor<1xf32>
        %s = cavs.add %a, %b2 : tensor<1xf32>
        cavs.scatter %s : tensor<1xf32>
        cavs.push "h", %s : tensor<1xf32>
        cavs.backward {
          %ds = cavs.state_grad : tensor<1xf32>
          %dh = cavs.push_grad "h" : tensor<1xf32>
          %d = cavs.add %ds, %dh : tensor<1xf32>
          cavs.child_grad 0, %d : tensor<1xf32>
          %db = cavs.mul %two, %d : tensor<f32>, tensor<1xf32> -> tensor<1xf32>
          cavs.child_grad 1, %db : tensor<1xf32>
        }
      }
    })mlir");
  ASSERT_TRUE(model);
  // root = node(p1, p2), p1 = node(leaf, -), p2 = node(-, leaf): the leaf
  // has two parents. Push gradients: 1 at the root, 0.5 at p1, none at p2.
  EvalGraph graph;
  graph.vertices.push_back({"node", {3, 2}, {}, {}, {{"h", vec({1})}}});
  graph.vertices.push_back({"leaf", {}, {{"x", vec({3})}}, {}, {}});
  graph.vertices.push_back({"node", {-1, 1}, {}, {}, {}});
  graph.vertices.push_back({"node", {1, -1}, {}, {}, {{"h", vec({0.5})}}});
  EvalResult result = run(model, graph, {}, /*runBackward=*/true);
  expectTensor(result.states[3], {1}, {3});
  expectTensor(result.states[2], {1}, {6});
  expectTensor(result.states[0], {1}, {15});
  // root: d = 0 + 1 -> p1 gets 1, p2 gets 2. p1: d = 1 + 0.5 -> leaf gets
  // 1.5 (child 1 is absent). p2: d = 2 + 0 -> leaf gets 4.
  expectTensor(result.stateGrads[0], {1}, {0});
  expectTensor(result.stateGrads[3], {1}, {1});
  expectTensor(result.stateGrads[2], {1}, {2});
  expectTensor(result.stateGrads[1], {1}, {5.5});
  expectTensor(result.pullGrads[1]["x"], {1}, {5.5});

  // The same through finite differences of loss + Σ pushGrad · push.
  mlir::FailureOr<GradientCheckReport> report =
      checkGradients(model, graph, {});
  ASSERT_TRUE(mlir::succeeded(report)) << errors();
  ASSERT_EQ(report->entries.size(), 1u);
  EXPECT_NEAR(report->entries[0].numeric, 5.5, 1e-9);
  EXPECT_LT(report->maxError, 1e-9) << report->summary();
}

} // namespace
