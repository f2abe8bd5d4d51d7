//===- InstanceCallsTest.cpp - the calls the executor makes ---------------===//
//
// A probe model whose phase functions only record their cavs_call checks
// the calling convention of docs/runtime.md, "Execution", field by field
// against an independently built schedule: which phases run in which order
// (NULL phases and types without vertices skipped, body tasks reversed in
// backward), rows, arena offsets, scratch, state rows, children, views,
// vertex ids, and the parameter, pull and push tables.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "ToyReference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <string>

namespace cavs::test {
namespace {

/// One recorded call.
struct Record {
  int function;
  int phase;
  bool infer;
  cavs_call call;
  std::vector<int32_t> vertices, children, views;
  /// Whether the call's arena rows were all zero.
  bool arenaZero;
};

constexpr int32_t kArities[] = {0, 2, 1};
constexpr int64_t kTrainArena[] = {3, 5, 2};
constexpr int64_t kInferArena[] = {2, 4, 1};
constexpr int64_t kScratch[] = {0, 7, 1};

std::vector<Record> records;
/// Held while a call records: parts of a split body call from two threads.
std::mutex recordsMutex;
/// A node's forward body call fails, as an op would, when it starts at this
/// global row or later (-1: never).
int64_t failFromRow = -1;
/// Whether the forward phases write the outputs: y (pushed by the leaf
/// and the node, in their eager phases) and z (the node's, lazy).
bool writeOutputs = true;

/// A copy of `count` ints at `data`.
std::vector<int32_t> copyOf(const int32_t *data, int64_t count) {
  std::vector<int32_t> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = data[i];
  return values;
}

template <int F, int Phase, bool Infer> cavs_status record(const cavs_call *c) {
  const bool body =
      Phase == CAVS_PHASE_FORWARD_BODY || Phase == CAVS_PHASE_BACKWARD_BODY;
  Record r{F, Phase, Infer, *c, {}, {}, {}, true};
  r.vertices = copyOf(c->vertices, c->rows);
  if (body) {
    r.children = copyOf(c->children, c->rows * kArities[F]);
    r.views = copyOf(c->child_views, kArities[F]);
  }
  const int64_t arena = (Infer ? kInferArena : kTrainArena)[F];
  const float *rows = c->arena + c->arena_row * arena;
  r.arenaZero = std::all_of(rows, rows + c->rows * arena,
                            [](float v) { return v == 0.0f; });
  {
    std::lock_guard<std::mutex> lock(recordsMutex);
    records.push_back(std::move(r));
  }
  // An invalid argument sets this thread's last error, as a failed op does.
  if (Phase == CAVS_PHASE_FORWARD_BODY && F == 1 && failFromRow >= 0 &&
      c->state_begin >= failFromRow)
    return cavs_set_num_threads(0);
  // A disabled output has no destination (as scatter_rows skips it).
  if (Phase == CAVS_PHASE_FORWARD_EAGER && F < 2 && writeOutputs &&
      c->pushes[0])
    for (int64_t i = 0; i < c->rows; ++i)
      c->pushes[0][c->vertices[i]] = 5.0f;
  if (Phase == CAVS_PHASE_FORWARD_LAZY && F == 1 && writeOutputs &&
      c->pushes[1])
    for (int64_t i = 0; i < c->rows; ++i)
      c->pushes[1][c->vertices[i] * 4] = 7.0f;
  if (Phase == CAVS_PHASE_FORWARD_LAZY)
    *c->loss += 1.5;
  if (Phase == CAVS_PHASE_FORWARD_EAGER)
    *c->loss += 0.25;
  return CAVS_OK;
}

template <int F, bool Infer> cavs_function_desc probeFunction() {
  cavs_function_desc fn{};
  fn.name = F == 0 ? "leaf" : F == 1 ? "node" : "unused";
  fn.arity = kArities[F];
  fn.arena_floats = (Infer ? kInferArena : kTrainArena)[F];
  fn.scratch_floats = kScratch[F];
  fn.phases[0] = record<F, 0, Infer>;
  fn.phases[1] = record<F, 1, Infer>;
  // The leaf has no forward lazy ops.
  fn.phases[2] = F == 0 ? nullptr : record<F, 2, Infer>;
  if (!Infer) {
    fn.phases[3] = record<F, 3, Infer>;
    fn.phases[4] = record<F, 4, Infer>;
    fn.phases[5] = record<F, 5, Infer>;
  }
  return fn;
}

const cavs_io_desc kLeafPulls[] = {{"word", 1, 1, 0}, {"x", 0, 2, 0}};
const cavs_io_desc kNodePulls[] = {{"x", 0, 2, 0}};
const cavs_io_desc kLeafPushes[] = {{"y", 0, 1, 0}};
const cavs_io_desc kNodePushes[] = {{"y", 0, 1, 0}, {"z", 0, 4, 0}};

/// The probe's three functions of one program.
template <bool Infer> std::vector<cavs_function_desc> probeProgram() {
  std::vector<cavs_function_desc> functions = {probeFunction<0, Infer>(),
                                               probeFunction<1, Infer>(),
                                               probeFunction<2, Infer>()};
  functions[0].num_pulls = 2;
  functions[0].pulls = kLeafPulls;
  functions[0].num_pushes = 1;
  functions[0].pushes = kLeafPushes;
  functions[1].num_pulls = 1;
  functions[1].pulls = kNodePulls;
  functions[1].num_pushes = 2;
  functions[1].pushes = kNodePushes;
  return functions;
}

class InstanceCalls : public ::testing::Test {
protected:
  void SetUp() override {
    records.clear();
    writeOutputs = true;
    failFromRow = -1;
    def.version = CAVS_PROGRAM_VERSION;
    def.has_cpu = 1;
    def.state_width = 3;
    def.model = &desc;
    def.num_sparse_params = 1;
    def.sparse_params = &sparse;
    def.train = {3, train.data()};
    def.infer = {3, infer.data()};
    ASSERT_EQ(cavs_model_create(&def, 5, &model), CAVS_OK)
        << cavs_last_error_message();
  }
  void TearDown() override { cavs_model_destroy(model); }

