cavs.model @done state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %s : tensor<2xf32>
    cavs.backward {
      cavs.child_grad 0, %s : tensor<2xf32>
    }
  }
}
