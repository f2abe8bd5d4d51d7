//===- runtime.hpp - C++ wrapper of the cavs runtime C ABI ----------------===//
//
// Header-only RAII wrappers over cavs/runtime.h for applications: move-only
// handle classes, Span views of the runtime's arrays, and exceptions
// (cavs::Error, carrying the cavs_status) instead of status codes. It adds no
// behaviour of its own; everything goes through the C ABI.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_HPP
#define CAVS_RUNTIME_HPP

#include "cavs/runtime.h"

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cavs {

/// A failed runtime call: the status and the runtime's detailed message.
class Error : public std::runtime_error {
public:
  Error(cavs_status status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  /// The status code of the failure.
  cavs_status status() const noexcept { return status_; }

private:
  cavs_status status_;
};

/// Throws cavs::Error when `status` is not CAVS_OK.
inline void check(cavs_status status) {
  if (status != CAVS_OK)
    throw Error(status, cavs_last_error_message());
}

/// A non-owning view of a contiguous array (std::span is C++20).
template <typename T> class Span {
public:
  Span() = default;
  Span(T *data, size_t size) : data_(data), size_(size) {}
  template <size_t N> Span(T (&array)[N]) : data_(array), size_(N) {}
  template <typename U>
  Span(std::vector<U> &values) : data_(values.data()), size_(values.size()) {}
  template <typename U>
  Span(const std::vector<U> &values)
      : data_(values.data()), size_(values.size()) {}
  // GCC warns that a Span does not extend the list's lifetime, which is the
  // point: like absl::Span, this constructor is for function arguments only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  /// For arguments only: the list lives until the end of the call's full
  /// expression.
  Span(std::initializer_list<std::remove_const_t<T>> values)
      : data_(values.begin()), size_(values.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  T *data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T &operator[](size_t i) const { return data_[i]; }
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }

private:
  T *data_ = nullptr;
  size_t size_ = 0;
};

/// How tree and chain loaders assign vertex-function types.
enum class TreeTyping {
  /// One type; leaves have absent children.
  OneType = CAVS_TREE_ONE_TYPE,
  /// Type 0 for leaves (arity 0), type 1 for the other vertices.
  LeafType = CAVS_TREE_LEAF_TYPE,
};

/// What text loaders do with words missing from the vocabulary.
struct WordPolicy {
  bool addUnknownWords = false;
  int32_t unknownId = -1;

  /// Add unseen words (building a vocabulary from training data).
  static WordPolicy grow() { return {true, -1}; }
  /// Map unseen words to `id` (-1 or a vocabulary id, e.g. that of <unk>).
  static WordPolicy mapTo(int32_t id) { return {false, id}; }
};

namespace detail {
/// `text` as the C ABI takes it, or throws when it holds a NUL byte: the
/// runtime would read only what comes before it ("a\0b" would add "a").
inline const char *cString(const std::string &text) {
  const size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                "a string given to the cavs runtime holds a NUL byte at "
                "offset " +
                    std::to_string(nul) + " of " + std::to_string(text.size()) +
                    "; the runtime would read '" + text.substr(0, nul) + "'");
  return text.c_str();
}

template <typename T, void (*Destroy)(T *)> struct Deleter {
  void operator()(T *handle) const { Destroy(handle); }
};
template <typename T, void (*Destroy)(T *)>
using Owned = std::unique_ptr<T, Deleter<T, Destroy>>;
/// Throws unless `index` is in [0, size): the ABI's arrays behind the
/// spans below are not checked on access.
inline void checkRange(int32_t index, int32_t size, const char *what) {
  if (index < 0 || index >= size)
    throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                std::string(what) + " " + std::to_string(index) +
                    " is out of range [0, " + std::to_string(size) + ")");
}
} // namespace detail

/// A word → id map (cavs_vocab).
class Vocab {
public:
  /// An empty vocabulary.
  Vocab() {
    cavs_vocab *vocab = nullptr;
    check(cavs_vocab_create(&vocab));
    handle_.reset(vocab);
  }
  /// Loads a one-word-per-line vocabulary file.
  static Vocab load(const std::string &path) {
    cavs_vocab *vocab = nullptr;
    check(cavs_vocab_load(detail::cString(path), &vocab));
    return Vocab(vocab);
  }
  void save(const std::string &path) const {
    check(cavs_vocab_save(get(), detail::cString(path)));
  }
  /// The id of `word`, added when absent.
  int32_t add(const std::string &word) {
    int32_t id = -1;
    check(cavs_vocab_add(get(), detail::cString(word), &id));
    return id;
  }
  /// The id of `word`, or -1.
  /// -1 when absent (a word with a NUL byte always is).
  int32_t lookup(const std::string &word) const {
    return word.find('\0') == std::string::npos
               ? cavs_vocab_lookup(get(), word.c_str())
               : -1;
  }
  int32_t size() const { return cavs_vocab_size(get()); }
  /// The word of `id`; throws for an id out of range.
  std::string word(int32_t id) const {
    const char *word = cavs_vocab_word(get(), id);
    if (!word)
      throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                  "word id " + std::to_string(id) + " is out of range");
    return word;
  }

  cavs_vocab *get() const { return handle_.get(); }