  /// Leaf typing, trees and shared children, type 2 unused.
  GraphBatch makeBatch() {
    GraphBuilder builder({0, 2, 1});
    builder.addAttribute("word");
    builder.addSample({1, 1, 0, 0, 0}, {1, 4, 2, 3, -1, -1, -1, -1, -1, -1},
                      {{-1, -1, 3, 1, 4}});
    builder.addSample({1, 0}, {1, 1, -1, -1}, {{-1, 5}});
    builder.addSample({1, 1, 1, 0, 0}, {1, 2, 3, 4, 3, 4, -1, -1, -1, -1},
                      {{0, 0, 0, 2, 2}});
    return builder.finalize();
  }

  void checkWholeTypeCall(const Record &r, const Schedule &schedule,
                          const std::vector<float *> &arenas) {
    SCOPED_TRACE("function " + std::to_string(r.function) + " phase " +
                 std::to_string(r.phase));
    Span<const int32_t> rows = schedule.typeRows(r.function);
    EXPECT_EQ(r.call.rows, int64_t(rows.size()));
    EXPECT_EQ(r.call.arena, arenas[r.function]);
    EXPECT_EQ(r.call.arena_rows, int64_t(rows.size()));
    EXPECT_EQ(r.call.arena_row, 0);
    EXPECT_EQ(r.call.scratch, nullptr);
    // The global row of the type's first vertex (contiguous for arity 0).
    EXPECT_EQ(r.call.state_begin, rows[0]);
    EXPECT_EQ(r.call.children, nullptr);
    EXPECT_EQ(r.call.child_views, nullptr);
    for (size_t l = 0; l < rows.size(); ++l)
      EXPECT_EQ(r.vertices[l], schedule.rowVertices()[rows[l]]);
  }

