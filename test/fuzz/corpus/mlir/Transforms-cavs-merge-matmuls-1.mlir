cavs.model @overlap {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<2x3xf32> init xavier
  cavs.param @C : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, z = tensor<3xf32>} pushes {a = tensor<2xf32>, b = tensor<2xf32>, c = tensor<2xf32>, d = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %z = cavs.pull "z" : tensor<3xf32>
    %A = cavs.param_ref @A : tensor<2x3xf32>
    %B = cavs.param_ref @B : tensor<2x3xf32>
    %C = cavs.param_ref @C : tensor<2x3xf32>
    %a = cavs.matmul %A, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %b = cavs.matmul %B, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %c = cavs.matmul %A, %z : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %d = cavs.matmul %C, %z : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    cavs.push "a", %a : tensor<2xf32>
    cavs.push "b", %b : tensor<2xf32>
    cavs.push "c", %c : tensor<2xf32>
    cavs.push "d", %d : tensor<2xf32>
  }
}
