//===- Options.cpp - command line of cavs-bench ---------------------------===//
#include "Options.h"

#include "cavs/instance.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

namespace cavs::bench {

namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

int32_t parseCount(const std::string &flag, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < 1 ||
      value > kInt32Max)
    throw UsageError(flag + " expects positive integers, got '" + text + "'");
  return int32_t(value);
}

/// Splits "a,b,c" (no empty items).
std::vector<std::string> splitList(const std::string &flag,
                                   const std::string &text) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (true) {
    const size_t comma = text.find(',', begin);
    items.push_back(text.substr(begin, comma - begin));
    if (items.back().empty())
      throw UsageError(flag + " expects a comma-separated list, got '" + text +
                       "'");
    if (comma == std::string::npos)
      return items;
    begin = comma + 1;
  }
}

/// Throws UsageError when `values` holds an item twice: its rows would
/// have one name.
template <typename T>
void requireDistinct(const std::string &flag, const std::vector<T> &values,
                     const std::vector<std::string> &items) {
  for (size_t i = 0; i < values.size(); ++i)
    if (std::find(values.begin(), values.begin() + i, values[i]) !=
        values.begin() + i)
      throw UsageError(flag + " names '" + items[i] + "' twice");
}

std::vector<int32_t> parseCounts(const std::string &flag,
                                 const std::string &text) {
  std::vector<int32_t> values;
  const std::vector<std::string> items = splitList(flag, text);
  for (const std::string &item : items)
    values.push_back(parseCount(flag, item));
  requireDistinct(flag, values, items);
  return values;
}

std::vector<Mode> parseModes(const std::string &flag, const std::string &text) {
  std::vector<Mode> modes;
  const std::vector<std::string> items = splitList(flag, text);
  for (const std::string &item : items) {
    if (item == "train")
      modes.push_back(Mode::Train);
    else if (item == "infer")
      modes.push_back(Mode::Infer);
    else
      throw UsageError(flag + " expects train and/or infer, got '" + item +
                       "'");
  }
  requireDistinct(flag, modes, items);
  return modes;
}

/// Throws UsageError, naming `what`, unless the runtime has a GEMM engine
/// called `engine` (cavs_gemm_engine_name).
void requireGemmEngine(const std::string &what, const std::string &engine) {
  std::string list;
  for (int32_t e = 0; e < cavs_num_gemm_engines(); ++e) {
    if (cavs_gemm_engine_name(e) == engine)
      return;
    list += std::string(e ? ", " : "") + cavs_gemm_engine_name(e);
  }
  throw UsageError(what + ": no GEMM engine '" + engine +
                   "' in this runtime (" + list + ")");
}

/// Engine names the runtime has, each once.
std::vector<std::string> parseGemmEngines(const std::string &flag,
                                          const std::string &text) {
  std::vector<std::string> engines = splitList(flag, text);
  for (const std::string &engine : engines)
    requireGemmEngine(flag, engine);
  requireDistinct(flag, engines, engines);
  return engines;
}

/// A week: past it a run (--min-seconds=1e308) would never end, and
/// durations would overflow when converted to clock ticks.
constexpr double kMaxSeconds = 7 * 24 * 3600;

double parseSeconds(const std::string &flag, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !(value > 0) ||
      !(value <= kMaxSeconds))
    throw UsageError(flag + " expects a positive number of seconds, at most " +
                     std::to_string(int(kMaxSeconds)) + " (a week), got '" +
                     text + "'");
  return value;
}