  void checkTaskCall(const Record &r, const cavs_task &task,
                     const Schedule &schedule,
                     const std::vector<float *> &arenas) {
    SCOPED_TRACE("task of function " + std::to_string(task.type));
    EXPECT_EQ(r.function, task.type);
    EXPECT_EQ(r.call.rows, task.count);
    EXPECT_EQ(r.call.arena, arenas[task.type]);
    EXPECT_EQ(r.call.arena_rows,
              int64_t(schedule.typeRows(task.type).size()));
    EXPECT_EQ(r.call.arena_row, task.local_begin);
    EXPECT_EQ(r.call.state_begin, task.global_begin);
    for (int32_t k = 0; k < task.arity; ++k) {
      Span<const int32_t> slot = schedule.childRows(task, k);
      EXPECT_EQ(std::vector<int32_t>(r.children.begin() + k * task.count,
                                     r.children.begin() + (k + 1) * task.count),
                std::vector<int32_t>(slot.begin(), slot.end()));
      EXPECT_EQ(r.views[k], schedule.childView(task, k));
    }
    for (int32_t i = 0; i < task.count; ++i)
      EXPECT_EQ(r.vertices[i], schedule.rowVertices()[task.global_begin + i]);
  }

  /// The tables every call shares.
  void checkTables(const Record &r, bool backward) {
    // Read-only: taking the writable values between forward and backward
    // would count as a change and refuse backward.
    const float *values = cavs_param_store_values(params());
    const int32_t numParams = cavs_param_store_num_params(params());
    for (int32_t i = 0; i < numParams; ++i) {
      EXPECT_EQ(r.call.params[i],
                values + cavs_param_store_param(params(), i)->offset);
      EXPECT_EQ(r.call.grads[i], cavs_grad_store_param_data(grads(), i));
    }
    EXPECT_EQ(r.call.params[numParams],
              values + cavs_param_store_pack(params(), 0)->offset);
    EXPECT_EQ(r.call.grads[numParams], cavs_grad_store_pack_data(grads(), 0));
    EXPECT_EQ(r.call.grad_store, grads());
    EXPECT_NE(r.call.state, nullptr);
    EXPECT_NE(r.call.loss, nullptr);
    EXPECT_EQ(r.call.state_grad != nullptr, backward);
    EXPECT_EQ(r.call.pull_grads != nullptr, backward);
    EXPECT_EQ(r.call.push_grads != nullptr, backward);
  }

  cavs_param_store *params() { return cavs_model_params(model); }
  cavs_grad_store *grads() { return cavs_model_grads(model); }

