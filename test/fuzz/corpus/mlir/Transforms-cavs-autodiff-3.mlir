cavs.model @math {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, s = tensor<f32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %s = cavs.pull "s" : tensor<f32>
    %a = cavs.mul %x, %s : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
    %b = cavs.div %a, %s : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
    %c = cavs.sigmoid %b : tensor<3xf32>
    %d = cavs.exp %c : tensor<3xf32>
    %e = cavs.log %d : tensor<3xf32>
    %f = cavs.relu %e : tensor<3xf32>
    %g = cavs.softmax %f : tensor<3xf32>
    %h = cavs.neg %g : tensor<3xf32>
    %i = cavs.slice %h[1] : tensor<3xf32> -> tensor<2xf32>
    %j = cavs.reduce_sum %i : tensor<2xf32>
    %k = cavs.sub %j, %s : tensor<f32>
    cavs.loss %k : tensor<f32>
  }
}
