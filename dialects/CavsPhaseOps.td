//===- CavsPhaseOps.td - the phases of a vertex function -------*- tablegen -*-===//
//
// cavs-outline-phases turns the batching classes of cavs-classify into the
// structure of the IR: F and ∂F become a sequence of cavs.phase ops, one
// per class that has ops, in the order the runtime runs them. The lowering
// makes one function of each.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_PHASE_OPS_TD
#define CAVS_PHASE_OPS_TD

def Cavs_PhaseOp : Cavs_Op<"phase", [
    ParentOneOf<["VertexOp", "BackwardOp"]>, SingleBlock,
    NoRegionArguments, RecursiveMemoryEffects]> {
  let summary = "the ops of F or ∂F that run in one batching class";
  let description = [{
    One phase of a vertex function: its `eager`, `body` or `lazy` ops (see
    `#cavs.batching`), in F when the phase sits in the vertex body and in ∂F
    when it sits in `cavs.backward`. The runtime runs the phases of a batch
    in the order eager, body (task by task), lazy, so a block holds at most
    one phase of each class, in that order. Once a block has phases, every
    op of it that runs per vertex is inside one; parameter references and
    constants stay outside, where every phase can read them.

    The results are the phase's values that later phases (or ∂F) read: the
    lowering keeps those in their memory slots, while a value only its own
    phase reads may stay a view of another buffer.

    ```mlir
    %x = cavs.phase <eager> -> tensor<4xf32> {
      %0 = cavs.pull "x" : tensor<4xf32>
      cavs.yield %0 : tensor<4xf32>
    }
    cavs.phase <body> {
      %h = cavs.gather 0 : tensor<4xf32>
      %s = cavs.add %x, %h : tensor<4xf32>
      cavs.scatter %s : tensor<4xf32>
      cavs.yield
    }
    ```
  }];
  let arguments = (ins Cavs_BatchingAttr:$kind);
  let results = (outs Variadic<Cavs_PullType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind (`->` type($results)^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the phase belongs to ∂F.
    bool isBackward();
    /// Its place in the runtime's phase order (cavs_phase: F eager, body,
    /// lazy, then ∂F eager, body, lazy).
    unsigned getPhaseNumber();
    YieldOp getYield();
  }];
}

#endif // CAVS_PHASE_OPS_TD
