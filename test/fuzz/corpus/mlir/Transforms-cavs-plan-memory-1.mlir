cavs.model @saved state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %t = cavs.tanh %s {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    cavs.backward {
      %k = cavs.mul %t, %s {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
      %g = cavs.state_grad {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
      %m = cavs.mul %g, %k {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
      cavs.child_grad 0, %m {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    }
  }
}