private:
  explicit Vocab(cavs_vocab *vocab) : handle_(vocab) {}
  detail::Owned<cavs_vocab, cavs_vocab_destroy> handle_;
};

/// An immutable batch of input graphs (cavs_graph_batch).
class GraphBatch {
public:
  /// Takes ownership of `batch`.
  explicit GraphBatch(cavs_graph_batch *batch) : handle_(batch) {}

  int32_t numVertices() const { return cavs_graph_batch_num_vertices(get()); }
  int32_t numSamples() const { return cavs_graph_batch_num_samples(get()); }
  int32_t numTypes() const { return cavs_graph_batch_num_types(get()); }
  /// Arity of `type`, -1 when out of range.
  int32_t arity(int32_t type) const {
    return cavs_graph_batch_type_arity(get(), type);
  }
  int32_t maxArity() const { return cavs_graph_batch_max_arity(get()); }

  /// Type of every vertex.
  Span<const int32_t> types() const {
    return vertexArray(cavs_graph_batch_types(get()));
  }
  /// The child slots of vertex `v` (global ids, CAVS_NO_CHILD when absent);
  /// throws when `v` is out of range.
  Span<const int32_t> children(int32_t v) const {
    detail::checkRange(v, numVertices(), "vertex");
    const int32_t *offsets = cavs_graph_batch_child_offsets(get());
    return {cavs_graph_batch_children(get()) + offsets[v],
            size_t(offsets[v + 1] - offsets[v])};
  }
  /// First vertex of each sample, plus the vertex count (numSamples + 1).
  Span<const int32_t> sampleOffsets() const {
    return {cavs_graph_batch_sample_offsets(get()), size_t(numSamples()) + 1};
  }
  /// Sample of every vertex.
  Span<const int32_t> vertexSamples() const {
    return vertexArray(cavs_graph_batch_vertex_samples(get()));
  }
  /// Number of child slots referring to every vertex.
  Span<const int32_t> parentCounts() const {
    return vertexArray(cavs_graph_batch_parent_counts(get()));
  }
  /// Vertices without parents, in increasing id.
  Span<const int32_t> roots() const {
    return {cavs_graph_batch_roots(get()),
            size_t(cavs_graph_batch_num_roots(get()))};
  }
  int32_t numAttributes() const {
    return cavs_graph_batch_num_attributes(get());
  }
  /// Whether the batch has an attribute called `name`.
  bool hasAttribute(const std::string &name) const {
    return name.find('\0') == std::string::npos &&
           cavs_graph_batch_find_attribute(get(), name.c_str()) >= 0;
  }
  /// Values of the attribute called `name`; throws when there is none.
  Span<const int32_t> attribute(const std::string &name) const {
    const int32_t index =
        cavs_graph_batch_find_attribute(get(), detail::cString(name));
    if (index < 0)
      throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                  "the batch has no attribute '" + name + "'");
    return vertexArray(cavs_graph_batch_attribute(get(), index));
  }

  cavs_graph_batch *get() const { return handle_.get(); }

private:
  Span<const int32_t> vertexArray(const int32_t *data) const {
    return {data, size_t(numVertices())};
  }
  detail::Owned<cavs_graph_batch, cavs_graph_batch_destroy> handle_;
};