  ModelSpec spec = tinyModel();
  cavs_model_desc desc = spec.desc();
  int32_t sparse = 0;
  std::vector<cavs_function_desc> train = probeProgram<false>();
  std::vector<cavs_function_desc> infer = probeProgram<true>();
  cavs_model_def def{};
  cavs_model *model = nullptr;
};

TEST_F(InstanceCalls, ForwardAndBackwardFollowTheSchedule) {
  const GraphBatch batch = makeBatch();
  const Schedule schedule(batch);
  const int32_t n = batch.numVertices();
  std::mt19937 rng(1);
  const std::vector<float> x = randomFloats(rng, 2 * n);
  ASSERT_EQ(cavs_model_set_input(model, "x", x.data(), 2 * n), CAVS_OK);
  double loss = 0;
  ASSERT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_TRAIN, &loss),
            CAVS_OK);
  Span<const cavs_task> tasks = schedule.tasks();
  // Eager of leaf and node (not of the unused type), the tasks, node's lazy.
  ASSERT_EQ(records.size(), 2 + tasks.size() + 1);
  EXPECT_EQ(loss, 2 * 0.25 + 1.5);
  const std::vector<float *> arenas = {records[0].call.arena,
                                       records[1].call.arena, nullptr};
  for (size_t i = 0; i < records.size(); ++i) {
    const Record &r = records[i];
    checkTables(r, /*backward=*/false);
    EXPECT_FALSE(r.infer);
    EXPECT_EQ(r.call.num_vertices, n);
    EXPECT_TRUE(r.arenaZero) << "a new arena is zeroed";
    if (i < 2) {
      EXPECT_EQ(r.function, int(i));
      EXPECT_EQ(r.phase, CAVS_PHASE_FORWARD_EAGER);
      checkWholeTypeCall(r, schedule, arenas);
    } else if (i < 2 + tasks.size()) {
      EXPECT_EQ(r.phase, CAVS_PHASE_FORWARD_BODY);
      EXPECT_NE(r.call.scratch, nullptr);
      EXPECT_EQ(r.call.scratch, records[2].call.scratch);
      checkTaskCall(r, tasks[i - 2], schedule, arenas);
    } else {
      EXPECT_EQ(r.function, 1);
      EXPECT_EQ(r.phase, CAVS_PHASE_FORWARD_LAZY);
      checkWholeTypeCall(r, schedule, arenas);
    }
  }
  // Pulls: the batch attribute itself (i32) and the set_input copy (f32).
  const Record &leaf = records[0];
  EXPECT_EQ(leaf.call.pulls[0],
            reinterpret_cast<const float *>(batch.attribute("word").data()));
  EXPECT_EQ(std::vector<float>(leaf.call.pulls[1], leaf.call.pulls[1] + 2 * n),
            x);
  EXPECT_EQ(records[1].call.pulls[0], leaf.call.pulls[1]);
  // Pushes: the output buffers, shared by name.
  int64_t width = 0;
  const float *y = cavs_model_output(model, "y", &width);
  EXPECT_EQ(width, 1);
  const float *z = cavs_model_output(model, "z", &width);
  EXPECT_EQ(width, 4);
  EXPECT_EQ(leaf.call.pushes[0], y);
  EXPECT_EQ(records[1].call.pushes[0], y);
  EXPECT_EQ(records[1].call.pushes[1], z);
  for (int32_t v = 0; v < n; ++v)
    EXPECT_EQ(z[v * 4], batch.types()[v] == 1 ? 7.0f : 0.0f);

  // Backward: eager per type, tasks in reverse, lazy per type.
  const std::vector<float> dy(n, 1.0f);
  ASSERT_EQ(cavs_model_set_output_grad(model, "y", dy.data(), n), CAVS_OK);
  records.clear();
  ASSERT_EQ(cavs_model_backward(model), CAVS_OK);
  ASSERT_EQ(records.size(), 2 + tasks.size() + 2);
  const float *dx = cavs_model_input_grad(model, "x", &width);
  EXPECT_EQ(width, 2);
  for (size_t i = 0; i < records.size(); ++i) {
    const Record &r = records[i];
    checkTables(r, /*backward=*/true);
    if (i < 2 || i >= 2 + tasks.size()) {
      EXPECT_EQ(r.phase,
                i < 2 ? CAVS_PHASE_BACKWARD_EAGER : CAVS_PHASE_BACKWARD_LAZY);
      EXPECT_EQ(r.function, int(i < 2 ? i : i - 2 - tasks.size()));
      checkWholeTypeCall(r, schedule, arenas);
    } else {
      EXPECT_EQ(r.phase, CAVS_PHASE_BACKWARD_BODY);
      checkTaskCall(r, tasks[tasks.size() - 1 - (i - 2)], schedule, arenas);
    }
    if (r.function == 0) {
      EXPECT_EQ(r.call.pull_grads[0], nullptr) << "i32 inputs have none";
      EXPECT_EQ(r.call.pull_grads[1], dx);
      EXPECT_NE(r.call.push_grads[0], nullptr);
    } else {
      EXPECT_EQ(r.call.pull_grads[0], dx);
      EXPECT_NE(r.call.push_grads[0], nullptr);
      EXPECT_EQ(r.call.push_grads[1], nullptr) << "z has no gradient";
    }
  }
  EXPECT_EQ(std::vector<float>(records[0].call.push_grads[0],
                               records[0].call.push_grads[0] + n),
            dy);
}

