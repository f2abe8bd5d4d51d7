//===- CudaLoader.cpp - loading the runtime's CUDA library on demand ------===//
//
// libcavs_runtime never links CUDA: the first request for a GPU dlopens
// libcavs_runtime_cuda.so from the directory libcavs_runtime was loaded
// from, or the library $CAVS_CUDA_LIBRARY names (the tests' host emulation
// of a GPU, test/runtime/EmulatedCuda.cpp), and takes its C table
// (exec/DeviceInterface.h), checking its version. Every failure on the way
// (a runtime built without CUDA, a missing CUDA library or one of another
// version, no driver, no GPU) becomes CAVS_ERROR_UNSUPPORTED with a message
// that says which.
//
//===----------------------------------------------------------------------===//
#include "exec/DeviceBackend.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace cavs::runtime {

namespace {

constexpr cavs_status kUnsupported = CAVS_ERROR_UNSUPPORTED;

/// The loaded library's table, or why it could not be loaded.
struct CudaLibrary {
  const cavs_device_interface *table = nullptr;
  std::string error;
};

/// $CAVS_CUDA_LIBRARY, else libcavs_runtime_cuda.so next to the library
/// holding this code.
std::string cudaLibraryPath() {
  if (const char *path = std::getenv("CAVS_CUDA_LIBRARY"); path && *path)
    return path;
  Dl_info info{};
  std::string path = "libcavs_runtime_cuda.so";
  if (dladdr(reinterpret_cast<void *>(&cudaLibraryPath), &info) &&
      info.dli_fname) {
    std::string self = info.dli_fname;
    const size_t slash = self.rfind('/');
    if (slash != std::string::npos)
      path = self.substr(0, slash + 1) + path;
  }
  return path;
}

const CudaLibrary &cudaLibrary() {
  static CudaLibrary library;
  static std::once_flag once;
  std::call_once(once, [] {
#ifndef CAVS_RUNTIME_HAVE_CUDA
    if (!std::getenv("CAVS_CUDA_LIBRARY")) {
      library.error = "this cavs runtime was built without CUDA (configure "
                      "it with -DCAVS_ENABLE_CUDA=ON on a machine with the "
                      "CUDA toolkit)";
      return;
    }
#endif
    const std::string path = cudaLibraryPath();
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      library.error = fmt::format(
          "the runtime's CUDA library could not be loaded: {}", dlerror());
      return;
    }
    auto entry = reinterpret_cast<cavs_device_interface_fn>(
        dlsym(handle, CAVS_DEVICE_INTERFACE_SYMBOL));
    const cavs_device_interface *table = entry ? entry() : nullptr;
    if (!table)
      library.error = fmt::format("{} lacks its entry point {}", path,
                                  CAVS_DEVICE_INTERFACE_SYMBOL);
    else if (table->version != CAVS_DEVICE_INTERFACE_VERSION ||
             table->size < int32_t(sizeof(cavs_device_interface)))
      library.error = fmt::format(
          "{} has device interface version {} ({} bytes), this runtime "
          "needs version {} ({} bytes); install the CUDA library that came "
          "with this runtime",
          path, table->version, table->size, CAVS_DEVICE_INTERFACE_VERSION,
          sizeof(cavs_device_interface));
    else
      library.table = table;
  });
  return library;
}

} // namespace

Status openCudaDevice(const cavs_cuda_desc &cuda, int32_t ordinal,
                      bool allowTf32, std::unique_ptr<DeviceBackend> &out) {
  const CudaLibrary &library = cudaLibrary();
  if (!library.table)
    return Status(kUnsupported, "cannot use a GPU: " + library.error);
  cavs_device *device = nullptr;
  char message[1024] = "";
  const cavs_status status = library.table->open(
      &cuda, ordinal, allowTf32 ? 1 : 0, &device, message, sizeof message);
  if (status != CAVS_OK)
    return Status(status, message);
  out = std::make_unique<DeviceBackend>(*library.table, device);
  return Status();
}

Status cudaDeviceCount(int32_t &count) {
  const CudaLibrary &library = cudaLibrary();
  if (!library.table)
    return Status(kUnsupported, "cannot use a GPU: " + library.error);
  char message[1024] = "";
  const cavs_status status =
      library.table->count(&count, message, sizeof message);
  return status == CAVS_OK
             ? Status()
             : Status(status, std::string("cannot use a GPU: ") + message);
}

} // namespace cavs::runtime
