//===- ModelCache.cpp - compiled model libraries, on demand ---------------===//
#include "ModelCache.h"

#include "Process.h"

#include "cavs/instance.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cavs::bench {

namespace {

/// The folder of the shared object that defines `symbol`.
std::string folderOfLibrary(const void *symbol) {
  Dl_info info;
  if (!dladdr(symbol, &info) || !info.dli_fname)
    throw std::runtime_error("cannot locate libcavs_runtime.so (dladdr)");
  return fs::canonical(info.dli_fname).parent_path().string();
}

std::string commandLine(const std::vector<std::string> &argv) {
  std::string text;
  for (const std::string &arg : argv)
    text += (text.empty() ? "" : " ") + arg;
  return text;
}

/// Whether `path` is a 64-bit ELF file whose program headers, loadable
/// segments and section headers all lie within it. A truncated library (a
/// full disk, a killed copy) would make dlopen fault with SIGBUS, where a
/// damaged cache entry should just be compiled again.
bool isWholeElf(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  const uint64_t size = bytes.size();
  Elf64_Ehdr header;
  if (size < sizeof header)
    return false;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  auto fits = [&](uint64_t offset, uint64_t length) {
    return offset <= size && length <= size - offset;
  };
  if (header.e_phentsize < sizeof(Elf64_Phdr) ||
      !fits(header.e_phoff, uint64_t(header.e_phnum) * header.e_phentsize) ||
      !fits(header.e_shoff, uint64_t(header.e_shnum) * header.e_shentsize))
    return false;
  for (uint64_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment,
                bytes.data() + header.e_phoff + i * header.e_phentsize,
                sizeof segment);
    if (segment.p_type == PT_LOAD &&
        !fits(segment.p_offset, segment.p_filesz))
      return false;
  }
  return true;
}
} // namespace

ModelSource ModelSource::read(const std::string &path) {
  std::ifstream file(path);
  if (!file)
    throw std::runtime_error("cannot read model file '" + path + "'");
  ModelSource source;
  source.path = path;
  static const std::regex modelLine(R"(^\s*model\s+([A-Za-z_]\w*)\s*;)");
  static const std::regex dimDecl(R"(\bdim\s+([A-Za-z_]\w*))");
  std::string line;
  while (std::getline(file, line)) {
    line = line.substr(0, line.find("//"));
    std::smatch match;
    if (source.name.empty() && std::regex_search(line, match, modelLine))
      source.name = match[1];
    for (auto it = std::sregex_iterator(line.begin(), line.end(), dimDecl);
         it != std::sregex_iterator(); ++it)
      source.dims.push_back((*it)[1]);
  }
  if (source.name.empty())
    throw std::runtime_error("model file '" + path +
                             "' has no 'model <name>;' line");
  return source;
}

bool ModelSource::hasDim(const std::string &dim) const {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

ModelCache::ModelCache(std::string cavsc, std::string folder, bool cuda,
                       double timeLimitSeconds)
    : cavsc_(std::move(cavsc)), folder_(std::move(folder)), cuda_(cuda),
      timeLimitSeconds_(timeLimitSeconds) {
  if (cavsc_.empty())
    cavsc_ =
        (fs::read_symlink("/proc/self/exe").parent_path() / "cavsc").string();
  if (!fs::is_regular_file(cavsc_))
    throw std::runtime_error("cavsc not found at '" + cavsc_ +
                             "' (build it, or pass --cavsc=PATH)");
  if (folder_.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    folder_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/cavs-bench-cache";
  }
  std::error_code error;
  fs::create_directories(folder_, error);
  if (error)
    throw std::runtime_error("cannot create the model cache '" + folder_ +
                             "': " + error.message());
  runtimeDir_ =
      folderOfLibrary(reinterpret_cast<const void *>(&cavs_model_create));
  // Two builds side by side (an A/B run) share the cache folder but must not
  // load each other's libraries: the newer of two cavsc binaries would
  // otherwise hand its libraries to the older one.
  buildKey_ = llvm::utohexstr(
      llvm::xxh3_64bits(fs::canonical(cavsc_).string() + "\n" + runtimeDir_) &
      0xffffffffu, /*LowerCase=*/true);
}

CompiledModel ModelCache::get(const ModelSource &source, int32_t hidden,
                              const Variant &variant) {
  const std::string h = std::to_string(hidden);
  const std::string fileName =
      "lib" + source.name + "-h" + h +
      (variant.name.empty() ? "" : "-" + variant.name) +
      (cuda_ ? "-cuda" : "") + "-" + buildKey_ + ".so";
  CompiledModel model;
  model.libraryPath = (fs::path(folder_) / fileName).string();

  std::error_code error;
  const auto built = fs::last_write_time(model.libraryPath, error);
  model.cached = !error && built > fs::last_write_time(source.path) &&
                 built > fs::last_write_time(cavsc_) &&
                 isWholeElf(model.libraryPath);
  if (!model.cached) {
    // Compiled in a private folder and renamed into place, so concurrent
    // runs sharing the cache never load a half-written library.
    const fs::path scratch =
        fs::path(folder_) / (".tmp-" + std::to_string(getpid()));
    fs::create_directories(scratch);
    std::vector<std::string> argv = {cavsc_, source.path, "-D", "H=" + h};
    if (source.hasDim("E"))
      argv.insert(argv.end(), {"-D", "E=" + h});
    argv.insert(argv.end(), variant.cavscFlags.begin(),
                variant.cavscFlags.end());
    if (cuda_)
      argv.push_back("--target=cpu,cuda");
    argv.insert(argv.end(), {"--runtime-dir=" + runtimeDir_, "-o",
                             (scratch / fileName).string()});
    const ProcessResult result = runProcess(argv, timeLimitSeconds_);
    if (result.status == 0)
      fs::rename(scratch / fileName, model.libraryPath, error);
    fs::remove_all(scratch);
    if (result.status != 0) {
      std::ostringstream how;
      if (result.timedOut)
        how << "killed past --cavsc-timeout=" << timeLimitSeconds_;
      else
        how << result.describe();
      throw std::runtime_error("cavsc failed (" + how.str() + "):\n  " +
                               commandLine(argv) + "\n" + result.output);
    }
    if (error)
      throw std::runtime_error("cannot move the compiled model to '" +
                               model.libraryPath + "': " + error.message());
  }

  void *library = dlopen(model.libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    throw std::runtime_error("cannot load '" + model.libraryPath +
                             "': " + dlerror());
  const std::string symbol = source.name + "_model_def";
  using DefFn = const cavs_model_def *(*)();
  auto defFn = reinterpret_cast<DefFn>(dlsym(library, symbol.c_str()));
  if (!defFn)
    throw std::runtime_error("'" + model.libraryPath + "' has no symbol '" +
                             symbol + "'");
  model.def = defFn();
  return model;
}

} // namespace cavs::bench