/// Accumulates validated samples into a GraphBatch (cavs_graph_builder).
class GraphBuilder {
public:
  /// A builder for types with the given arities.
  explicit GraphBuilder(Span<const int32_t> arities) {
    cavs_graph_builder *builder = nullptr;
    check(cavs_graph_builder_create(static_cast<int32_t>(arities.size()),
                                    arities.data(), &builder));
    handle_.reset(builder);
    for (int32_t arity : arities)
      maxArity_ = size_t(arity) > maxArity_ ? size_t(arity) : maxArity_;
  }
  /// Declares a per-vertex attribute before the first sample; returns its
  /// index, the position of its values in addSample's `attributes`.
  int32_t addAttribute(const std::string &name) {
    int32_t index = -1;
    check(
        cavs_graph_builder_add_attribute(get(), detail::cString(name), &index));
    ++numAttributes_;
    return index;
  }
  void reserve(int64_t numVertices, int64_t numSamples) {
    check(cavs_graph_builder_reserve(get(), numVertices, numSamples));
  }
  /// Validates and appends a sample: `types` has one entry per vertex,
  /// `children` max-arity entries per vertex (sample-local indices or
  /// CAVS_NO_CHILD), `attributes` one array per declared attribute.
  /// The sizes of the spans are checked, which the C ABI cannot do.
  void addSample(Span<const int32_t> types, Span<const int32_t> children,
                 Span<const Span<const int32_t>> attributes = {}) {
    if (children.size() != types.size() * maxArity_)
      throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                  "children has " + std::to_string(children.size()) +
                      " entries; expected " + std::to_string(maxArity_) +
                      " per vertex");
    if (attributes.size() != size_t(numAttributes_))
      throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                  "got " + std::to_string(attributes.size()) +
                      " attribute arrays for " +
                      std::to_string(numAttributes_) + " attributes");
    std::vector<const int32_t *> values;
    for (const Span<const int32_t> &attribute : attributes) {
      if (attribute.size() != types.size())
        throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                    "an attribute array has " +
                        std::to_string(attribute.size()) + " values for " +
                        std::to_string(types.size()) + " vertices");
      values.push_back(attribute.data());
    }
    check(cavs_graph_builder_add_sample(
        get(), static_cast<int32_t>(types.size()), types.data(),
        children.data(), values.empty() ? nullptr : values.data()));
  }
  /// Builds the batch and empties the builder.
  GraphBatch finalize() {
    cavs_graph_batch *batch = nullptr;
    check(cavs_graph_builder_finalize(get(), &batch));
    return GraphBatch(batch);
  }

  cavs_graph_builder *get() const { return handle_.get(); }

private:
  detail::Owned<cavs_graph_builder, cavs_graph_builder_destroy> handle_;
  size_t maxArity_ = 0;
  int32_t numAttributes_ = 0;
};

/// Binarized SST trees; see cavs_load_sst_trees.
inline GraphBatch loadSstTrees(const std::string &path, Vocab &vocab,
                               WordPolicy words = WordPolicy::grow(),
                               TreeTyping typing = TreeTyping::OneType) {
  cavs_graph_batch *batch = nullptr;
  check(cavs_load_sst_trees(detail::cString(path), vocab.get(),
                            words.addUnknownWords, words.unknownId,
                            static_cast<cavs_tree_typing>(typing), &batch));
  return GraphBatch(batch);
}

/// Tree-LSTM parent arrays; see cavs_load_parent_arrays.
inline GraphBatch loadParentArrays(const std::string &path, int32_t arity = 0,
                                   TreeTyping typing = TreeTyping::OneType) {
  cavs_graph_batch *batch = nullptr;
  check(cavs_load_parent_arrays(detail::cString(path), arity,
                                static_cast<cavs_tree_typing>(typing), &batch));
  return GraphBatch(batch);
}

/// One chain per line of words; see cavs_load_sentence_chains.
inline GraphBatch loadSentenceChains(const std::string &path, Vocab &vocab,
                                     WordPolicy words = WordPolicy::grow(),
                                     TreeTyping typing = TreeTyping::OneType) {
  cavs_graph_batch *batch = nullptr;
  check(cavs_load_sentence_chains(
      detail::cString(path), vocab.get(), words.addUnknownWords,
      words.unknownId, static_cast<cavs_tree_typing>(typing), &batch));
  return GraphBatch(batch);
}

/// Chains of the given lengths; see cavs_graph_batch_create_chains.
inline GraphBatch makeChains(Span<const int32_t> lengths,
                             TreeTyping typing = TreeTyping::OneType) {
  cavs_graph_batch *batch = nullptr;
  check(cavs_graph_batch_create_chains(
      static_cast<int32_t>(lengths.size()), lengths.data(),
      static_cast<cavs_tree_typing>(typing), &batch));
  return GraphBatch(batch);
}

/// The cavs edge-list format; see cavs_load_edge_list.
inline GraphBatch loadEdgeList(const std::string &path) {
  cavs_graph_batch *batch = nullptr;
  check(cavs_load_edge_list(detail::cString(path), &batch));
  return GraphBatch(batch);
}

