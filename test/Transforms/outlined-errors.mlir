// The passes before cavs-outline-phases refuse outlined IR, naming that as
// the cause: their other checks named a wrong one (a constant outside the
// phases "has no batching class; run cavs-classify", which then refused
// the IR as planned).
// RUN: not cavs-opt %s --cavs-classify 2>&1 | FileCheck %s
// RUN: not cavs-opt %s --cavs-fuse-elementwise 2>&1 | FileCheck %s
// RUN: not cavs-opt %s --cavs-plan-memory 2>&1 | FileCheck %s
// CHECK: error: 'cavs.phase' op outlines its vertex function already; cavs-outline-phases runs after cavs-plan-memory
// CHECK-NOT: error

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    %c = cavs.constant dense<1.000000e+00> : tensor<2xf32>
    cavs.phase <eager> {
      %x = cavs.pull "x" : tensor<2xf32>
      cavs.push "y", %x : tensor<2xf32>
      cavs.yield
    }
  }
}
