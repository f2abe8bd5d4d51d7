//===- GraphApi.cpp - C ABI of graph builders and batches -----------------===//
//
// Thin adapters from cavs/graph.h onto GraphBuilder and GraphBatch: argument
// checks, handle allocation and the guard() boundary; accessors are NULL-safe.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/graph.h"
#include "support/Guard.h"

#include <memory>

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_graph_builder_create(int32_t num_types, const int32_t *arities,
                                      cavs_graph_builder **out_builder) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_builder, "out_builder"));
    if (num_types < 1)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "a graph needs at least one vertex type, not {}",
                       num_types);
    CAVS_RETURN_IF_ERROR(requireNonNull(arities, "arities"));
    auto handle = std::make_unique<cavs_graph_builder>();
    CAVS_RETURN_IF_ERROR(GraphBuilder::create(
        std::vector<int32_t>(arities, arities + num_types), handle->impl));
    *out_builder = handle.release();
    return Status();
  });
}

void cavs_graph_builder_destroy(cavs_graph_builder *builder) { delete builder; }

cavs_status cavs_graph_builder_add_attribute(cavs_graph_builder *builder,
                                             const char *name,
                                             int32_t *out_index) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(builder, "builder"));
    CAVS_RETURN_IF_ERROR(requireNonNull(name, "name"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_index, "out_index"));
    return builder->impl.addAttribute(name, *out_index);
  });
}

cavs_status cavs_graph_builder_reserve(cavs_graph_builder *builder,
                                       int64_t num_vertices,
                                       int64_t num_samples) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(builder, "builder"));
    return builder->impl.reserve(num_vertices, num_samples);
  });
}

cavs_status cavs_graph_builder_add_sample(cavs_graph_builder *builder,
                                          int32_t num_vertices,
                                          const int32_t *types,
                                          const int32_t *children,
                                          const int32_t *const *attributes) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(builder, "builder"));
    return builder->impl.addSample(num_vertices, types, children, attributes);
  });
}

cavs_status cavs_graph_builder_finalize(cavs_graph_builder *builder,
                                        cavs_graph_batch **out_batch) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(builder, "builder"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_batch, "out_batch"));
    auto handle = std::make_unique<cavs_graph_batch>();
    CAVS_RETURN_IF_ERROR(builder->impl.finalize(handle->impl));
    *out_batch = handle.release();
    return Status();
  });
}

void cavs_graph_batch_destroy(cavs_graph_batch *batch) { delete batch; }

int32_t cavs_graph_batch_num_vertices(const cavs_graph_batch *batch) {
  return batch ? batch->impl.numVertices() : 0;
}

int32_t cavs_graph_batch_num_samples(const cavs_graph_batch *batch) {
  return batch ? batch->impl.numSamples() : 0;
}

int32_t cavs_graph_batch_num_types(const cavs_graph_batch *batch) {
  return batch ? batch->impl.numTypes() : 0;
}

int32_t cavs_graph_batch_type_arity(const cavs_graph_batch *batch,
                                    int32_t type) {
  if (!batch || type < 0 || type >= batch->impl.numTypes())
    return -1;
  return batch->impl.arities[type];
}

int32_t cavs_graph_batch_max_arity(const cavs_graph_batch *batch) {
  return batch ? batch->impl.maxArity : 0;
}

const int32_t *cavs_graph_batch_types(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::types);
}

const int32_t *cavs_graph_batch_child_offsets(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::childOffsets);
}

const int32_t *cavs_graph_batch_children(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::children);
}

const int32_t *cavs_graph_batch_sample_offsets(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::sampleOffsets);
}

const int32_t *cavs_graph_batch_vertex_samples(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::vertexSamples);
}

const int32_t *cavs_graph_batch_parent_counts(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::parentCounts);
}

int32_t cavs_graph_batch_num_roots(const cavs_graph_batch *batch) {
  return batch ? static_cast<int32_t>(batch->impl.roots.size()) : 0;
}

const int32_t *cavs_graph_batch_roots(const cavs_graph_batch *batch) {
  return arrayOf(batch, &GraphBatch::roots);
}

int32_t cavs_graph_batch_num_attributes(const cavs_graph_batch *batch) {
  return batch ? static_cast<int32_t>(batch->impl.attributes.size()) : 0;
}

const char *cavs_graph_batch_attribute_name(const cavs_graph_batch *batch,
                                            int32_t index) {
  if (index < 0 || index >= cavs_graph_batch_num_attributes(batch))
    return nullptr;
  return batch->impl.attributes[index].name.c_str();
}

int32_t cavs_graph_batch_find_attribute(const cavs_graph_batch *batch,
                                        const char *name) {
  return batch && name ? batch->impl.findAttribute(name) : -1;
}

const int32_t *cavs_graph_batch_attribute(const cavs_graph_batch *batch,
                                          int32_t index) {
  if (index < 0 || index >= cavs_graph_batch_num_attributes(batch))
    return nullptr;
  return batch->impl.attributes[index].values.data();
}

} // extern "C"
