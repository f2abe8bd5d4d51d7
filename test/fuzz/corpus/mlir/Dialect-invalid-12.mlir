cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = i32} pushes {} {
    %0 = cavs.pull "x" : i32
    %1 = cavs.pull "x" : i32
  }
}
