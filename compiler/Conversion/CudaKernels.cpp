//===- CudaKernels.cpp - cavs.fused regions as CUDA C kernels -------------===//
//
// Every value of the region becomes a `const float` local of the loop body:
// inputs x<i> (loaded once), op results v<j>. An op's expression therefore
// only ever combines names and never needs parentheses around an operand.
// The math functions are the accurate ones (expf, tanhf, logf, not the
// __expf intrinsics) so that results match the CPU kernels within 1e-5.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CudaKernels.h"

#include "compiler/Conversion/FusedKernels.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace cavs;

std::string cavs::cudaFloatLiteral(float value) {
  char text[32];
  if (!std::isfinite(value)) {
    std::snprintf(text, sizeof(text), "__uint_as_float(0x%08xu)",
                  llvm::bit_cast<uint32_t>(value));
    return text;
  }
  // The shortest %g form that reads back as the same bits (9 digits always
  // do); bits, so that -0 stays -0.
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (llvm::bit_cast<uint32_t>(std::strtof(text, nullptr)) ==
        llvm::bit_cast<uint32_t>(value))
      break;
  }
  std::string literal = text;
  // `1f` is no literal; `1.0f` and `1e+30f` are.
  if (literal.find_first_of(".e") == std::string::npos)
    literal += ".0";
  return literal + "f";
}

namespace {
/// The CUDA C expression of `op`'s result, given its operands' names.
FailureOr<std::string> expression(Operation *op, ArrayRef<std::string> x) {
  auto binary = [&](StringRef symbol) {
    return x[0] + " " + symbol.str() + " " + x[1];
  };
  auto call = [&](StringRef function) {
    return function.str() + "(" + x[0] + ")";
  };
  return TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](ConstantOp constant) -> FailureOr<std::string> {
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!dense || !dense.isSplat())
          return constant.emitOpError(
              "only splat constants can be compiled into a CUDA kernel");
        return cudaFloatLiteral(
            dense.getSplatValue<APFloat>().convertToFloat());
      })
      .Case([&](AddOp) { return binary("+"); })
      .Case([&](SubOp) { return binary("-"); })
      .Case([&](MulOp) { return binary("*"); })
      .Case([&](DivOp) { return binary("/"); })
      .Case([&](NegOp) { return "-" + x[0]; })
      .Case([&](SigmoidOp) { return "1.0f / (1.0f + expf(-" + x[0] + "))"; })
      .Case([&](TanhOp) { return call("tanhf"); })
      .Case([&](ReluOp) { return "fmaxf(" + x[0] + ", 0.0f)"; })
      .Case([&](ExpOp) { return call("expf"); })
      .Case([&](LogOp) { return call("logf"); })
      .Case([&](SumOp) { return llvm::join(x, " + "); })
      .Case([&](ReluGradOp) { return x[0] + " > 0.0f ? " + x[1] + " : 0.0f"; })
      .Default([&](Operation *other) -> FailureOr<std::string> {
        return other->emitOpError("cannot be compiled into a CUDA kernel");
      });
}
} // namespace

LogicalResult cavs::emitCudaKernel(FusedOp fused, StringRef name,
                                   raw_ostream &os) {
  int64_t width =
      cast<RankedTensorType>(fused.getResult(0).getType()).getNumElements();
  unsigned numInputs = fused.getInputs().size();
  Block &body = fused.getBody().front();

  std::string kernel;
  llvm::raw_string_ostream out(kernel);
  out << "extern \"C\" __global__ void " << name << "(\n    long long rows";
  for (unsigned i = 0; i < numInputs; ++i)
    out << ",\n    const float *__restrict__ in" << i << ", long long ld" << i;
  for (unsigned i = 0, e = fused.getNumResults(); i < e; ++i)
    out << ",\n    float *__restrict__ out" << i << ", long long ldo" << i;
  out << ") {\n"
      << "  const long long n = rows * " << width << ";\n"
      << "  for (long long e = blockIdx.x * (long long)blockDim.x + "
         "threadIdx.x; e < n;\n"
      << "       e += (long long)gridDim.x * blockDim.x) {\n"
      << "    const long long row = e / " << width << ", col = e % " << width
      << ";\n";

  // A scalar input is one column: it is read at column 0 of its row.
  llvm::DenseMap<Value, std::string> nameOf;
  for (auto [i, argument] : llvm::enumerate(body.getArguments())) {
    nameOf[argument] = "x" + std::to_string(i);
    if (argument.use_empty())
      continue;
    bool scalar = cast<RankedTensorType>(argument.getType()).getRank() == 0;
    out << "    const float x" << i << " = in" << i << "[row * ld" << i
        << (scalar ? "" : " + col") << "];\n";
  }
  unsigned count = 0;
  for (Operation &op : body.without_terminator()) {
    SmallVector<std::string> operands;
    for (Value operand : op.getOperands())
      operands.push_back(nameOf.lookup(operand));
    FailureOr<std::string> value = expression(&op, operands);
    if (failed(value))
      return failure();
    std::string result = "v" + std::to_string(count++);
    out << "    const float " << result << " = " << *value << ";\n";
    nameOf[op.getResult(0)] = result;
  }
  for (auto [i, yielded] : llvm::enumerate(body.getTerminator()->getOperands()))
    out << "    out" << i << "[row * ldo" << i
        << " + col] = " << nameOf.lookup(yielded) << ";\n";
  out << "  }\n}\n";
  os << kernel;
  return success();
}

FailureOr<std::vector<std::string>>
cavs::emitCudaKernels(ArrayRef<CudaProgram> programs, raw_ostream &os) {
  std::vector<std::string> names;
  std::string kernels;
  llvm::raw_string_ostream out(kernels);
  for (const CudaProgram &program : programs) {
    LogicalResult emitted = forEachModelKernel(
        program.model, program.prefix, [&](FusedOp fused, StringRef name) {
          names.push_back(name.str());
          out << "\n";
          return emitCudaKernel(fused, name, out);
        });
    if (failed(emitted))
      return failure();
  }
  SmallVector<StringRef> prefixes;
  for (const CudaProgram &program : programs)
    prefixes.push_back(program.prefix);
  os << "// " << names.size() << " CUDA kernels of the programs "
     << llvm::join(prefixes, ", ") << ",\n"
     << "// generated by cavsc from their cavs.fused ops. Each runs its\n"
     << "// region over `rows` vertices (docs/backend.md, \"CUDA kernels\");\n"
     << "// only built-in math functions are used: NVRTC needs no headers.\n"
     << kernels;
  return names;
}

CudaKernelIndex cavs::numberCudaKernels(ArrayRef<CudaProgram> programs) {
  CudaKernelIndex index;
  for (const CudaProgram &program : programs)
    (void)forEachModelKernel(program.model, program.prefix,
                             [&](FusedOp fused, StringRef) {
                               int32_t number = index.size();
                               index[fused.getOperation()] = number;
                               return success();
                             });
  return index;
}
