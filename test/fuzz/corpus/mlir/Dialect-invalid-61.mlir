cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, y = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %y = cavs.pull "y" : tensor<2xf32>
    %r = cavs.fused (%x, %y) : (tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32> {
    ^bb0(%a: tensor<3xf32>, %b: tensor<2xf32>):
      cavs.yield %a : tensor<3xf32>
    }
  }
}
