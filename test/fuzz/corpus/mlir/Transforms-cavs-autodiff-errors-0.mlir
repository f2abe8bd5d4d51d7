cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %g = cavs.relu_grad %x, %x : tensor<3xf32>
    %s = cavs.reduce_sum %g : tensor<3xf32>
    cavs.loss %s : tensor<f32>
  }
}
