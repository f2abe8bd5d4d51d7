cavs.model @simple state tensor<4xf32> {
  cavs.param @W : tensor<4x4xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<4xf32>} pushes {y = tensor<2xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %W = cavs.param_ref @W {cavs.batching = #cavs.batching<eager>} : tensor<4x4xf32>
    %wx = cavs.matmul %W, %x {cavs.batching = #cavs.batching<eager>} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %a = cavs.add %wx, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %t = cavs.tanh %a {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %p:2 = cavs.split %t {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    cavs.push "y", %p#1 {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>
  }
}
