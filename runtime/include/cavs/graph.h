//===- graph.h - input graph batches of the cavs C ABI --------------------===//
//
// A graph batch holds the input graphs of many samples (trees, chains, DAGs)
// in one immutable CSR structure. Each vertex has a vertex-function type
// (a small integer), a fixed number of ordered child slots given by the arity
// of its type (an absent child is CAVS_NO_CHILD), the sample it belongs to and
// optional named int32 attributes (per-vertex external inputs such as word
// ids or labels that the model reads with pull).
//
// Batches are made with a builder: create it with the arity of every type,
// append samples (each is validated on the spot, so a rejected sample leaves
// the builder unchanged), then finalize. Vertex ids are global: sample s owns
// the contiguous range [sample_offsets[s], sample_offsets[s + 1]), in the
// order its samples were added. All sizes are int32 and checked for overflow.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_GRAPH_H
#define CAVS_GRAPH_H

#include "cavs/status.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// The child index of an absent child, in every child array of the ABI.
#define CAVS_NO_CHILD (-1)

/// The largest arity a vertex-function type may have. Builder input is dense
/// (max arity slots per vertex), so this bounds its size per vertex.
#define CAVS_MAX_ARITY 4096

/// Accumulates validated samples; not thread-safe.
typedef struct cavs_graph_builder cavs_graph_builder;
/// An immutable batch of input graphs; safe to read from several threads.
typedef struct cavs_graph_batch cavs_graph_batch;

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

/// Creates a builder for graphs with `num_types` >= 1 vertex-function types,
/// type t having `arities[t]` child slots, in [0, CAVS_MAX_ARITY].
CAVS_API cavs_status
cavs_graph_builder_create(int32_t num_types, const int32_t *arities,
                          cavs_graph_builder **out_builder);

/// Destroys a builder; NULL is ignored.
CAVS_API void cavs_graph_builder_destroy(cavs_graph_builder *builder);

/// Declares a per-vertex int32 attribute named `name` (non-empty, unique) and
/// returns its index. Attributes must be declared before the first sample.
CAVS_API cavs_status cavs_graph_builder_add_attribute(
    cavs_graph_builder *builder, const char *name, int32_t *out_index);

/// Reserves room for `num_vertices` more vertices in `num_samples` more
/// samples, so that adding them does not reallocate. Fails with
/// CAVS_ERROR_INVALID_GRAPH when the batch would pass the int32 limit.
CAVS_API cavs_status cavs_graph_builder_reserve(cavs_graph_builder *builder,
                                                int64_t num_vertices,
                                                int64_t num_samples);

/// Validates and appends one sample of `num_vertices` vertices.
///   types[v]                    type of vertex v, v in [0, num_vertices)
///   children[v * max_arity + k] child in slot k of vertex v, as an index
///                               into this sample, or CAVS_NO_CHILD; max_arity
///                               is the largest arity of all types, and slots
///                               at or past the arity of v's type must be
///                               CAVS_NO_CHILD. May be NULL when max_arity is
///                               0.
///   attributes[a][v]            value of attribute a at vertex v (one array
///                               per declared attribute; NULL when none)
/// Fails with CAVS_ERROR_INVALID_GRAPH, naming the sample index and vertex,
/// for an empty sample, an unknown type, a child index out of range, a self
/// reference, a child in a slot past the type's arity, a cycle, or a batch
/// that would exceed int32 sizes. Validation is linear and iterative.
CAVS_API cavs_status cavs_graph_builder_add_sample(
    cavs_graph_builder *builder, int32_t num_vertices, const int32_t *types,
    const int32_t *children, const int32_t *const *attributes);

/// Builds the batch from the samples added so far and empties the builder
/// (its types and attributes stay, so it can build the next batch). Fails
/// with CAVS_ERROR_INVALID_GRAPH when no sample was added.
CAVS_API cavs_status cavs_graph_builder_finalize(cavs_graph_builder *builder,
                                                 cavs_graph_batch **out_batch);

//===----------------------------------------------------------------------===//
// Batch queries
//
// Accessors never fail: on a NULL batch they return 0 or NULL. The returned
// arrays live as long as the batch.
//===----------------------------------------------------------------------===//

/// Destroys a batch; NULL is ignored.
CAVS_API void cavs_graph_batch_destroy(cavs_graph_batch *batch);

/// Number of vertices over all samples.
CAVS_API int32_t cavs_graph_batch_num_vertices(const cavs_graph_batch *batch);
/// Number of samples (at least 1).
CAVS_API int32_t cavs_graph_batch_num_samples(const cavs_graph_batch *batch);
/// Number of vertex-function types.
CAVS_API int32_t cavs_graph_batch_num_types(const cavs_graph_batch *batch);
/// Arity of `type`, or -1 when `type` is out of range.
CAVS_API int32_t cavs_graph_batch_type_arity(const cavs_graph_batch *batch,
                                             int32_t type);
/// Largest arity over all types.
CAVS_API int32_t cavs_graph_batch_max_arity(const cavs_graph_batch *batch);

/// types[v]: type of vertex v; num_vertices entries.
CAVS_API const int32_t *cavs_graph_batch_types(const cavs_graph_batch *batch);
/// child_offsets[v]: first child slot of v in cavs_graph_batch_children;
/// num_vertices + 1 entries, child_offsets[v + 1] - child_offsets[v] is the
/// arity of v's type.
CAVS_API const int32_t *
cavs_graph_batch_child_offsets(const cavs_graph_batch *batch);
/// Children of all vertices as global vertex ids (CAVS_NO_CHILD if absent),
/// in slot order; child_offsets[num_vertices] entries.
CAVS_API const int32_t *
cavs_graph_batch_children(const cavs_graph_batch *batch);
/// sample_offsets[s]: first vertex of sample s; num_samples + 1 entries.
CAVS_API const int32_t *
cavs_graph_batch_sample_offsets(const cavs_graph_batch *batch);
/// vertex_samples[v]: sample of vertex v; num_vertices entries.
CAVS_API const int32_t *
cavs_graph_batch_vertex_samples(const cavs_graph_batch *batch);
/// parent_counts[v]: number of child slots, over all vertices, that refer to
/// v (a DAG vertex gathered by several parents sums their gradients);
/// num_vertices entries.
CAVS_API const int32_t *
cavs_graph_batch_parent_counts(const cavs_graph_batch *batch);
/// Number of roots (vertices no child slot refers to).
CAVS_API int32_t cavs_graph_batch_num_roots(const cavs_graph_batch *batch);
/// The roots in increasing vertex id (hence grouped by sample).
CAVS_API const int32_t *cavs_graph_batch_roots(const cavs_graph_batch *batch);

/// Number of per-vertex attributes.
CAVS_API int32_t cavs_graph_batch_num_attributes(const cavs_graph_batch *batch);
/// Name of attribute `index`, or NULL when out of range.
CAVS_API const char *
cavs_graph_batch_attribute_name(const cavs_graph_batch *batch, int32_t index);
/// Index of the attribute called `name`, or -1 when there is none.
CAVS_API int32_t cavs_graph_batch_find_attribute(const cavs_graph_batch *batch,
                                                 const char *name);
/// Values of attribute `index` (num_vertices entries), or NULL when out of
/// range.
CAVS_API const int32_t *
cavs_graph_batch_attribute(const cavs_graph_batch *batch, int32_t index);

CAVS_EXTERN_C_END

#endif // CAVS_GRAPH_H
