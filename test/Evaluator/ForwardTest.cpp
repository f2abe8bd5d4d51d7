//===- ForwardTest.cpp - the forward ops of the reference evaluator -------===//
//
// Every forward op, and chains and trees of simple cells, against values
// computed by hand.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorTestUtil.h"

#include <cmath>

using namespace cavs;
using namespace cavs::test;

namespace {

using ForwardTest = EvaluatorTest;

TEST_F(ForwardTest, BinaryOpsBroadcastScalars) {
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.vertex @f arity 0 pulls {x = tensor<3xf32>, y = tensor<3xf32>, s = tensor<f32>}
          pushes {add = tensor<3xf32>, sub = tensor<3xf32>, mul = tensor<3xf32>,
                  div = tensor<3xf32>, rsub = tensor<3xf32>, sdiv = tensor<3xf32>,
                  ss = tensor<f32>} {
        %x = cavs.pull "x" : tensor<3xf32>
        %y = cavs.pull "y" : tensor<3xf32>
        %s = cavs.pull "s" : tensor<f32>
        %add = cavs.add %x, %y : tensor<3xf32>
        %sub = cavs.sub %x, %y : tensor<3xf32>
        %mul = cavs.mul %x, %y : tensor<3xf32>
        %div = cavs.div %x, %y : tensor<3xf32>
        %rsub = cavs.sub %s, %x : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
        %sdiv = cavs.div %x, %s : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
        %ss = cavs.mul %s, %s : tensor<f32>
        cavs.push "add", %add : tensor<3xf32>
        cavs.push "sub", %sub : tensor<3xf32>
        cavs.push "mul", %mul : tensor<3xf32>
        cavs.push "div", %div : tensor<3xf32>
        cavs.push "rsub", %rsub : tensor<3xf32>
        cavs.push "sdiv", %sdiv : tensor<3xf32>
        cavs.push "ss", %ss : tensor<f32>
      }
    })mlir");
  ASSERT_TRUE(model);
  EvalGraph graph;
  graph.vertices.push_back({"f",
                            {},
                            {{"x", vec({1, -2, 0.5})},
                             {"y", vec({4, 0.5, -2})},
                             {"s", EvalTensor::scalar(3)}},
                            {},
                            {}});
  EvalResult result = run(model, graph);
  ASSERT_EQ(result.pushes.size(), 1u);
  llvm::StringMap<EvalTensor> &pushes = result.pushes[0];
  expectTensor(pushes["add"], {3}, {5, -1.5, -1.5});
  expectTensor(pushes["sub"], {3}, {-3, -2.5, 2.5});
  expectTensor(pushes["mul"], {3}, {4, -1, -1});
  expectTensor(pushes["div"], {3}, {0.25, -4, -0.25});
  expectTensor(pushes["rsub"], {3}, {2, 5, 2.5});
  expectTensor(pushes["sdiv"], {3}, {1.0 / 3, -2.0 / 3, 1.0 / 6});
  expectTensor(pushes["ss"], {}, {9});
  EXPECT_EQ(result.loss, 0);
}

