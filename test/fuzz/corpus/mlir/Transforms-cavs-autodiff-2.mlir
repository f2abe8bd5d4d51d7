cavs.model @fanout state tensor<4xf32> {
  cavs.param @E : tensor<10x4xf32> init xavier
  cavs.vertex @leaf arity 0 pulls {w = i32} pushes {p = tensor<2xf32>} {
    %w = cavs.pull "w" : i32
    %E = cavs.param_ref @E : tensor<10x4xf32>
    %x = cavs.lookup %E[%w] : tensor<10x4xf32>, i32 -> tensor<4xf32>
    %a, %b = cavs.split %x : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %p = cavs.add %a, %a : tensor<2xf32>
    cavs.push "p", %p : tensor<2xf32>
    cavs.scatter %x : tensor<4xf32>
  }
}