/// The Google Benchmark flags whose bad values the library answers with its
/// usage text and status 0 (or a bare "vector::reserve"): refused here.
void checkBenchmarkFlag(const std::string &arg) {
  const size_t equals = arg.find('=');
  if (equals == std::string::npos)
    return;
  const std::string flag = arg.substr(0, equals), value = arg.substr(equals + 1);
  auto oneOf = [&](std::initializer_list<const char *> allowed,
                   const char *expected) {
    for (const char *choice : allowed)
      if (value == choice)
        return;
    throw UsageError(flag + " expects " + expected + ", got '" + value + "'");
  };
  if (flag == "--benchmark_out_format")
    oneOf({"console", "json", "csv"}, "console, json or csv");
  else if (flag == "--benchmark_format" && value != "console")
    // cavs-bench prints its own lines (models, machine, tables) on stdout.
    throw UsageError("--benchmark_format=" + value +
                     " would mix cavs-bench's own lines into the " + value +
                     " on standard output: use --benchmark_out=FILE "
                     "--benchmark_out_format=" +
                     value);
  else if (flag == "--benchmark_time_unit")
    throw UsageError("--benchmark_time_unit: cavs-bench reports time per "
                     "batch in ms (and samples/s)");
  else if (flag == "--benchmark_min_time")
    throw UsageError("--benchmark_min_time: use --min-seconds");
  else if (flag == "--benchmark_repetitions")
    parseCount(flag, value);
}

/// Throws UsageError when `mode` (--ablation, --products) was given with
/// one of `flags`, which it does not use.
void refuseWith(const std::set<std::string> &given, const char *mode,
                std::initializer_list<const char *> flags, const char *why) {
  if (!given.count(mode))
    return;
  for (const char *flag : flags)
    if (given.count(flag))
      throw UsageError(std::string(flag) + " does not apply to " + mode +
                       ", which " + why);
}

/// Whether `program` names an executable file: a path, or a name found on
/// $PATH as the shell would.
bool findsProgram(const std::string &program) {
  if (program.find('/') != std::string::npos)
    return llvm::sys::fs::can_execute(program);
  return bool(llvm::sys::findProgramByName(program));
}

/// --baselines, --baseline-steps, --baseline-timeout and --python.
void parseBaselineFlag(const std::string &flag, const std::string &value,
                       Options &options) {
  if (value.empty())
    throw UsageError(flag + " needs a value (" + flag + "=...)");
  if (flag == "--baseline-steps")
    options.baselineSteps = parseCount(flag, value);
  else if (flag == "--baseline-timeout")
    options.baselineTimeout = parseSeconds(flag, value);
  else if (flag == "--python") {
    if (!findsProgram(value))
      throw UsageError("--python: no program '" + value + "'");
    options.python = value;
  } else if (value == "none")
    options.baselines = BaselineMode::None;
  else if (value == "equivalence")
    options.baselines = BaselineMode::Equivalence;
  else if (value == "all")
    options.baselines = BaselineMode::All;
  else
    throw UsageError("--baselines expects none, equivalence or all, got '" +
                     value + "'");
}

} // namespace

const char *modeName(Mode mode) {
  return mode == Mode::Train ? "train" : "infer";
}