/// The batching schedule of a GraphBatch (cavs_schedule).
class Schedule {
public:
  /// Schedules `batch` with `policy`; the schedule does not refer to the
  /// batch afterwards.
  explicit Schedule(const GraphBatch &batch,
                    cavs_schedule_policy policy = CAVS_SCHEDULE_LEVELS) {
    cavs_schedule *schedule = nullptr;
    check(cavs_schedule_create_with_policy(batch.get(), policy, &schedule));
    handle_.reset(schedule);
  }

  /// The tasks in execution order (replay in reverse for backward).
  Span<const cavs_task> tasks() const {
    return {cavs_schedule_tasks(get()), size_t(cavs_schedule_num_tasks(get()))};
  }
  /// The depth of the batch: a lower bound on the number of tasks.
  int32_t numLevels() const { return cavs_schedule_num_levels(get()); }
  int32_t numRows() const { return cavs_schedule_num_rows(get()); }
  int32_t numTypes() const { return cavs_schedule_num_types(get()); }

  /// Global rows of child slot `k` of `task`'s vertices (CAVS_NO_CHILD when
  /// absent); throws when `k` is not a slot of the task's type.
  Span<const int32_t> childRows(const cavs_task &task, int32_t k) const {
    detail::checkRange(k, task.arity, "child slot");
    return {cavs_schedule_children_rows(get()) + task.children_begin +
                size_t(k) * task.count,
            size_t(task.count)};
  }
  /// First global row when childRows(task, k) is a contiguous ascending
  /// range (gather can be a view), else -1; throws when `k` is not a slot
  /// of the task's type.
  int32_t childView(const cavs_task &task, int32_t k) const {
    detail::checkRange(k, task.arity, "child slot");
    return cavs_schedule_child_views(get())[task.views_begin + k];
  }
  /// Global row of every vertex.
  Span<const int32_t> vertexRows() const {
    return rowArray(cavs_schedule_vertex_rows(get()));
  }
  /// Vertex of every global row.
  Span<const int32_t> rowVertices() const {
    return rowArray(cavs_schedule_row_vertices(get()));
  }
  /// Row of every vertex in its type's arena.
  Span<const int32_t> localRows() const {
    return rowArray(cavs_schedule_local_rows(get()));
  }
  /// Parent count of the vertex of every global row.
  Span<const int32_t> rowParentCounts() const {
    return rowArray(cavs_schedule_row_parent_counts(get()));
  }
  /// Global row of every local row of `type`; throws when `type` is out of
  /// range.
  Span<const int32_t> typeRows(int32_t type) const {
    detail::checkRange(type, numTypes(), "type");
    return {cavs_schedule_type_rows(get(), type),
            size_t(cavs_schedule_type_num_rows(get(), type))};
  }

  cavs_schedule *get() const { return handle_.get(); }

private:
  Span<const int32_t> rowArray(const int32_t *data) const {
    return {data, size_t(numRows())};
  }
  detail::Owned<cavs_schedule, cavs_schedule_destroy> handle_;
};

namespace detail {
/// `info`, or throws for an index out of range (a NULL from the ABI).
template <typename Info>
const Info &checkedInfo(const Info *info, const char *what, int32_t index) {
  if (!info)
    throw Error(CAVS_ERROR_INVALID_ARGUMENT, std::string(what) + " index " +
                                                 std::to_string(index) +
                                                 " is out of range");
  return *info;
}
/// `index`, or throws when a lookup by `name` found nothing (-1).
inline int32_t checkedIndex(int32_t index, const char *what,
                            const std::string &name) {
  if (index < 0)
    throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                "the model has no " + std::string(what) + " '" + name + "'");
  return index;
}
} // namespace detail

/// The parameters of one model instance (cavs_param_store): one aligned flat
/// buffer, queried by parameter or pack index or name.
class ParamStore {
public:
  /// Validates `desc` and initialises every parameter from `seed`.
  ParamStore(const cavs_model_desc &desc, uint64_t seed) {
    cavs_param_store *store = nullptr;
    check(cavs_param_store_create(&desc, seed, &store));
    handle_.reset(store);
  }

  std::string modelName() const { return cavs_param_store_model_name(get()); }
  uint64_t signature() const { return cavs_param_store_signature(get()); }
  /// The whole flat buffer, padding included.
  Span<float> data() {
    return {cavs_param_store_data(get()), size_t(cavs_param_store_size(get()))};
  }