// Tests row-local bodies (cavs_function_desc::row_local) on 2 threads: a
// node task of 12 or 14 rows runs its forward and backward body as two calls
// over consecutive rows, cut between blocks of 4, each the task's call moved to
// its first row, its children repacked; tasks of a block run whole. With a
// vertex of two parents in the batch (whose two parents, in one task, would
// add into its gradient row at once) the backward bodies run whole.
TEST_F(InstanceCalls, RowLocalBodiesRunAsCallsOverConsecutiveRows) {
  cavs_model_destroy(model);
  for (int phase : {CAVS_PHASE_FORWARD_BODY, CAVS_PHASE_BACKWARD_BODY}) {
    train[1].row_local[phase] = 1;
    // Within the runtime's limit for a split (kMaxRowSplitFlops, 2^19):
    // enough work per row to split from 5 rows on.
    train[1].flops[phase] = 500000;
  }
  ASSERT_EQ(cavs_model_create(&def, 5, &model), CAVS_OK);
  const int32_t threads = cavs_num_threads();
  ASSERT_EQ(cavs_set_num_threads(2), CAVS_OK);
  for (bool sharedChild : {false, true}) {
    SCOPED_TRACE(sharedChild ? "a vertex with two parents" : "trees");
    GraphBuilder builder({0, 2, 1});
    builder.addAttribute("word");
    for (int s = 0; s < 12; ++s)
      builder.addSample({1, 0, 0}, {1, 2, -1, -1, -1, -1}, {{-1, 1, 2}});
    // Nodes 1 and 2 share both children.
    if (sharedChild)
      builder.addSample({1, 1, 1, 0, 0}, {1, 2, 3, 4, 3, 4, -1, -1, -1, -1},
                        {{-1, -1, -1, 3, 4}});
    const GraphBatch batch = builder.finalize();
    const Schedule schedule(batch);
    const int32_t n = batch.numVertices();
    const std::vector<float> x(2 * n, 0.5f);
    ASSERT_EQ(cavs_model_set_input(model, "x", x.data(), 2 * n), CAVS_OK);
    records.clear();
    double loss = 0;
    ASSERT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_TRAIN, &loss),
              CAVS_OK);
    std::vector<Record> forward = std::move(records);
    records.clear();
    ASSERT_EQ(cavs_model_backward(model), CAVS_OK);
    for (const std::vector<Record> *pass : {&forward, &records}) {
      const bool backward = pass == &records;
      const int phase =
          backward ? CAVS_PHASE_BACKWARD_BODY : CAVS_PHASE_FORWARD_BODY;
      SCOPED_TRACE(backward ? "backward" : "forward");
      const float *arena = nullptr;
      for (const Record &r : *pass)
        if (r.function == 1 && r.phase == phase - 1)
          arena = r.call.arena; // the node's whole-type eager call
      ASSERT_NE(arena, nullptr);
      for (const cavs_task &task : schedule.tasks()) {
        if (task.type != 1)
          continue;
        std::vector<const Record *> parts;
        for (const Record &r : *pass)
          if (r.function == 1 && r.phase == phase &&
              r.call.state_begin >= task.global_begin &&
              r.call.state_begin < task.global_begin + task.count)
            parts.push_back(&r);
        std::sort(parts.begin(), parts.end(), [](auto *a, auto *b) {
          return a->call.state_begin < b->call.state_begin;
        });
        // Blocks of 4 rows, the last taking the rest: two from 8 rows on.
        const bool split = task.count >= 8 && !(backward && sharedChild);
        ASSERT_EQ(parts.size(), split ? 2u : 1u) << "task of " << task.count;
        int64_t first = 0;
        for (const Record *part : parts) {
          const cavs_call &c = part->call;
          EXPECT_EQ(c.state_begin, task.global_begin + first);
          // The first call takes half the blocks, rounded down (the pool's
          // cut, support/ThreadPool.h): 1 of 3, 2 of 4.
          const int64_t firstRows = 4 * (task.count / 4 / 2);
          EXPECT_EQ(c.rows, parts.size() == 1 ? task.count
                            : first == 0      ? firstRows
                                              : task.count - firstRows);
          EXPECT_EQ(c.arena, arena);
          EXPECT_EQ(c.arena_row, task.local_begin + first);
          EXPECT_EQ(c.scratch, parts[0]->call.scratch + first * kScratch[1]);
          for (int32_t k = 0; k < 2; ++k) {
            Span<const int32_t> slot = schedule.childRows(task, k);
            EXPECT_EQ(
                std::vector<int32_t>(part->children.begin() + k * c.rows,
                                     part->children.begin() + (k + 1) * c.rows),
                std::vector<int32_t>(slot.begin() + first,
                                     slot.begin() + first + c.rows));
            const int32_t view = schedule.childView(task, k);
            EXPECT_EQ(part->views[k], view < 0 ? view : view + first);
          }
          for (int64_t i = 0; i < c.rows; ++i)
            EXPECT_EQ(part->vertices[i],
                      schedule.rowVertices()[task.global_begin + first + i]);
          first += c.rows;
        }
        EXPECT_EQ(first, task.count);
      }
    }
  }
  ASSERT_EQ(cavs_set_num_threads(threads), CAVS_OK);
}