std::string usage() {
  return "usage: cavs-bench [options] [--benchmark_* flags]\n"
         "\n"
         "Compiles example models with cavsc, runs them on a data set for\n"
         "training or inference and reports throughput per configuration\n"
         "(Google Benchmark; see docs/performance.md).\n"
         "\n"
         "  --workload=W       the model and its data (treelstm):\n"
         "                       treelstm, treelstm-nary, treegru,\n"
         "                       treelstm2type: SST train\n"
         "                       (synthetic SST-like trees when absent)\n"
         "                       treefc: complete binary trees of 256\n"
         "                       leaves (generated)\n"
         "                       chainlstm (Var-LSTM LM): a chain per PTB\n"
         "                       sentence; fixedlstm (Fixed-LSTM LM): PTB\n"
         "                       text in chains of 64 words\n"
         "                       lattice: character lattices of PTB text\n"
         "  --batch=B,...      samples per batch (64)\n"
         "  --hidden=H,...     hidden sizes: cavsc -D H=h -D E=h (128,512)\n"
         "  --mode=M,...       train (forward, backward, Adagrad step),\n"
         "                     infer (inference program) (train,infer)\n"
         "  --threads=T,...    kernel threads (1)\n"
         "  --gemm=E,...       GEMM engines, each configuration run on each\n"
         "                     in turn (openblas, onednn where built in;\n"
         "                     default: the runtime's choice, $CAVS_GEMM)\n"
         "  --min-seconds=S    measured time per configuration, at most\n"
         "                     a week (2)\n"
         "  --rounds=N         measure every configuration N times, in N\n"
         "                     interleaved rounds (names end /round:R);\n"
         "                     the ablation and --products tables and the\n"
         "                     baselines' ratios use the median (1)\n"
         "  --loss=all|root    tree workloads: loss at every vertex or\n"
         "                     at the roots only (all)\n"
         "  --data=DIR         SST folder (treelstm: DIR/train.txt; synthetic\n"
         "                     trees when the default is absent) or PTB\n"
         "                     folder (chainlstm, fixedlstm, lattice:\n"
         "                     DIR/valid.txt); default:\n"
         "                     sst or ptb in " CAVS_BENCH_SHARED_DATA_DIR "\n"
         "  --schedule=P       levels (Cavs: every ready vertex per step) or\n"
         "                     fewest-tasks (one type per step where that\n"
         "                     needs fewer tasks) (levels)\n"
         "  --device=D         cpu, cuda or cuda:N: the models are compiled\n"
         "                     with --target=cpu,cuda for a GPU (cpu)\n"
         "  --ablation         for the first batch, hidden size and mode:\n"
         "                     every optimization off, each one on alone, all\n"
         "                     on, all on with 2 threads (Cavs Fig. 10); on\n"
         "                     one --gemm engine if given; no --threads\n"
         "  --products         no workload: the N-ary Tree-LSTM's product\n"
         "                     pairs, separate and merged into one, for\n"
         "                     task rows 8-300 at each --hidden, --threads\n"
         "                     and --gemm, weights in cache and (1 thread)\n"
         "                     in memory; the workload's options do not\n"
         "                     apply\n"
         "  --cavsc=PATH       the compiler (default: the cavsc next to\n"
         "                     cavs-bench)\n"
         "  --cavsc-timeout=S  seconds one compile may run before cavsc is\n"
         "                     killed (600)\n"
         "  --cache=DIR        compiled model libraries\n"
         "                     (default: $TMPDIR/cavs-bench-cache)\n"
         "  --baselines=M      PyTorch baselines of treelstm,\n"
         "                     treelstm-nary, treefc and chainlstm\n"
         "                     (train): none, equivalence (loss check\n"
         "                     only) or all (check and throughput;\n"
         "                     skipped without python3-torch) (all)\n"
         "  --baseline-steps=N training steps whose losses are compared (5)\n"
         "  --baseline-timeout=S\n"
         "                     seconds one baseline script may run per\n"
         "                     configuration; then it is killed with its\n"
         "                     process group and reported as FAIL (600)\n"
         "  --python=PATH      python3 with torch (python3, /usr/bin/python3)\n"
         "  --help             print this text\n"
         "\n"
         "Each option once; a list names each value once. Google\n"
         "Benchmark's flags pass through, e.g. --benchmark_filter=REGEX,\n"
         "--benchmark_out=FILE --benchmark_out_format=json|csv (a bad\n"
         "format or repetition count is refused, and so are\n"
         "--benchmark_format other than console, whose output would mix\n"
         "with cavs-bench's own lines, --benchmark_time_unit and\n"
         "--benchmark_min_time: times are ms per batch, --min-seconds).\n";
}