  int32_t numParams() const { return cavs_param_store_num_params(get()); }
  /// Index of parameter `name`; throws when there is none.
  int32_t paramIndex(const std::string &name) const {
    return detail::checkedIndex(
        cavs_param_store_find_param(get(), detail::cString(name)), "parameter",
        name);
  }
  /// Layout of parameter `index`; throws when out of range.
  const cavs_param_info &param(int32_t index) const {
    return detail::checkedInfo(cavs_param_store_param(get(), index),
                               "parameter", index);
  }
  /// Values of parameter `index`.
  Span<float> values(int32_t index) {
    return {cavs_param_store_data(get()) + param(index).offset,
            size_t(param(index).size)};
  }
  Span<float> values(const std::string &name) {
    return values(paramIndex(name));
  }
  /// Freezes (or unfreezes) parameter `index`: optimizer steps skip it.
  void setFrozen(int32_t index, bool frozen = true) {
    check(cavs_param_store_set_frozen(get(), index, frozen ? 1 : 0));
  }
  bool frozen(int32_t index) const {
    return cavs_param_store_frozen(get(), index) != 0;
  }

  int32_t numPacks() const { return cavs_param_store_num_packs(get()); }
  /// Index of pack `name`; throws when there is none.
  int32_t packIndex(const std::string &name) const {
    return detail::checkedIndex(
        cavs_param_store_find_pack(get(), detail::cString(name)), "pack", name);
  }
  /// Layout of pack `index`; throws when out of range.
  const cavs_pack_info &pack(int32_t index) const {
    return detail::checkedInfo(cavs_param_store_pack(get(), index), "pack",
                               index);
  }
  /// Values of pack `index`: its members back to back.
  Span<float> packValues(int32_t index) {
    return {cavs_param_store_data(get()) + pack(index).offset,
            size_t(pack(index).size)};
  }

  cavs_param_store *get() const { return handle_.get(); }

private:
  detail::Owned<cavs_param_store, cavs_param_store_destroy> handle_;
};

/// Gradients in the layout of a ParamStore (cavs_grad_store), with optional
/// touched-row tracking for embedding tables.
class GradStore {
public:
  /// Zeroed gradients for the model of `params`.
  explicit GradStore(const ParamStore &params) {
    cavs_grad_store *grads = nullptr;
    check(cavs_grad_store_create(params.get(), &grads));
    handle_.reset(grads);
  }

  /// The whole flat buffer, padding included.
  Span<float> data() {
    return {cavs_grad_store_data(get()), size_t(cavs_grad_store_size(get()))};
  }
  /// Gradient of parameter `index`; throws when out of range.
  Span<float> values(int32_t index) {
    const cavs_param_info &info = detail::checkedInfo(
        cavs_grad_store_param(get(), index), "parameter", index);
    return {cavs_grad_store_data(get()) + info.offset, size_t(info.size)};
  }
  /// Gradient of pack `index`; throws when out of range.
  Span<float> packValues(int32_t index) {
    const cavs_pack_info &info =
        detail::checkedInfo(cavs_grad_store_pack(get(), index), "pack", index);
    return {cavs_grad_store_data(get()) + info.offset, size_t(info.size)};
  }

  /// Zeroes every gradient (only touched rows of tracking parameters).
  void zero() { cavs_grad_store_zero(get()); }
  /// Tracks the touched rows of matrix parameter `param`.
  void trackRows(int32_t param) {
    check(cavs_grad_store_track_rows(get(), param));
  }
  bool tracksRows(int32_t param) const {
    return cavs_grad_store_tracks_rows(get(), param) != 0;
  }
  /// Marks `rows` of `param` as touched.
  void markRows(int32_t param, Span<const int32_t> rows) {
    check(cavs_grad_store_mark_rows(get(), param, rows.data(),
                                    int64_t(rows.size())));
  }
  /// Distinct touched rows of `param` in first-marked order.
  Span<const int32_t> touchedRows(int32_t param) const {
    return {cavs_grad_store_touched_rows(get(), param),
            size_t(cavs_grad_store_num_touched_rows(get(), param))};
  }

  cavs_grad_store *get() const { return handle_.get(); }

private:
  detail::Owned<cavs_grad_store, cavs_grad_store_destroy> handle_;
};

/// The update rule of an Optimizer.
enum class OptimizerKind {
  Sgd = CAVS_OPTIMIZER_SGD,
  Adagrad = CAVS_OPTIMIZER_ADAGRAD,
  Adam = CAVS_OPTIMIZER_ADAM,
};