// Tests that a part of a split body that fails, likely on the other thread,
// fails the pass with its own message.
TEST_F(InstanceCalls, AFailedPartOfASplitBodyReportsItsMessage) {
  cavs_model_destroy(model);
  train[1].row_local[CAVS_PHASE_FORWARD_BODY] = 1;
  train[1].flops[CAVS_PHASE_FORWARD_BODY] = 500000;
  ASSERT_EQ(cavs_model_create(&def, 5, &model), CAVS_OK);
  const int32_t threads = cavs_num_threads();
  ASSERT_EQ(cavs_set_num_threads(2), CAVS_OK);
  GraphBuilder builder({0, 2, 1});
  builder.addAttribute("word");
  for (int s = 0; s < 12; ++s)
    builder.addSample({1, 0, 0}, {1, 2, -1, -1, -1, -1}, {{-1, 1, 2}});
  const GraphBatch batch = builder.finalize();
  const Schedule schedule(batch);
  const cavs_task *nodes = nullptr;
  for (const cavs_task &task : schedule.tasks())
    if (task.type == 1)
      nodes = &task;
  ASSERT_NE(nodes, nullptr);
  ASSERT_EQ(nodes->count, 12);
  // The second call (rows 4-11) fails, the first succeeds.
  failFromRow = nodes->global_begin + 1;
  const std::vector<float> x(2 * batch.numVertices(), 0.5f);
  ASSERT_EQ(cavs_model_set_input(model, "x", x.data(), int64_t(x.size())),
            CAVS_OK);
  double loss = 0;
  EXPECT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_TRAIN, &loss),
            CAVS_ERROR_INVALID_ARGUMENT);
  const std::string message = cavs_last_error_message();
  EXPECT_NE(message.find("vertex function 'node', forward body phase: "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("must be in [1, 4096]"), std::string::npos)
      << message;
  ASSERT_EQ(cavs_set_num_threads(threads), CAVS_OK);
}

TEST_F(InstanceCalls, InferModeUsesTheInferProgramAndClearsOutputs) {
  const GraphBatch batch = makeBatch();
  const Schedule schedule(batch);
  const int32_t n = batch.numVertices();
  const std::vector<float> x(2 * n, 1.0f);
  ASSERT_EQ(cavs_model_set_input(model, "x", x.data(), 2 * n), CAVS_OK);
  ASSERT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_TRAIN, nullptr),
            CAVS_OK);
  records.clear();
  writeOutputs = false;
  ASSERT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_INFER, nullptr),
            CAVS_OK);
  const std::vector<float *> arenas = {records[0].call.arena,
                                       records[1].call.arena, nullptr};
  Span<const cavs_task> tasks = schedule.tasks();
  ASSERT_EQ(records.size(), 2 + tasks.size() + 1);
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_TRUE(records[i].infer);
    if (i >= 2 && i < 2 + tasks.size())
      checkTaskCall(records[i], tasks[i - 2], schedule, arenas);
  }
  // z, which the leaves do not push, was zeroed, and nothing wrote it this
  // time. y, which every vertex's function pushes, was not cleared first
  // (a pass writes all its rows), so the probes left the last pass's values.
  const float *z = cavs_model_output(model, "z", nullptr);
  EXPECT_TRUE(std::all_of(z, z + 4 * n, [](float v) { return v == 0.0f; }));
  const float *y = cavs_model_output(model, "y", nullptr);
  EXPECT_TRUE(std::all_of(y, y + n, [](float v) { return v == 5.0f; }));
}

