cavs.model @views {
  cavs.vertex @v arity 0 pulls {a = tensor<2xf32>, b = tensor<3xf32>, s = tensor<f32>} pushes {p = tensor<2xf32>, q = tensor<3xf32>, r = tensor<3xf32>, t = tensor<2xf32>, u = tensor<2xf32>, w = tensor<2xf32>} {
    %a = cavs.pull "a" : tensor<2xf32>
    %b = cavs.pull "b" : tensor<3xf32>
    %s = cavs.pull "s" : tensor<f32>
    %zero = cavs.constant dense<0.0> : tensor<2xf32>
    %cat = cavs.concat %a, %b : tensor<2xf32>, tensor<3xf32> -> tensor<5xf32>
    %p, %q = cavs.split %cat : tensor<5xf32> -> tensor<2xf32>, tensor<3xf32>
    %r = cavs.slice %cat[2] : tensor<5xf32> -> tensor<3xf32>
    %t = cavs.sub %zero, %a : tensor<2xf32>
    %u = cavs.mul %a, %zero : tensor<2xf32>
    %w = cavs.add %s, %zero : tensor<f32>, tensor<2xf32> -> tensor<2xf32>
    cavs.push "p", %p : tensor<2xf32>
    cavs.push "q", %q : tensor<3xf32>
    cavs.push "r", %r : tensor<3xf32>
    cavs.push "t", %t : tensor<2xf32>
    cavs.push "u", %u : tensor<2xf32>
    cavs.push "w", %w : tensor<2xf32>
  }
}