TEST_F(ForwardTest, UnaryOpsIgnoringUnknownAttributes) {
  // `tag` stands for the discardable attributes later passes attach.
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.vertex @f arity 0 pulls {z = tensor<3xf32>}
          pushes {neg = tensor<3xf32>, sig = tensor<3xf32>, tanh = tensor<3xf32>,
                  relu = tensor<3xf32>, exp = tensor<3xf32>, log = tensor<3xf32>} {
        %z = cavs.pull "z" : tensor<3xf32>
        %neg = cavs.neg %z {tag = 1 : i64} : tensor<3xf32>
        %sig = cavs.sigmoid %z : tensor<3xf32>
        %tanh = cavs.tanh %z : tensor<3xf32>
        %relu = cavs.relu %z : tensor<3xf32>
        %exp = cavs.exp %z : tensor<3xf32>
        %log = cavs.log %exp : tensor<3xf32>
        cavs.push "neg", %neg : tensor<3xf32>
        cavs.push "sig", %sig : tensor<3xf32>
        cavs.push "tanh", %tanh : tensor<3xf32>
        cavs.push "relu", %relu : tensor<3xf32>
        cavs.push "exp", %exp : tensor<3xf32>
        cavs.push "log", %log : tensor<3xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  EvalGraph graph;
  graph.vertices.push_back({"f", {}, {{"z", vec({0, 1, -2})}}, {}, {}});
  EvalResult result = run(model, graph);
  llvm::StringMap<EvalTensor> &pushes = result.pushes[0];
  expectTensor(pushes["neg"], {3}, {0, -1, 2});
  expectTensor(pushes["sig"], {3},
               {0.5, 0.7310585786300049, 0.11920292202211755});
  expectTensor(pushes["tanh"], {3},
               {0, 0.7615941559557649, -0.9640275800758169});
  expectTensor(pushes["relu"], {3}, {0, 1, 0});
  expectTensor(pushes["exp"], {3}, {1, 2.718281828459045, 0.1353352832366127});
  expectTensor(pushes["log"], {3}, {0, 1, -2});
}

TEST_F(ForwardTest, MatmulConstantsAndTranspose) {
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.param @W : tensor<2x3xf32> init zeros
      cavs.vertex @f arity 0 pulls {x = tensor<3xf32>, u = tensor<2xf32>}
          pushes {wx = tensor<2xf32>, wtu = tensor<3xf32>, mv = tensor<2xf32>,
                  mtv = tensor<2xf32>, half = tensor<3xf32>} {
        %x = cavs.pull "x" : tensor<3xf32>
        %u = cavs.pull "u" : tensor<2xf32>
        %W = cavs.param_ref @W : tensor<2x3xf32>
        %wx = cavs.matmul %W, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
        %wtu = cavs.matmul %W, %u {transpose_lhs} : tensor<2x3xf32>, tensor<2xf32> -> tensor<3xf32>
        %m = cavs.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
        %v = cavs.constant dense<[1.0, 2.0]> : tensor<2xf32>
        %mv = cavs.matmul %m, %v : tensor<2x2xf32>, tensor<2xf32> -> tensor<2xf32>
        %mtv = cavs.matmul %m, %v {transpose_lhs} : tensor<2x2xf32>, tensor<2xf32> -> tensor<2xf32>
        %half = cavs.constant dense<0.5> : tensor<3xf32>
        cavs.push "wx", %wx : tensor<2xf32>
        cavs.push "wtu", %wtu : tensor<3xf32>
        cavs.push "mv", %mv : tensor<2xf32>
        cavs.push "mtv", %mtv : tensor<2xf32>
        cavs.push "half", %half : tensor<3xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  llvm::StringMap<EvalTensor> params;
  params["W"] = EvalTensor{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EvalGraph graph;
  graph.vertices.push_back(
      {"f", {}, {{"x", vec({1, 0, -1})}, {"u", vec({1, 2})}}, {}, {}});
  EvalResult result = run(model, graph, params);
  llvm::StringMap<EvalTensor> &pushes = result.pushes[0];
  expectTensor(pushes["wx"], {2}, {-2, -2});
  expectTensor(pushes["wtu"], {3}, {9, 12, 15});
  expectTensor(pushes["mv"], {2}, {5, 11});
  expectTensor(pushes["mtv"], {2}, {7, 10});
  expectTensor(pushes["half"], {3}, {0.5, 0.5, 0.5});
}

TEST_F(ForwardTest, ConcatSplitSliceSumSoftmax) {
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.vertex @f arity 0 pulls {x = tensor<4xf32>, y = tensor<2xf32>}
          pushes {cat = tensor<6xf32>, a = tensor<2xf32>, b = tensor<2xf32>,
                  sl = tensor<2xf32>, sum = tensor<2xf32>, p = tensor<3xf32>} {
        %x = cavs.pull "x" : tensor<4xf32>
        %y = cavs.pull "y" : tensor<2xf32>
        %cat = cavs.concat %x, %y : tensor<4xf32>, tensor<2xf32> -> tensor<6xf32>
        %a, %b = cavs.split %x : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
        %sl = cavs.slice %x[1] : tensor<4xf32> -> tensor<2xf32>
        %sum = cavs.sum %a, %b, %sl : tensor<2xf32>
        %head = cavs.slice %cat[0] : tensor<6xf32> -> tensor<3xf32>
        %p = cavs.softmax %head : tensor<3xf32>
        cavs.push "cat", %cat : tensor<6xf32>
        cavs.push "a", %a : tensor<2xf32>
        cavs.push "b", %b : tensor<2xf32>
        cavs.push "sl", %sl : tensor<2xf32>
        cavs.push "sum", %sum : tensor<2xf32>
        cavs.push "p", %p : tensor<3xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  EvalGraph graph;
  graph.vertices.push_back(
      {"f", {}, {{"x", vec({1, 2, 3, 4})}, {"y", vec({5, 6})}}, {}, {}});
  EvalResult result = run(model, graph);
  llvm::StringMap<EvalTensor> &pushes = result.pushes[0];
  expectTensor(pushes["cat"], {6}, {1, 2, 3, 4, 5, 6});
  expectTensor(pushes["a"], {2}, {1, 2});
  expectTensor(pushes["b"], {2}, {3, 4});
  expectTensor(pushes["sl"], {2}, {2, 3});
  expectTensor(pushes["sum"], {2}, {6, 9});
  expectTensor(pushes["p"], {3},
               {0.09003057317038046, 0.24472847105479764, 0.6652409557748219});
}

// Parts of unequal sizes, as cavs-merge-matmuls splits a pack's product.
TEST_F(ForwardTest, SplitIntoUnequalParts) {
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.vertex @f arity 0 pulls {x = tensor<5xf32>}
          pushes {a = tensor<2xf32>, b = tensor<3xf32>} {
        %x = cavs.pull "x" : tensor<5xf32>
        %a, %b = cavs.split %x : tensor<5xf32> -> tensor<2xf32>, tensor<3xf32>
        cavs.push "a", %a : tensor<2xf32>
        cavs.push "b", %b : tensor<3xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  EvalGraph graph;
  graph.vertices.push_back({"f", {}, {{"x", vec({1, 2, 3, 4, 5})}}, {}, {}});
  EvalResult result = run(model, graph);
  expectTensor(result.pushes[0]["a"], {2}, {1, 2});
  expectTensor(result.pushes[0]["b"], {3}, {3, 4, 5});
}

// Vector to scalar and back: elements, reductions (a NaN makes the maximum
// NaN), concat and pad of scalars, softplus without overflow, equal.
TEST_F(ForwardTest, ScalarsOfVectors) {
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.vertex @f arity 0 pulls {x = tensor<4xf32>, n = tensor<3xf32>}
          pushes {e = tensor<f32>, s = tensor<f32>, m = tensor<f32>,
                  nan = tensor<f32>, c = tensor<3xf32>, p = tensor<3xf32>,
                  sp = tensor<4xf32>, eq = tensor<4xf32>} {
        %x = cavs.pull "x" : tensor<4xf32>
        %n = cavs.pull "n" : tensor<3xf32>
        %e = cavs.slice %x[1] : tensor<4xf32> -> tensor<f32>
        %s = cavs.reduce_sum %x : tensor<4xf32>
        %m = cavs.reduce_max %x : tensor<4xf32>
        %nan = cavs.reduce_max %n : tensor<3xf32>
        %c = cavs.concat %e, %s, %m : tensor<f32>, tensor<f32>, tensor<f32> -> tensor<3xf32>
        %p = cavs.pad %e[2] : tensor<f32> -> tensor<3xf32>
        %sp = cavs.softplus %x : tensor<4xf32>
        %eq = cavs.equal %x, %m : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
        cavs.push "e", %e : tensor<f32>
        cavs.push "s", %s : tensor<f32>
        cavs.push "m", %m : tensor<f32>
        cavs.push "nan", %nan : tensor<f32>
        cavs.push "c", %c : tensor<3xf32>
        cavs.push "p", %p : tensor<3xf32>
        cavs.push "sp", %sp : tensor<4xf32>
        cavs.push "eq", %eq : tensor<4xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  EvalGraph graph;
  graph.vertices.push_back({"f",
                            {},
                            {{"x", vec({-800, 2, 800, 800})},
                             {"n", vec({1, NAN, 3})}},
                            {},
                            {}});
  EvalResult result = run(model, graph);
  llvm::StringMap<EvalTensor> &pushes = result.pushes[0];
  expectTensor(pushes["e"], {}, {2});
  expectTensor(pushes["s"], {}, {802});
  expectTensor(pushes["m"], {}, {800});
  EXPECT_TRUE(std::isnan(pushes["nan"].data[0]));
  expectTensor(pushes["c"], {3}, {2, 802, 800});
  expectTensor(pushes["p"], {3}, {0, 0, 2});
  expectTensor(pushes["sp"], {4}, {0, std::log1p(std::exp(2.0)), 800, 800});
  expectTensor(pushes["eq"], {4}, {0, 0, 1, 1});
}

TEST_F(ForwardTest, LookupAndCrossEntropyWithNegativeIndices) {
  ModelOp model = parse(R"mlir(
    cavs.model @m {
      cavs.param @E : tensor<3x2xf32> init zeros
      cavs.vertex @f arity 0 pulls {word = i32, label = i32, logits = tensor<3xf32>}
          pushes {row = tensor<2xf32>} {
        %w = cavs.pull "word" : i32
        %l = cavs.pull "label" : i32
        %lg = cavs.pull "logits" : tensor<3xf32>
        %E = cavs.param_ref @E : tensor<3x2xf32>
        %row = cavs.lookup %E[%w] : tensor<3x2xf32>, i32 -> tensor<2xf32>
        cavs.push "row", %row : tensor<2xf32>
        %loss = cavs.softmax_cross_entropy %lg, %l : tensor<3xf32>, i32
        cavs.loss %loss : tensor<f32>
      }
    })mlir");
  ASSERT_TRUE(model);
  llvm::StringMap<EvalTensor> params;
  params["E"] = EvalTensor{{3, 2}, {1, 2, 3, 4, 5, 6}};
  EvalGraph graph;
  for (int32_t index : {2, -1, 0})
    graph.vertices.push_back({"f",
                              {},
                              {{"logits", vec({1, 2, 3})}},
                              {{"word", index}, {"label", index}},
                              {}});
  EvalResult result = run(model, graph, params);
  expectTensor(result.pushes[0]["row"], {2}, {5, 6});
  expectTensor(result.pushes[1]["row"], {2}, {0, 0});
  expectTensor(result.pushes[2]["row"], {2}, {1, 2});
  // -log(softmax([1, 2, 3])[label]) per vertex; 0 for label -1.
  EXPECT_NEAR(result.loss, 0.4076059644443806 + 0 + 2.4076059644443806, 1e-12);
}

TEST_F(ForwardTest, ChainInAnyVertexOrder) {
  ModelOp model = parse(R"mlir(
    cavs.model @chain state tensor<1xf32> {
      cavs.vertex @cell arity 1 pulls {x = tensor<1xf32>} pushes {} {
        %x = cavs.pull "x" : tensor<1xf32>
        %h = cavs.gather 0 : tensor<1xf32>
        %half = cavs.constant dense<0.5> : tensor<f32>
        %d = cavs.mul %half, %h : tensor<f32>, tensor<1xf32> -> tensor<1xf32>
        %s = cavs.add %x, %d : tensor<1xf32>
        cavs.scatter %s : tensor<1xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  // The chain 1 -> 2 -> 0, listed out of order: s = x + s_child / 2.
  EvalGraph graph;
  graph.vertices.push_back({"cell", {2}, {{"x", vec({3})}}, {}, {}});
  graph.vertices.push_back({"cell", {-1}, {{"x", vec({1})}}, {}, {}});
  graph.vertices.push_back({"cell", {1}, {{"x", vec({2})}}, {}, {}});
  EvalResult result = run(model, graph);
  expectTensor(result.states[1], {1}, {1});
  expectTensor(result.states[2], {1}, {2.5});
  expectTensor(result.states[0], {1}, {4.25});
}

TEST_F(ForwardTest, BinaryTreeOfTwoVertexTypesWithAbsentChildren) {
  ModelOp model = parse(R"mlir(
    cavs.model @tree state tensor<2xf32> {
      cavs.param @E : tensor<3x2xf32> init zeros
      cavs.vertex @leaf arity 0 pulls {word = i32} pushes {} {
        %w = cavs.pull "word" : i32
        %E = cavs.param_ref @E : tensor<3x2xf32>
        %e = cavs.lookup %E[%w] : tensor<3x2xf32>, i32 -> tensor<2xf32>
        cavs.scatter %e : tensor<2xf32>
      }
      cavs.vertex @node arity 2 pulls {} pushes {l = tensor<2xf32>, r = tensor<2xf32>} {
        %l = cavs.gather 0 : tensor<2xf32>
        %r = cavs.gather 1 : tensor<2xf32>
        %two = cavs.constant dense<2.0> : tensor<f32>
        %r2 = cavs.mul %r, %two : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
        %s = cavs.add %l, %r2 : tensor<2xf32>
        cavs.scatter %s : tensor<2xf32>
        cavs.push "l", %l : tensor<2xf32>
        cavs.push "r", %r : tensor<2xf32>
      }
    })mlir");
  ASSERT_TRUE(model);
  llvm::StringMap<EvalTensor> params;
  params["E"] = EvalTensor{{3, 2}, {1, 2, 3, 4, 5, 6}};
  // node(node(leaf a, -), leaf c), plus a node without children.
  EvalGraph graph;
  graph.vertices.push_back({"node", {2, 1}, {}, {}, {}});
  graph.vertices.push_back({"leaf", {}, {}, {{"word", 2}}, {}});
  graph.vertices.push_back({"node", {3, -1}, {}, {}, {}});
  graph.vertices.push_back({"leaf", {}, {}, {{"word", 0}}, {}});
  graph.vertices.push_back({"node", {-1, -1}, {}, {}, {}});
  EvalResult result = run(model, graph, params);
  expectTensor(result.states[3], {2}, {1, 2});
  expectTensor(result.states[1], {2}, {5, 6});
  expectTensor(result.states[2], {2}, {1, 2});
  expectTensor(result.pushes[2]["r"], {2}, {0, 0});
  expectTensor(result.states[0], {2}, {11, 14});
  expectTensor(result.pushes[0]["l"], {2}, {1, 2});
  expectTensor(result.pushes[0]["r"], {2}, {5, 6});
  expectTensor(result.states[4], {2}, {0, 0});
  expectTensor(result.pushes[4]["l"], {2}, {0, 0});
}

} // namespace
