cavs.model @m {
  cavs.vertex @a arity 0 pulls {x = i32} pushes {} {
    %0 = cavs.pull "x" : i32
  }
  cavs.vertex @b arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<2xf32>
  }
}