/// An optimizer and its state (cavs_optimizer).
class Optimizer {
public:
  /// The default hyperparameters of `kind`, to adjust before construction.
  static cavs_optimizer_options defaults(OptimizerKind kind) {
    cavs_optimizer_options options;
    check(cavs_optimizer_options_init(static_cast<cavs_optimizer_kind>(kind),
                                      &options));
    return options;
  }
  /// An optimizer for the model of `params`.
  Optimizer(const ParamStore &params, const cavs_optimizer_options &options)
      : Optimizer(params.get(), options) {}
  /// An optimizer for the model of `params`, such as Model::params().
  Optimizer(const cavs_param_store *params,
            const cavs_optimizer_options &options) {
    cavs_optimizer *optimizer = nullptr;
    check(cavs_optimizer_create(params, &options, &optimizer));
    handle_.reset(optimizer);
  }

  /// One update of `params` from `grads`.
  void step(ParamStore &params, const GradStore &grads) {
    check(cavs_optimizer_step(get(), params.get(), grads.get()));
  }
  void setLearningRate(double learningRate) {
    check(cavs_optimizer_set_learning_rate(get(), learningRate));
  }
  const cavs_optimizer_options &options() const {
    return *cavs_optimizer_options_of(get());
  }
  int64_t stepCount() const { return cavs_optimizer_step_count(get()); }

  cavs_optimizer *get() const { return handle_.get(); }

private:
  detail::Owned<cavs_optimizer, cavs_optimizer_destroy> handle_;
};

/// The state of a training run that a checkpoint carries (cavs_train_state):
/// named u64 and f64 fields the application defines.
class TrainState {
public:
  TrainState() {
    cavs_train_state *state = nullptr;
    check(cavs_train_state_create(&state));
    handle_.reset(state);
  }
  void setU64(const std::string &name, uint64_t value) {
    check(cavs_train_state_set_u64(get(), detail::cString(name), value));
  }
  void setF64(const std::string &name, double value) {
    check(cavs_train_state_set_f64(get(), detail::cString(name), value));
  }
  /// The value of field `name`; throws when it is missing or of the other
  /// type.
  uint64_t u64(const std::string &name) const {
    uint64_t value = 0;
    check(cavs_train_state_get_u64(get(), detail::cString(name), &value));
    return value;
  }
  double f64(const std::string &name) const {
    double value = 0;
    check(cavs_train_state_get_f64(get(), detail::cString(name), &value));
    return value;
  }
  /// The number of fields; 0 after loading a checkpoint without a state.
  int32_t size() const { return cavs_train_state_num_fields(get()); }

  cavs_train_state *get() const { return handle_.get(); }

private:
  detail::Owned<cavs_train_state, cavs_train_state_destroy> handle_;
};

/// An instance of a compiled model (cavs_model): its parameters, gradients
/// and execution buffers. `def` is the generated library's definition.
class Model {
public:
  /// Validates `def` (which must outlive the model) and initialises the
  /// parameters from `seed`.
  Model(const cavs_model_def &def, uint64_t seed) {
    cavs_model *model = nullptr;
    check(cavs_model_create(&def, seed, &model));
    handle_.reset(model);
  }
  /// The same on `device`: "cpu", "cuda", "cuda:N" or "auto".
  Model(const cavs_model_def &def, uint64_t seed, const std::string &device) {
    cavs_device_options options{};
    check(cavs_device_parse(detail::cString(device), &options));
    cavs_model *model = nullptr;
    check(cavs_model_create_on_device(&def, seed, &options, &model));
    handle_.reset(model);
  }

  /// CAVS_DEVICE_CPU or CAVS_DEVICE_CUDA, and its name ("cpu", "cuda:0
  /// (NVIDIA H200, sm_90)").
  cavs_device_kind device() const { return cavs_model_device(get()); }
  std::string deviceName() const { return cavs_model_device_name(live()); }

  /// Runs F in train mode (backward may follow); returns the loss. The
  /// batch must stay alive until backward().
  double forward(const GraphBatch &batch) {
    return run(batch, CAVS_MODE_TRAIN);
  }
  /// Runs F with the inference program; returns the loss.
  double infer(const GraphBatch &batch) { return run(batch, CAVS_MODE_INFER); }
  /// Runs ∂F, adding to the parameter gradients.
  void backward() { check(cavs_model_backward(get())); }
  /// One optimizer update from the gradients, which are then zeroed.
  void step(Optimizer &optimizer) {
    check(cavs_model_step(get(), optimizer.get()));
  }

