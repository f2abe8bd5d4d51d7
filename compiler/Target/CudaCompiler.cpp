//===- CudaCompiler.cpp - CUDA C to CUBIN and PTX with NVRTC --------------===//
//
// One NVRTC program per compilation. The defaults stay as they are (IEEE
// division and square root, no flush to zero, accurate expf/tanhf/logf), so
// that the kernels' results match the CPU's.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CudaCompiler.h"

#include "compiler/Config.h"

#if CAVS_HAVE_CUDA
#include <nvrtc.h>

#include <memory>
#include <type_traits>
#endif

using namespace mlir;

#if CAVS_HAVE_CUDA
namespace {
/// Destroys an NVRTC program.
struct ProgramDeleter {
  void operator()(nvrtcProgram program) const { nvrtcDestroyProgram(&program); }
};
using Program =
    std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

/// Fails with `error` = "<what>: <NVRTC's message>" unless `result` is
/// NVRTC_SUCCESS.
LogicalResult check(nvrtcResult result, llvm::StringRef what,
                    std::string &error) {
  if (result == NVRTC_SUCCESS)
    return success();
  error = what.str() + ": " + nvrtcGetErrorString(result);
  return failure();
}

/// NVRTC's log of `program`'s last compilation, without the final NUL and
/// newlines.
std::string programLog(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS)
    return "";
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS)
    return "";
  return llvm::StringRef(log).rtrim(llvm::StringRef("\n\0", 2)).str();
}
} // namespace

LogicalResult cavs::compileCuda(llvm::StringRef source, llvm::StringRef name,
                                CudaBinary kind, std::string &output,
                                std::string &error) {
  std::string text = source.str(), programName = name.str();
  nvrtcProgram raw = nullptr;
  if (failed(check(nvrtcCreateProgram(&raw, text.c_str(), programName.c_str(),
                                      0, nullptr, nullptr),
                   "cannot create the NVRTC program", error)))
    return failure();
  Program program(raw);

  const std::string option =
      (kind == CudaBinary::Cubin ? "--gpu-architecture=sm_"
                                 : "--gpu-architecture=compute_") +
      std::to_string(kCudaArch);
  const char *architecture = option.c_str();
  nvrtcResult compiled = nvrtcCompileProgram(program.get(), 1, &architecture);
  if (compiled != NVRTC_SUCCESS) {
    std::string log = programLog(program.get());
    error = "NVRTC cannot compile '" + programName + "'" +
            (log.empty() ? ": " + std::string(nvrtcGetErrorString(compiled))
                         : ":\n" + log);
    return failure();
  }

  size_t size = 0;
  if (kind == CudaBinary::Cubin) {
    if (failed(check(nvrtcGetCUBINSize(program.get(), &size),
                     "cannot read the CUBIN", error)))
      return failure();
    output.assign(size, '\0');
    return check(nvrtcGetCUBIN(program.get(), output.data()),
                 "cannot read the CUBIN", error);
  }
  if (failed(check(nvrtcGetPTXSize(program.get(), &size), "cannot read the PTX",
                   error)))
    return failure();
  output.assign(size, '\0');
  if (failed(check(nvrtcGetPTX(program.get(), output.data()),
                   "cannot read the PTX", error)))
    return failure();
  // The PTX is a C string; its size counts the terminating NUL.
  if (!output.empty() && output.back() == '\0')
    output.pop_back();
  return success();
}
#else
LogicalResult cavs::compileCuda(llvm::StringRef source, llvm::StringRef name,
                                CudaBinary kind, std::string &output,
                                std::string &error) {
  error = "this cavsc was built without CUDA (configure with "
          "-DCAVS_ENABLE_CUDA=ON)";
  return failure();
}
#endif