Options parseOptions(int argc, char **argv) {
  Options options;
  options.benchmarkArgs.push_back(argv[0]);
  std::set<std::string> given;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string flag = arg.substr(0, eq);
    const bool hasValue = eq != std::string::npos;
    const std::string value = hasValue ? arg.substr(eq + 1) : "";
    if (flag.rfind("--benchmark_", 0) != 0 && !given.insert(flag).second)
      throw UsageError(flag + " is given twice");
    auto noValue = [&] {
      if (hasValue)
        throw UsageError(flag + " takes no value");
    };
    if (flag == "--help" || flag == "-h") {
      noValue();
      options.help = true;
    } else if (flag == "--ablation") {
      noValue();
      options.ablation = true;
    } else if (flag == "--products") {
      noValue();
      options.products = true;
    } else if (flag == "--workload" || flag == "--batch" ||
               flag == "--hidden" || flag == "--mode" || flag == "--threads" ||
               flag == "--min-seconds" || flag == "--rounds" ||
               flag == "--loss" || flag == "--data" || flag == "--cavsc" ||
               flag == "--cache" || flag == "--schedule" ||
               flag == "--device" || flag == "--gemm" ||
               flag == "--cavsc-timeout") {
      if (!hasValue || value.empty())
        throw UsageError(flag + " needs a value (" + flag + "=...)");
      if (flag == "--workload")
        options.workload = value;
      else if (flag == "--batch")
        options.batches = parseCounts(flag, value);
      else if (flag == "--hidden")
        options.hiddens = parseCounts(flag, value);
      else if (flag == "--mode")
        options.modes = parseModes(flag, value);
      else if (flag == "--threads") {
        options.threads = parseCounts(flag, value);
        for (int32_t threads : options.threads)
          if (threads > CAVS_MAX_THREADS)
            throw UsageError("--threads: at most " +
                             std::to_string(CAVS_MAX_THREADS) +
                             " threads, got " + std::to_string(threads));
      } else if (flag == "--gemm")
        options.gemms = parseGemmEngines(flag, value);
      else if (flag == "--min-seconds")
        options.minSeconds = parseSeconds(flag, value);
      else if (flag == "--cavsc-timeout")
        options.cavscTimeout = parseSeconds(flag, value);
      else if (flag == "--rounds")
        options.rounds = parseCount(flag, value);
      else if (flag == "--loss" && (value == "all" || value == "root"))
        options.rootLoss = value == "root";
      else if (flag == "--loss")
        throw UsageError("--loss expects all or root, got '" + value + "'");
      else if (flag == "--schedule" && value == "levels")
        options.schedule = CAVS_SCHEDULE_LEVELS;
      else if (flag == "--schedule" && value == "fewest-tasks")
        options.schedule = CAVS_SCHEDULE_FEWEST_TASKS;
      else if (flag == "--schedule")
        throw UsageError("--schedule expects levels or fewest-tasks, got '" +
                         value + "'");
      else if (flag == "--device") {
        cavs_device_options device{};
        if (cavs_device_parse(value.c_str(), &device) != CAVS_OK ||
            device.kind == CAVS_DEVICE_AUTO)
          throw UsageError("--device expects cpu, cuda or cuda:N, got '" +
                           value + "'");
        options.device = value;
      } else if (flag == "--data")
        options.data = value;
      else if (flag == "--cavsc")
        options.cavsc = value;
      else
        options.cache = value;
    } else if (flag == "--baselines" || flag == "--baseline-steps" ||
               flag == "--baseline-timeout" || flag == "--python") {
      parseBaselineFlag(flag, hasValue ? value : "", options);
    } else {
      checkBenchmarkFlag(argv[i]);
      options.benchmarkArgs.push_back(argv[i]);
    }
  }
  if (options.ablation && options.products)
    throw UsageError("--ablation and --products are separate runs: give one");
  refuseWith(given, "--ablation", {"--threads"},
             "runs its steps on 1 thread and the last one on 2");
  if (options.ablation && options.gemms.size() > 1)
    throw UsageError("--ablation runs on one GEMM engine: give --gemm one");
  refuseWith(given, "--products",
             {"--workload", "--batch", "--mode", "--loss", "--data",
              "--schedule", "--device", "--cavsc", "--cache", "--cavsc-timeout",
              "--baselines", "--baseline-steps", "--baseline-timeout",
              "--python"},
             "times products of --hidden, --threads and --gemm outside any "
             "model");
  // The runtime reports a bad $CAVS_GEMM only as the first model instance is
  // created, after the header named the default engine.
  if (const char *engine = std::getenv("CAVS_GEMM"); engine && *engine)
    requireGemmEngine("$CAVS_GEMM", engine);
  return options;
}

} // namespace cavs::bench
