cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    %0 = cavs.pull "x" : i32
  }
}
