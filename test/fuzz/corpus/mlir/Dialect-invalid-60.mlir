cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %r = cavs.fused (%x) : (tensor<3xf32>) -> tensor<3xf32> {
    ^bb0(%a: tensor<3xf32>):
      %s = cavs.softmax %a : tensor<3xf32>
      cavs.yield %s : tensor<3xf32>
    }
  }
}
