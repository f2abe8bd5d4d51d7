//===- ErrorTest.cpp - invalid input to the reference evaluator -----------===//
//
// Every kind of invalid graph, parameter set or index is reported as a
// diagnostic that says what is wrong and where.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorTestUtil.h"

using namespace cavs;
using namespace cavs::test;

namespace {

constexpr const char *kModels = R"mlir(
  cavs.model @tree state tensor<2xf32> {
    cavs.param @E : tensor<3x2xf32> init zeros
    cavs.vertex @cell arity 2 pulls {x = tensor<2xf32>, word = i32} pushes {h = tensor<2xf32>} {
      %x = cavs.pull "x" : tensor<2xf32>
      %w = cavs.pull "word" : i32
      %E = cavs.param_ref @E : tensor<3x2xf32>
      %e = cavs.lookup %E[%w] : tensor<3x2xf32>, i32 -> tensor<2xf32>
      %c = cavs.gather 0 : tensor<2xf32>
      %s = cavs.add %x, %e : tensor<2xf32>
      %h = cavs.add %s, %c : tensor<2xf32>
      cavs.scatter %h : tensor<2xf32>
      cavs.push "h", %h : tensor<2xf32>
    }
  }
  cavs.model @classifier {
    cavs.vertex @out arity 0 pulls {logits = tensor<2xf32>, label = i32} pushes {} {
      %lg = cavs.pull "logits" : tensor<2xf32>
      %l = cavs.pull "label" : i32
      %loss = cavs.softmax_cross_entropy %lg, %l : tensor<2xf32>, i32
      cavs.loss %loss : tensor<f32>
    }
  }
)mlir";

class ErrorTest : public EvaluatorTest {
protected:
  void SetUp() override {
    model = parse(kModels, "tree");
    params["E"] = EvalTensor::zeros({3, 2});
  }

  /// A valid @cell vertex with the given children.
  static EvalVertex cell(std::vector<int64_t> children) {
    return {
        "cell", std::move(children), {{"x", vec({1, 2})}}, {{"word", 0}}, {}};
  }

  /// Evaluates `graph`, expecting failure with a diagnostic that contains
  /// `message`.
  void expectError(const EvalGraph &graph, llvm::StringRef message,
                   bool runBackward = false) {
    ASSERT_TRUE(model);
    EXPECT_TRUE(mlir::failed(evaluate(model, graph, params, EvalOptions{runBackward})));
    EXPECT_NE(errors().find(message.str()), std::string::npos)
        << "expected \"" << message.str() << "\" in:\n"
        << errors();
  }

  ModelOp model;
  llvm::StringMap<EvalTensor> params;
};

TEST_F(ErrorTest, Cycle) {
  // 2 -> 0 -> 1 -> 0: vertex 2 hangs off the cycle but is not on it.
  EvalGraph graph{{cell({1, -1}), cell({0, -1}), cell({0, -1})}};
  expectError(graph, "the graph has a cycle through vertex 0");
}

TEST_F(ErrorTest, SelfLoop) {
  EvalGraph graph{{cell({-1, -1}), cell({-1, 1})}};
  expectError(graph, "the graph has a cycle through vertex 1");
}

TEST_F(ErrorTest, ChildIndexOutOfRange) {
  EvalGraph graph{{cell({-1, -1}), cell({0, 5})}};
  expectError(graph, "graph vertex 1 (@cell): child 1 is vertex 5, out of "
                     "range for a graph of 2 vertices");
  EvalGraph negative{{cell({-2, -1})}};
  expectError(negative, "graph vertex 0 (@cell): child 0 is vertex -2");
}

TEST_F(ErrorTest, WrongArity) {
  EvalGraph graph{{cell({-1})}};
  expectError(graph, "graph vertex 0 (@cell): has 1 child slots, but @cell has "
                     "arity 2");
}

TEST_F(ErrorTest, UnknownFunction) {
  EvalGraph graph{{cell({-1, -1})}};
  graph.vertices[0].function = "nope";
  expectError(graph, "graph vertex 0: unknown vertex function @nope");
}

TEST_F(ErrorTest, MissingInputs) {
  EvalGraph graph{{cell({-1, -1})}};
  graph.vertices[0].f32Inputs.clear();
  expectError(graph, "graph vertex 0 (@cell): missing input 'x' of type "
                     "'tensor<2xf32>'");
  EvalGraph noWord{{cell({-1, -1})}};
  noWord.vertices[0].i32Inputs.clear();
  expectError(noWord, "graph vertex 0 (@cell): missing i32 input 'word'");
}

TEST_F(ErrorTest, IllTypedInputs) {
  EvalGraph shape{{cell({-1, -1})}};
  shape.vertices[0].f32Inputs["x"] = vec({1, 2, 3});
  expectError(shape, "input 'x' has shape [3], expected [2]");
  EvalGraph size{{cell({-1, -1})}};
  size.vertices[0].f32Inputs["x"] = EvalTensor{{2}, {1}};
  expectError(size, "input 'x' has 1 elements, but its shape [2] holds 2");
  EvalGraph kind{{cell({-1, -1})}};
  kind.vertices[0].f32Inputs["word"] = EvalTensor::scalar(1);
  expectError(kind, "input 'word' is not an f32 pull of @cell");
  EvalGraph unknown{{cell({-1, -1})}};
  unknown.vertices[0].i32Inputs["label"] = 1;
  expectError(unknown, "input 'label' is not an i32 pull of @cell");
  EvalGraph pushGrad{{cell({-1, -1})}};
  pushGrad.vertices[0].pushGrads["y"] = vec({1, 2});
  expectError(pushGrad, "push gradient 'y' is not a push of @cell");
}

TEST_F(ErrorTest, BadParameters) {
  EvalGraph graph{{cell({-1, -1})}};
  params.clear();
  expectError(graph,
              "no value given for parameter @E of type 'tensor<3x2xf32>'");
  params["E"] = EvalTensor::zeros({2, 3});
  expectError(graph, "parameter @E has shape [2, 3], expected [3, 2]");
  params["E"] = EvalTensor::zeros({3, 2});
  params["F"] = EvalTensor::zeros({1});
  expectError(graph, "value given for unknown parameter @F");
}

TEST_F(ErrorTest, LookupIndexOutOfRange) {
  EvalGraph graph{{cell({-1, -1}), cell({0, -1})}};
  graph.vertices[1].i32Inputs["word"] = 3;
  expectError(graph, "'cavs.lookup' op index 3 is out of range [0, 3) at "
                     "graph vertex 1");
}

TEST_F(ErrorTest, LabelOutOfRange) {
  model = parse(kModels, "classifier");
  params.clear();
  EvalGraph graph{{{"out", {}, {{"logits", vec({1, 2})}}, {{"label", 2}}, {}}}};
  expectError(graph, "'cavs.softmax_cross_entropy' op label 2 is out of "
                     "range [0, 2) at graph vertex 0");
}

TEST_F(ErrorTest, BackwardWithoutBackwardRegion) {
  EvalGraph graph{{cell({-1, -1})}};
  expectError(graph, "'cavs.vertex' op has no cavs.backward region",
              /*runBackward=*/true);
}

TEST_F(ErrorTest, UnsupportedOp) {
  context.allowUnregisteredDialects();
  model = parse(R"mlir(
    cavs.model @m {
      cavs.vertex @f arity 0 pulls {} pushes {} {
        "other.op"() : () -> ()
      }
    })mlir");
  params.clear();
  EvalGraph graph{{{"f", {}, {}, {}, {}}}};
  expectError(graph,
              "'other.op' op is not supported by the reference evaluator");
}

} // namespace
