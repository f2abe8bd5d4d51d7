//===- CudaKernels.cpp - cavs.fused regions as CUDA C kernels -------------===//
//
// Every value of the region becomes a `const float` local of the loop body:
// inputs x<i> (loaded once), op results v<j>. An op's expression therefore
// only ever combines names and never needs parentheses around an operand.
// The math functions are the accurate ones (expf, tanhf, logf, not the
// __expf intrinsics) so that results match the CPU kernels within 1e-5.
//
// A kernel that ends in reductions gives each row a warp instead: lane l
// runs the columns l, l + 32, ... and accumulates a<k> for reduction k,
// then the lanes combine their accumulators with __shfl_xor_sync and lane
// 0 stores them. The loop over rows steps whole warps (the runtime launches
// blocks of 256 threads), so every lane of a warp takes the same rows.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CudaKernels.h"

#include "compiler/Conversion/FusedKernels.h"

#include "llvm/ADT/StringExtras.h"
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

/// The CUDA C expression of `op`'s result, given its operands' names. A
/// constant is a literal; every other op writes its own expression through
/// its ElementwiseOpInterface.
static FailureOr<std::string> expression(Operation *op,
                                         ArrayRef<std::string> x) {
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    if (std::optional<float> splat = constant.getSplatFloat())
      return cudaFloatLiteral(*splat);
    return constant.emitOpError(
        "only splat constants can be compiled into a CUDA kernel");
  }
  auto elementwise = dyn_cast<ElementwiseOpInterface>(op);
  if (!elementwise)
    return op->emitOpError("cannot be compiled into a CUDA kernel");
  return elementwise.getCudaExpression(x);
}

/// How a reduction's accumulator `acc` takes in `value` (a name), and
/// where it starts.
static std::string accumulate(Operation *reduction, StringRef acc,
                              StringRef value) {
  return cast<ElementwiseOpInterface>(reduction).getCudaExpression(
      {acc.str(), value.str()});
}

static std::string initialValue(Operation *reduction) {
  return cudaFloatLiteral(cast<ReductionOpInterface>(reduction).getIdentity());
}

LogicalResult cavs::emitCudaKernel(FusedOp fused, StringRef name,
                                   raw_ostream &os) {
  int64_t width = fused.getIterationType().getNumElements();
  unsigned numInputs = fused.getInputs().size();
  Block &body = fused.getBody().front();
  bool perWarp = fused.hasReductions();

  std::string kernel;
  llvm::raw_string_ostream out(kernel);
  out << "extern \"C\" __global__ void " << name << "(\n    long long rows";
  for (unsigned i = 0; i < numInputs; ++i)
    out << ",\n    const float *__restrict__ in" << i << ", long long ld" << i;
  for (unsigned i = 0, e = fused.getNumResults(); i < e; ++i)
    out << ",\n    float *__restrict__ out" << i << ", long long ldo" << i;
  out << ") {\n";
  // The loop over the elements (or a warp's columns) declares `row` and
  // `col`; `indent` is that of its body.
  std::string indent = "    ";
  SmallVector<Operation *> reductions;
  if (!perWarp) {
    out << "  const long long n = rows * " << width << ";\n"
        << "  for (long long e = blockIdx.x * (long long)blockDim.x + "
           "threadIdx.x; e < n;\n"
        << "       e += (long long)gridDim.x * blockDim.x) {\n"
        << "    const long long row = e / " << width << ", col = e % "
        << width << ";\n";
  } else {
    out << "  for (long long t = blockIdx.x * (long long)blockDim.x + "
           "threadIdx.x; t / 32 < rows;\n"
        << "       t += (long long)gridDim.x * blockDim.x) {\n"
        << "    const long long row = t / 32;\n";
    for (Operation &op : body)
      if (op.hasTrait<cavs::OpTrait::Reduction>()) {
        out << "    float a" << reductions.size() << " = "
            << initialValue(&op) << ";\n";
        reductions.push_back(&op);
      }
    out << "    for (long long col = t % 32; col < " << width
        << "; col += 32) {\n";
    indent = "      ";
  }

  // A scalar input is one column: it is read at column 0 of its row.
  llvm::DenseMap<Value, std::string> nameOf;
  for (auto [i, argument] : llvm::enumerate(body.getArguments())) {
    nameOf[argument] = "x" + std::to_string(i);
    if (argument.use_empty())
      continue;
    bool scalar = cast<RankedTensorType>(argument.getType()).getRank() == 0;
    out << indent << "const float x" << i << " = in" << i << "[row * ld" << i
        << (scalar ? "" : " + col") << "];\n";
  }
  unsigned count = 0;
  for (Operation &op : body.without_terminator()) {
    SmallVector<std::string> operands;
    for (Value operand : op.getOperands())
      operands.push_back(nameOf.lookup(operand));
    if (op.hasTrait<cavs::OpTrait::Reduction>()) {
      std::string acc =
          "a" + std::to_string(llvm::find(reductions, &op) - reductions.begin());
      out << indent << acc << " = " << accumulate(&op, acc, operands[0])
          << ";\n";
      nameOf[op.getResult(0)] = acc;
      continue;
    }
    FailureOr<std::string> value = expression(&op, operands);
    if (failed(value))
      return failure();
    std::string result = "v" + std::to_string(count++);
    out << indent << "const float " << result << " = " << *value << ";\n";
    nameOf[op.getResult(0)] = result;
  }
  ValueRange yielded = body.getTerminator()->getOperands();
  auto isReduced = [&](Value value) {
    return llvm::is_contained(reductions, value.getDefiningOp());
  };
  for (auto [i, value] : llvm::enumerate(yielded))
    if (!isReduced(value))
      out << indent << "out" << i << "[row * ldo" << i
          << " + col] = " << nameOf.lookup(value) << ";\n";
  if (perWarp) {
    out << "    }\n";
    for (auto [k, reduction] : llvm::enumerate(reductions)) {
      std::string acc = "a" + std::to_string(k);
      out << "    for (int lane = 16; lane > 0; lane /= 2) {\n"
          << "      const float other = __shfl_xor_sync(0xffffffffu, " << acc
          << ", lane);\n"
          << "      " << acc << " = " << accumulate(reduction, acc, "other")
          << ";\n"
          << "    }\n";
    }
    out << "    if (t % 32 == 0) {\n";
    for (auto [i, value] : llvm::enumerate(yielded))
      if (isReduced(value))
        out << "      out" << i << "[row * ldo" << i
            << "] = " << nameOf.lookup(value) << ";\n";
    out << "    }\n";
  }
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
