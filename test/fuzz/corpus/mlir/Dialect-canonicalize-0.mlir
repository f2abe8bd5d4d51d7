cavs.model @identities {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {add0 = tensor<4xf32>, zero_add = tensor<4xf32>, sub0 = tensor<4xf32>, mul1 = tensor<4xf32>, one_mul = tensor<4xf32>, div1 = tensor<4xf32>, negneg = tensor<4xf32>, sum1 = tensor<4xf32>, concat1 = tensor<4xf32>, slice_all = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %zero = cavs.constant dense<0.0> : tensor<f32>
    %one = cavs.constant dense<1.0> : tensor<4xf32>
    %a = cavs.add %x, %zero : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %b = cavs.add %zero, %x : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
    %c = cavs.sub %x, %zero : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %d = cavs.mul %x, %one : tensor<4xf32>
    %e = cavs.mul %one, %x : tensor<4xf32>
    %f = cavs.div %x, %one : tensor<4xf32>
    %n = cavs.neg %x : tensor<4xf32>
    %g = cavs.neg %n : tensor<4xf32>
    %h = cavs.sum %x : tensor<4xf32>
    %i = cavs.concat %x : tensor<4xf32> -> tensor<4xf32>
    %j = cavs.slice %x[0] : tensor<4xf32> -> tensor<4xf32>
    cavs.push "add0", %a : tensor<4xf32>
    cavs.push "zero_add", %b : tensor<4xf32>
    cavs.push "sub0", %c : tensor<4xf32>
    cavs.push "mul1", %d : tensor<4xf32>
    cavs.push "one_mul", %e : tensor<4xf32>
    cavs.push "div1", %f : tensor<4xf32>
    cavs.push "negneg", %g : tensor<4xf32>
    cavs.push "sum1", %h : tensor<4xf32>
    cavs.push "concat1", %i : tensor<4xf32>
    cavs.push "slice_all", %j : tensor<4xf32>
  }
}
