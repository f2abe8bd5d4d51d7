//===- Baseline.cpp - PyTorch baselines on identical math -----------------===//
#include "Baseline.h"

#include "BaselineExport.h"
#include "Process.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;

namespace cavs::bench {

namespace {

/// Relative loss difference a baseline may show at any compared step.
constexpr double kTolerance = 1e-4;
/// Batches exported beyond the compared steps: what the timed loop cycles
/// through.
constexpr size_t kExportedBatches = 16;
const char *const kImpls[] = {"level", "per-sample"};

/// The baseline script of a workload, or nullptr.
const char *scriptOf(const std::string &workload) {
  if (workload == "treelstm")
    return "treelstm.py";
  if (workload == "treelstm-nary")
    return "treelstm_nary.py";
  if (workload == "treefc")
    return "treefc.py";
  if (workload == "chainlstm")
    return "varlstm.py";
  return nullptr;
}

/// The first interpreter that imports torch: --python, else python3 on
/// $PATH, else Debian's /usr/bin/python3 (where python3-torch installs,
/// and which a pyenv or venv python3 on $PATH may hide).
std::string findTorchPython(const std::string &chosen) {
  const std::vector<std::string> candidates =
      chosen.empty() ? std::vector<std::string>{"python3", "/usr/bin/python3"}
                     : std::vector<std::string>{chosen};
  for (const std::string &python : candidates)
    if (runProcess({python, "-c", "import torch"}).status == 0)
      return python;
  return "";
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A baseline script's result file: one JSON object (llvm::json). Throws
/// std::runtime_error naming the file and the key for anything malformed.
class ResultFile {
public:
  explicit ResultFile(const std::string &path) : path_(path) {
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse(readFile(path));
    if (!parsed)
      throw std::runtime_error(path + ": " + llvm::toString(parsed.takeError()));
    value_ = std::move(*parsed);
    if (!value_.getAsObject())
      throw std::runtime_error(path + ": not a JSON object");
  }

  bool has(const char *key) const { return object().get(key) != nullptr; }
  double number(const char *key) const {
    return check(object().getNumber(key), key, "a number");
  }
  std::string string(const char *key) const {
    return check(object().getString(key), key, "a string").str();
  }
  std::vector<double> numbers(const char *key) const {
    const llvm::json::Array *array =
        check(object().getArray(key), key, "an array of numbers");
    std::vector<double> values;
    for (const llvm::json::Value &item : *array)
      values.push_back(check(item.getAsNumber(), key, "an array of numbers"));
    return values;
  }

private:
  const llvm::json::Object &object() const { return *value_.getAsObject(); }
  template <typename T>
  T check(std::optional<T> found, const char *key, const char *what) const {
    return *check(found ? &*found : nullptr, key, what);
  }
  template <typename T>
  const T *check(const T *found, const char *key, const char *what) const {
    if (!found)
      throw std::runtime_error(path_ + ": \"" + key + "\" is not " + what);
    return found;
  }

  std::string path_;
  llvm::json::Value value_ = nullptr;
};

/// The end of a script's output for a failure report: its last `maxLines`
/// lines, at most `maxBytes` of them, after "[...]" when clipped.
std::string clipped(llvm::StringRef output, size_t maxLines = 15,
                    size_t maxBytes = 4096) {
  llvm::SmallVector<llvm::StringRef> lines;
  output.rtrim('\n').split(lines, '\n');
  const size_t first = lines.size() > maxLines ? lines.size() - maxLines : 0;
  const std::string text =
      llvm::join(llvm::ArrayRef(lines).drop_front(first), "\n");
  if (first == 0 && text.size() <= maxBytes)
    return text;
  return "[...]\n" + llvm::StringRef(text).take_back(maxBytes).str();
}

/// Why a script run failed, or "" when it exited with status 0.
std::string failureOf(const ProcessResult &run, double timeLimitSeconds) {
  std::ostringstream why;
  if (run.timedOut)
    why << "the script ran past --baseline-timeout=" << timeLimitSeconds
        << " s and was killed with its process group";
  else if (run.status != 0)
    why << "the script failed: " << run.describe();
  return why.str();
}

double sum(const std::vector<double> &values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

} // namespace

Baselines::Baselines(const Options &options, Workload &workload)
    : options_(options), workload_(workload) {
  const char *prefix = "PyTorch baselines: ";
  const char *script = scriptOf(workload.name);
  if (options.baselines == BaselineMode::None) {
    std::printf("%soff (--baselines=none)\n", prefix);
    return;
  }
  if (!script) {
    std::printf("%snone for workload %s\n", prefix, workload.name.c_str());
    return;
  }
  if (options.ablation) {
    std::printf("%sskipped (not run with --ablation)\n", prefix);
    return;
  }
  python_ = findTorchPython(options.python);
  if (python_.empty()) {
    std::printf("%sskipped (python3-torch is missing: %s -c \"import torch\" "
                "failed)\n",
                prefix,
                options.python.empty() ? "python3" : options.python.c_str());
    return;
  }
  const char *tmp = std::getenv("TMPDIR");
  const std::string templ = (tmp && *tmp ? std::string(tmp) : "/tmp") +
                            "/cavs-bench-baselines-XXXXXX";
  std::vector<char> buffer(templ.begin(), templ.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    throw std::runtime_error("cannot create a folder like " + templ);
  folder_ = buffer.data();
  script_ = std::string(CAVS_BENCH_BASELINES_DIR) + "/" + script;
  std::printf("%s%s (%s; level and per-sample, %s; losses of %d steps "
              "compared, %g relative)\n",
              prefix, script_.c_str(), python_.c_str(),
              options.baselines == BaselineMode::All ? "checked and timed"
                                                     : "checked only",
              options.baselineSteps, kTolerance);
}

Baselines::~Baselines() {
  if (folder_.empty())
    return;
  std::error_code ignored;
  if (failed_)
    std::printf("PyTorch baselines: inputs and results kept in %s\n",
                folder_.c_str());
  else
    fs::remove_all(folder_, ignored);
}

std::string Baselines::exportFor(const Config &config) {
  const std::string folder = folder_ + "/h" + std::to_string(config.hidden) +
                             "-bs" + std::to_string(config.batch);
  if (exported_.insert(folder).second) {
    fs::create_directories(folder);
    cavs::Model model(*config.def, /*seed=*/1); // as Runner creates it
    const std::vector<cavs::GraphBatch> &batches =
        workload_.batches(config.batch);
    ExportHeader header{
        workload_.name, config.hidden, config.batch,
        cavs::Optimizer::defaults(cavs::OptimizerKind::Adagrad)};
    exportBaselineInputs(
        folder, header, model, batches,
        std::min(batches.size(),
                 std::max(kExportedBatches, size_t(options_.baselineSteps))));
  }
  return folder;
}

std::vector<double> Baselines::cavsLosses(const Config &config) {
  cavs::check(cavs_set_num_threads(config.threads));
  cavs::Model model(*config.def, /*seed=*/1);
  cavs::Optimizer adagrad(
      model.params(), cavs::Optimizer::defaults(cavs::OptimizerKind::Adagrad));
  const std::vector<cavs::GraphBatch> &batches =
      workload_.batches(config.batch);
  std::vector<double> losses;
  for (int32_t step = 0; step < options_.baselineSteps; ++step) {
    losses.push_back(model.forward(batches[size_t(step) % batches.size()]));
    model.backward();
    model.step(adagrad);
  }
  return losses;
}

void Baselines::add(const Config &config,
                    std::vector<const Measurement *> cavsc) {
  if (script_.empty() || config.mode != Mode::Train)
    return;
  const std::string folder = exportFor(config);
  const std::vector<double> reference = cavsLosses(config);
  const bool timed = options_.baselines == BaselineMode::All;
  for (const char *impl : kImpls) {
    Result &result = results_.emplace_back();
    result.config = config;
    result.impl = impl;
    result.cavsc = cavsc;
    const std::string out = folder + "/result-" + impl + "-threads" +
                            std::to_string(config.threads) + ".json";
    // -B: no __pycache__ in the source tree.
    const ProcessResult run = runProcess(
        {python_, "-B", script_, "--dir", folder, "--impl", impl, "--threads",
         std::to_string(config.threads), "--steps",
         std::to_string(options_.baselineSteps), "--min-seconds",
         timed ? std::to_string(options_.minSeconds) : "0", "--out", out},
        options_.baselineTimeout);
    const std::string name = config.name(workload_.name) + "/pytorch-" + impl;
    // A broken run is a row of the summary like any other: the remaining
    // configurations still run.
    std::string failure = failureOf(run, options_.baselineTimeout);
    std::vector<double> losses;
    if (failure.empty()) {
      try {
        const ResultFile json(out);
        reportSettings(config.threads, out);
        result.batchSeconds = json.numbers("batch_seconds");
        result.samples = json.number("samples");
        result.vertices = json.number("vertices");
        losses = json.numbers("losses");
      } catch (const std::runtime_error &error) {
        result.batchSeconds.clear();
        failure = error.what();
      }
    }
    if (!failure.empty()) {
      failed_ = true;
      const std::string printed = run.output.empty()
                                      ? "it printed nothing"
                                      : "it printed:\n" + clipped(run.output);
      std::printf("%s: FAIL (%s); %s\n", name.c_str(), failure.c_str(),
                  printed.c_str());
      continue;
    }
    bool passed = losses.size() == reference.size();
    for (size_t s = 0; s < std::min(losses.size(), reference.size()); ++s) {
      const double diff = std::abs(losses[s] - reference[s]) /
                          std::max(std::abs(reference[s]), 1e-30);
      passed &= diff <= kTolerance; // false for NaN too
      result.maxRelDiff =
          std::isnan(diff) ? diff : std::max(result.maxRelDiff, diff);
    }
    result.passed = passed;
    failed_ |= !passed;
    std::printf("%s: %s (losses of %zu steps, max relative difference %.2g)\n",
                name.c_str(), passed ? "PASS" : "FAIL", reference.size(),
                result.maxRelDiff);
    for (size_t s = 0; !passed && s < reference.size(); ++s)
      std::printf("  step %zu: cavsc %.9g, pytorch %.9g\n", s, reference[s],
                  s < losses.size() ? losses[s] : std::nan(""));
    if (!result.batchSeconds.empty())
      registerBenchmark(result);
  }
  std::fflush(stdout);
}

void Baselines::reportSettings(int32_t threads, const std::string &resultPath) {
  if (!reportedThreads_.insert(threads).second)
    return;
  const ResultFile json(resultPath);
  std::ostringstream line;
  line << "torch " << json.string("torch") << " (" << json.string("python")
       << "), torch threads " << json.number("torch_threads") << ", BLAS "
       << json.string("blas");
  if (json.has("openblas_core"))
    line << " (OpenBLAS core " << json.string("openblas_core") << ", "
         << json.number("openblas_threads") << " threads)";
  std::printf("PyTorch settings, %d thread%s: %s\n", threads,
              threads == 1 ? "" : "s", line.str().c_str());
  benchmark::AddCustomContext("pytorch_threads_" + std::to_string(threads),
                              line.str());
}

void Baselines::registerBenchmark(const Result &result) {
  benchmark::RegisterBenchmark(
      (result.config.name(workload_.name) + "/pytorch-" + result.impl).c_str(),
      [&result](benchmark::State &state) {
        // Replays the script's per-batch times as manual time.
        size_t next = 0;
        for (auto _ : state)
          state.SetIterationTime(
              result.batchSeconds[next++ % result.batchSeconds.size()]);
        const double seconds = sum(result.batchSeconds);
        const double rate = result.samples / seconds;
        state.counters["samples/s"] = rate;
        state.counters["vertices/s"] = result.vertices / seconds;
        state.counters["ms/batch"] =
            1e3 * seconds / double(result.batchSeconds.size());
        state.counters["loss_rel_diff"] = result.maxRelDiff;
        if (const Measurement cavsc = medianOf(result.cavsc); cavsc.done)
          state.counters["cavsc_speedup"] = cavsc.samplesPerSecond / rate;
      })
      ->UseManualTime()
      ->Iterations(benchmark::IterationCount(result.batchSeconds.size()))
      ->Unit(benchmark::kMillisecond);
}

void Baselines::printSummary(const std::string &workload) const {
  if (results_.empty())
    return;
  std::printf("\nPyTorch baselines (train; samples/s, cavsc speedup = cavsc "
              "samples/s / baseline samples/s)\n");
  std::printf("  %-40s %10s %10s %8s %12s %8s  %s\n", "configuration", "cavsc",
              "level", "speedup", "per-sample", "speedup", "losses");
  // "-" where nothing was timed (--baselines=equivalence, a failed script,
  // a cavsc benchmark left out by --benchmark_filter).
  auto cell = [](double value, const char *format, int width) {
    char number[32] = "-", text[48];
    if (value > 0)
      std::snprintf(number, sizeof number, format, value);
    std::snprintf(text, sizeof text, "%*s", width, number);
    return std::string(text);
  };
  auto rate = [](const Result &r) {
    return r.batchSeconds.empty() ? 0.0 : r.samples / sum(r.batchSeconds);
  };
  auto cavscRate = [](const Result &r) {
    const Measurement cavsc = medianOf(r.cavsc);
    return cavsc.done ? cavsc.samplesPerSecond : 0.0;
  };
  auto speedup = [&](const Result &r) {
    return rate(r) > 0 && cavscRate(r) > 0 ? cavscRate(r) / rate(r) : 0.0;
  };
  for (size_t i = 0; i + 1 < results_.size(); i += 2) {
    const Result &level = results_[i], &sample = results_[i + 1];
    const double cavsc = cavscRate(level);
    std::printf(
        "  %-40s %s %s %s %s %s  %s\n", level.config.name(workload).c_str(),
        cell(cavsc, "%.1f", 10).c_str(), cell(rate(level), "%.1f", 10).c_str(),
        cell(speedup(level), "%.2fx", 8).c_str(),
        cell(rate(sample), "%.1f", 12).c_str(),
        cell(speedup(sample), "%.2fx", 8).c_str(),
        level.passed && sample.passed ? "PASS" : "FAIL");
  }
}

} // namespace cavs::bench