TEST_F(InstanceCalls, DisabledOutputsAreNotWritten) {
  const GraphBatch batch = makeBatch();
  const int32_t n = batch.numVertices();
  const std::vector<float> x(2 * n, 1.0f);
  ASSERT_EQ(cavs_model_set_input(model, "x", x.data(), 2 * n), CAVS_OK);
  ASSERT_EQ(cavs_model_set_output_enabled(model, "z", 0), CAVS_OK);
  EXPECT_EQ(cavs_model_set_output_enabled(model, "w", 0),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cavs_last_error_message()).find("no output 'w'"),
            std::string::npos);
  ASSERT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_TRAIN, nullptr),
            CAVS_OK);
  // The pushes of z get no destination; y's are unchanged.
  const float *y = cavs_model_output(model, "y", nullptr);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(records[0].call.pushes[0], y);
  EXPECT_EQ(records[1].call.pushes[0], y);
  EXPECT_EQ(records[1].call.pushes[1], nullptr);
  int64_t width = -1;
  EXPECT_EQ(cavs_model_output(model, "z", &width), nullptr);
  EXPECT_EQ(width, 0);
  EXPECT_NE(std::string(cavs_last_error_message()).find("disabled"),
            std::string::npos);
  // Its gradient can still be given.
  const std::vector<float> dz(4 * n, 1.0f);
  EXPECT_EQ(cavs_model_set_output_grad(model, "z", dz.data(), 4 * n), CAVS_OK);
  ASSERT_EQ(cavs_model_backward(model), CAVS_OK);
  // Enabled again: the next pass writes it.
  ASSERT_EQ(cavs_model_set_output_enabled(model, "z", 1), CAVS_OK);
  EXPECT_EQ(cavs_model_output(model, "z", nullptr), nullptr)
      << "the last pass did not write it";
  records.clear();
  ASSERT_EQ(cavs_model_forward(model, batch.get(), CAVS_MODE_TRAIN, nullptr),
            CAVS_OK);
  const float *z = cavs_model_output(model, "z", nullptr);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(records[1].call.pushes[1], z);
  for (int32_t v = 0; v < n; ++v)
    EXPECT_EQ(z[v * 4], batch.types()[v] == 1 ? 7.0f : 0.0f);
}

// Tests that an instance's gradient store tracks the rows of its lookup
// tables only: tracking a dense gradient there, which the backward pass
// writes whole and marks nowhere, would have left it out of every step.
TEST_F(InstanceCalls, GradientsTrackOnlyTheLookupTablesRows) {
  EXPECT_EQ(cavs_grad_store_tracks_rows(grads(), 0), 1);
  EXPECT_EQ(cavs_grad_store_track_rows(grads(), 0), CAVS_OK);
  EXPECT_EQ(cavs_grad_store_track_rows(grads(), 1),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(cavs_last_error_message()),
            "parameter 'W_iou' has a dense gradient in this model instance: "
            "its backward pass writes every row and marks none, so a step "
            "would update none (the instance tracks the rows of its lookup "
            "tables itself)");
  EXPECT_EQ(cavs_grad_store_tracks_rows(grads(), 1), 0);
  // A store of one's own tracks what it is told to.
  cavs_grad_store *own = nullptr;
  ASSERT_EQ(cavs_grad_store_create(params(), &own), CAVS_OK);
  EXPECT_EQ(cavs_grad_store_track_rows(own, 1), CAVS_OK);
  cavs_grad_store_destroy(own);
}

} // namespace
} // namespace cavs::test
