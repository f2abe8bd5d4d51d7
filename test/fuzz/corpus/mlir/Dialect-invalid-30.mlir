cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<2xf32>
    %c = cavs.constant dense<1.0> : tensor<f32>
    %2 = cavs.mul %c, %0 : tensor<f32>, tensor<2xf32> -> tensor<f32>
  }
}
