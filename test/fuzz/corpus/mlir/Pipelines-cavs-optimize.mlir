cavs.model @rnn state tensor<4xf32> {
  cavs.param @A : tensor<4x3xf32> init xavier
  cavs.param @B : tensor<4x3xf32> init xavier
  cavs.vertex @cell arity 1 pulls {x = tensor<3xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %A = cavs.param_ref @A : tensor<4x3xf32>
    %B = cavs.param_ref @B : tensor<4x3xf32>
    %a = cavs.matmul %A, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %b = cavs.matmul %B, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %g = cavs.sigmoid %b : tensor<4xf32>
    %m = cavs.mul %g, %s : tensor<4xf32>
    %h = cavs.add %a, %m : tensor<4xf32>
    %t = cavs.tanh %h : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
    cavs.push "y", %t : tensor<4xf32>
  }
}