  /// Sets f32 input `name`: width floats per vertex of the next batch.
  void setInput(const std::string &name, Span<const float> values) {
    check(cavs_model_set_input(get(), detail::cString(name), values.data(),
                               int64_t(values.size())));
  }
  /// Output `name` of the last forward pass, outputWidth(name) floats per
  /// vertex; valid until the next forward pass.
  Span<const float> output(const std::string &name) {
    int64_t width = 0;
    const float *data = cavs_model_output(get(), detail::cString(name), &width);
    return vertexRows(data, width);
  }
  /// Floats per vertex of output `name`; throws for an unknown name.
  int64_t outputWidth(const std::string &name) const {
    const cavs_program_desc &program = cavs_model_definition(live())->train;
    for (int32_t f = 0; f < program.num_functions; ++f)
      for (int32_t i = 0; i < program.functions[f].num_pushes; ++i)
        if (name == program.functions[f].pushes[i].name)
          return program.functions[f].pushes[i].width;
    throw Error(CAVS_ERROR_INVALID_ARGUMENT,
                "the model has no output '" + name + "'");
  }
  /// Whether the next forward passes write output `name`
  /// (cavs_model_set_output_enabled); throws for an unknown name.
  void setOutputEnabled(const std::string &name, bool enabled) {
    check(cavs_model_set_output_enabled(get(), detail::cString(name), enabled));
  }
  /// Sets the gradient of output `name` for the next backward pass.
  void setOutputGrad(const std::string &name, Span<const float> values) {
    check(cavs_model_set_output_grad(get(), detail::cString(name),
                                     values.data(), int64_t(values.size())));
  }
  /// Gradient of f32 input `name` from the last backward pass.
  Span<const float> inputGrad(const std::string &name) {
    int64_t width = 0;
    const float *data =
        cavs_model_input_grad(get(), detail::cString(name), &width);
    return vertexRows(data, width);
  }

  /// Values of parameter `name`; throws for an unknown name.
  Span<float> param(const std::string &name) {
    const int32_t index = paramIndex(name);
    return {cavs_param_store_param_data(params(), index),
            size_t(cavs_param_store_param(params(), index)->size)};
  }
  /// Values of parameter `name`, read-only: unlike param(), reading them
  /// does not make a GPU instance upload its parameters again.
  Span<const float> paramValues(const std::string &name) const {
    const int32_t index = paramIndex(name);
    return {cavs_param_store_param_values(params(), index),
            size_t(cavs_param_store_param(params(), index)->size)};
  }
  /// Gradient of parameter `name`; throws for an unknown name.
  Span<float> grad(const std::string &name) {
    const int32_t index = paramIndex(name);
    return {cavs_grad_store_param_data(grads(), index),
            size_t(cavs_grad_store_param(grads(), index)->size)};
  }
  /// Freezes (or unfreezes) parameter `name`: steps leave it unchanged
  /// (cavs_param_store_set_frozen); throws for an unknown name.
  void freeze(const std::string &name, bool frozen = true) {
    check(cavs_param_store_set_frozen(params(), paramIndex(name),
                                      frozen ? 1 : 0));
  }
  bool frozen(const std::string &name) const {
    return cavs_param_store_frozen(params(), paramIndex(name)) != 0;
  }
  /// The parameter and gradient stores (owned by the model).
  cavs_param_store *params() const { return cavs_model_params(get()); }
  cavs_grad_store *grads() const { return cavs_model_grads(get()); }

  /// Timing of the last forward, backward and step.
  cavs_model_timing timing() const { return cavs_model_last_timing(get()); }
  /// How the next forward passes batch their vertices (cavs/schedule.h).
  void setSchedulePolicy(cavs_schedule_policy policy) {
    check(cavs_model_set_schedule_policy(get(), policy));
  }
  /// Tasks and levels of the last forward pass's schedule.
  int32_t numTasks() const { return cavs_model_last_num_tasks(get()); }
  int32_t numLevels() const { return cavs_model_last_num_levels(get()); }

  /// Saves the parameters (and the optimizer's state, and the training
  /// state) atomically.
  void save(const std::string &path, const Optimizer *optimizer = nullptr,
            const TrainState *state = nullptr) {
    check(cavs_checkpoint_save_with_state(
        detail::cString(path), params(), optimizer ? optimizer->get() : nullptr,
        state ? state->get() : nullptr));
  }
  /// Loads the parameters (and restores the optimizer, and replaces `state`
  /// with the checkpoint's training state).
  void load(const std::string &path, Optimizer *optimizer = nullptr,
            TrainState *state = nullptr) {
    check(cavs_checkpoint_load_with_state(
        detail::cString(path), params(), optimizer ? optimizer->get() : nullptr,
        state ? state->get() : nullptr));
  }
  /// Writes the parameters to a safetensors file atomically.
  void saveSafetensors(const std::string &path) const {
    check(cavs_safetensors_save(detail::cString(path), params()));
  }
  /// Reads the parameters from a safetensors file.
  void loadSafetensors(const std::string &path) {
    check(cavs_safetensors_load(detail::cString(path), params()));
  }

