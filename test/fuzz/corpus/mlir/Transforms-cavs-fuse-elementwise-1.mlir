cavs.model @boundaries state tensor<2xf32> {
  cavs.param @W : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<3xf32>} pushes {e = tensor<2xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    %t = cavs.tanh %x {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    %W = cavs.param_ref @W {cavs.batching = #cavs.batching<eager>} : tensor<2x3xf32>
    %y = cavs.matmul %W, %t {cavs.batching = #cavs.batching<eager>} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %a = cavs.add %y, %s {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %r = cavs.relu %a {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    cavs.scatter %r {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %e = cavs.exp %r {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>
    cavs.push "e", %e {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>
  }
}
