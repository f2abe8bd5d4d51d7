cavs.model @backward state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    %t = cavs.tanh %s : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
    cavs.backward {
      %g = cavs.state_grad : tensor<4xf32>
      %m = cavs.mul %g, %t : tensor<4xf32>
      %n = cavs.neg %m : tensor<4xf32>
      cavs.child_grad 0, %n : tensor<4xf32>
    }
  }
}