  cavs_model *get() const { return handle_.get(); }

private:
  double run(const GraphBatch &batch, cavs_mode mode) {
    double loss = 0;
    check(cavs_model_forward(get(), batch.get(), mode, &loss));
    return loss;
  }
  /// The rows of every vertex of the last batch, or throws for NULL.
  Span<const float> vertexRows(const float *data, int64_t width) const {
    if (!data)
      throw Error(CAVS_ERROR_INVALID_ARGUMENT, cavs_last_error_message());
    return {data, size_t(width) * size_t(cavs_model_last_num_vertices(get()))};
  }
  int32_t paramIndex(const std::string &name) const {
    return detail::checkedIndex(
        cavs_param_store_find_param(cavs_model_params(live()),
                                    detail::cString(name)),
        "parameter", name);
  }
  /// The handle, or throws for a moved-from model (whose definition and
  /// stores are NULL), as the C calls fail for it.
  cavs_model *live() const {
    if (!handle_)
      throw Error(CAVS_ERROR_INVALID_ARGUMENT, "model must not be NULL");
    return handle_.get();
  }
  detail::Owned<cavs_model, cavs_model_destroy> handle_;
};

/// Loads pretrained word vectors (GloVe or word2vec text, maybe gzipped)
/// into matrix parameter `param` of `params` (ParamStore::get() or
/// Model::params()): row i gets the vector of word i of `vocab` when the
/// file has it. `flags`: 0 or CAVS_WORD_VECTORS_EXTRA_ROWS. Returns the
/// counts (coverage = found / vocabulary_words); on failure throws and
/// changes nothing.
inline cavs_word_vectors_report loadWordVectors(const std::string &path,
                                                const Vocab &vocab,
                                                cavs_param_store *params,
                                                const std::string &param,
                                                uint32_t flags = 0) {
  cavs_word_vectors_report report{};
  check(cavs_load_word_vectors(detail::cString(path), vocab.get(), params,
                               detail::cString(param), flags, &report));
  return report;
}

/// Saves the parameters to `path` atomically.
inline void saveCheckpoint(const std::string &path, const ParamStore &params) {
  check(cavs_checkpoint_save(detail::cString(path), params.get(), nullptr));
}
/// Saves the parameters and the optimizer's state to `path` atomically.
inline void saveCheckpoint(const std::string &path, const ParamStore &params,
                           const Optimizer &optimizer) {
  check(cavs_checkpoint_save(detail::cString(path), params.get(),
                             optimizer.get()));
}
/// Loads the parameters only (any optimizer state in the file is ignored).
inline void loadCheckpoint(const std::string &path, ParamStore &params) {
  check(cavs_checkpoint_load(detail::cString(path), params.get(), nullptr));
}
/// Loads the parameters and restores the optimizer.
inline void loadCheckpoint(const std::string &path, ParamStore &params,
                           Optimizer &optimizer) {
  check(cavs_checkpoint_load(detail::cString(path), params.get(),
                             optimizer.get()));
}

/// Writes the parameters to the safetensors file `path` atomically.
inline void saveSafetensors(const std::string &path, const ParamStore &params) {
  check(cavs_safetensors_save(detail::cString(path), params.get()));
}
/// Reads the parameters from the safetensors file `path`; on failure they
/// are unchanged.
inline void loadSafetensors(const std::string &path, ParamStore &params) {
  check(cavs_safetensors_load(detail::cString(path), params.get()));
}
/// Writes the parameters of a checkpoint to the safetensors file `path`.
inline void safetensorsFromCheckpoint(const std::string &checkpointPath,
                                      const std::string &path) {
  check(cavs_safetensors_from_checkpoint(detail::cString(checkpointPath),
                                         detail::cString(path)));
}
/// Writes a checkpoint of the model of `templateCheckpoint` with the
/// parameter values of the safetensors file `path`.
inline void safetensorsToCheckpoint(const std::string &path,
                                    const std::string &templateCheckpoint,
                                    const std::string &checkpointPath) {
  check(cavs_safetensors_to_checkpoint(detail::cString(path),
                                       detail::cString(templateCheckpoint),
                                       detail::cString(checkpointPath)));
}

} // namespace cavs

#endif // CAVS_RUNTIME_HPP
