cavs.model @chain {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {s = tensor<4xf32>, m = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %one = cavs.constant dense<1.0> : tensor<f32>
    %s = cavs.sigmoid %x : tensor<4xf32>
    %t = cavs.sub %one, %s : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
    %m = cavs.mul %s, %t : tensor<4xf32>
    cavs.push "s", %s : tensor<4xf32>
    cavs.push "m", %m : tensor<4xf32>
  }
}
