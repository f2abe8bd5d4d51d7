//===- schedule.h - batching schedules of the cavs C ABI ------------------===//
//
// A schedule cuts a graph batch into batched tasks: each task runs one
// vertex function over vertices whose children have all been evaluated
// (absent children count as evaluated). Two policies:
//  * CAVS_SCHEDULE_LEVELS (Cavs, the default): at each step every ready
//    vertex, one task per type. A vertex runs at level height(v) (0 for
//    vertices without children, else 1 + the largest level of its
//    children), the fewest levels possible, and the tasks of one level are
//    independent.
//  * CAVS_SCHEDULE_FEWEST_TASKS: where a level holds several types, also try
//    running at each step only the ready vertices of the type with the most
//    of them (the others wait and batch up, as ED-Batch observes), and keep
//    whichever order has fewer tasks.
// Forward runs the tasks in order; backward replays them in reverse, so a
// vertex's gradient is complete (all parents done) when its task comes up.
//
// Memory layout for the executor:
//  * global rows: every vertex gets one row of the shared state buffer (all
//    types share one state type); rows are ordered by task, so task t covers
//    rows [global_begin, global_begin + count);
//  * local rows: the vertices of each type, again ordered by task, index that
//    type's own arena, so task t covers [local_begin, local_begin + count) of
//    its type's arena and an eager op can run once over a whole arena;
//  * inside a task, vertices are in increasing vertex id.
//
// Building a schedule is linear in vertices plus child slots and allocates
// only whole arrays. The schedule keeps no reference to the batch.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_SCHEDULE_H
#define CAVS_SCHEDULE_H

#include "cavs/graph.h"

CAVS_EXTERN_C_BEGIN

/// An immutable schedule; safe to read from several threads.
typedef struct cavs_schedule cavs_schedule;

/// Which vertices the tasks take (see above).
typedef enum cavs_schedule_policy {
  CAVS_SCHEDULE_LEVELS = 0,
  CAVS_SCHEDULE_FEWEST_TASKS = 1,
  /// Not a policy: makes the enum 32 bits wide, so that any int a caller
  /// passes is a value the runtime can check and reject.
  CAVS_SCHEDULE_POLICY_FORCE_INT32 = 0x7fffffff,
} cavs_schedule_policy;

/// One batched task: ready vertices of one type.
typedef struct cavs_task {
  /// Vertex-function type of every vertex of the task.
  int32_t type;
  /// Batching step: with levels, the level (0 for vertices without
  /// children), tasks sorted by level, then type; in the greedy order of
  /// CAVS_SCHEDULE_FEWEST_TASKS, the task's index.
  int32_t level;
  /// Number of vertices.
  int32_t count;
  /// First row of the task in the shared state buffer.
  int32_t global_begin;
  /// First row of the task in its type's arena.
  int32_t local_begin;
  /// Child slots per vertex (the arity of `type`).
  int32_t arity;
  /// Offset of the task's count * arity entries in
  /// cavs_schedule_children_rows, slot-major: entry
  /// [children_begin + k * count + i] is the global row of child slot k of
  /// the task's vertex i, or CAVS_NO_CHILD.
  int32_t children_begin;
  /// Offset of the task's `arity` entries in cavs_schedule_child_views.
  int32_t views_begin;
} cavs_task;

/// Schedules `batch` with CAVS_SCHEDULE_LEVELS.
CAVS_API cavs_status cavs_schedule_create(const cavs_graph_batch *batch,
                                          cavs_schedule **out_schedule);
/// Schedules `batch` with `policy`; CAVS_ERROR_INVALID_ARGUMENT for a value
/// that is no policy.
CAVS_API cavs_status cavs_schedule_create_with_policy(
    const cavs_graph_batch *batch, cavs_schedule_policy policy,
    cavs_schedule **out_schedule);

/// Destroys a schedule; NULL is ignored.
CAVS_API void cavs_schedule_destroy(cavs_schedule *schedule);

// Accessors never fail: on a NULL schedule (or an out-of-range type) they
// return 0 or NULL. Arrays live as long as the schedule.

/// Number of tasks.
CAVS_API int32_t cavs_schedule_num_tasks(const cavs_schedule *schedule);
/// The tasks in execution order.
CAVS_API const cavs_task *cavs_schedule_tasks(const cavs_schedule *schedule);
/// Number of levels: the depth of the batch (the longest leaf-to-root path,
/// in vertices, over all samples), a lower bound on the number of tasks that
/// the level schedule reaches exactly when every level holds a single type.
CAVS_API int32_t cavs_schedule_num_levels(const cavs_schedule *schedule);
/// Number of vertices (= global rows).
CAVS_API int32_t cavs_schedule_num_rows(const cavs_schedule *schedule);
/// Number of vertex-function types.
CAVS_API int32_t cavs_schedule_num_types(const cavs_schedule *schedule);

/// Children rows of all tasks (see cavs_task::children_begin); as many
/// entries as the batch has child slots.
CAVS_API const int32_t *
cavs_schedule_children_rows(const cavs_schedule *schedule);
/// For each task and child slot k (see cavs_task::views_begin): the global
/// row r of the first vertex's child when the rows of slot k are exactly
/// r, r + 1, ..., r + count - 1 (so gather(k) can be a view of the state
/// buffer instead of a copy), and -1 otherwise (some row out of order or an
/// absent child).
CAVS_API const int32_t *
cavs_schedule_child_views(const cavs_schedule *schedule);

/// vertex_rows[v]: global row of vertex v.
CAVS_API const int32_t *
cavs_schedule_vertex_rows(const cavs_schedule *schedule);
/// row_vertices[r]: vertex at global row r.
CAVS_API const int32_t *
cavs_schedule_row_vertices(const cavs_schedule *schedule);
/// local_rows[v]: row of vertex v in the arena of its type.
CAVS_API const int32_t *cavs_schedule_local_rows(const cavs_schedule *schedule);
/// row_parent_counts[r]: the batch's parent count of the vertex at global row
/// r, in row order so the backward pass needs no indirection (1: the
/// gradient can be written; > 1: it is a sum over parents; 0: a root).
CAVS_API const int32_t *
cavs_schedule_row_parent_counts(const cavs_schedule *schedule);
/// Number of vertices of `type` (the size of its arena).
CAVS_API int32_t cavs_schedule_type_num_rows(const cavs_schedule *schedule,
                                             int32_t type);
/// type_rows[l]: global row of local row l of `type`.
CAVS_API const int32_t *cavs_schedule_type_rows(const cavs_schedule *schedule,
                                                int32_t type);

CAVS_EXTERN_C_END

#endif // CAVS_SCHEDULE_H
