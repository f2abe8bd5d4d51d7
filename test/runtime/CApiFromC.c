//===- CApiFromC.c - the public headers used from strict C99 --------------===//
//
// Compiled as C99 with -pedantic-errors, so any C++ that slips into the
// public headers breaks the build; GraphBuilderTest calls the function.
//
//===----------------------------------------------------------------------===//
#include "cavs/runtime.h"

#include <stddef.h>

/// Builds ((a b) c) with a leaf and an internal type through the C ABI and
/// returns its number of tasks, or -1 on any failure.
int cavsTestScheduleFromC(void) {
  const int32_t arities[] = {0, 2};
  const int32_t types[] = {1, 1, 0, 0, 0};
  const int32_t children[] = {1, 4, 2, 3, -1, -1, -1, -1, -1, -1};
  const int32_t words[] = {-1, -1, 7, 8, 9};
  const int32_t *attributes[] = {words};
  cavs_graph_builder *builder = NULL;
  cavs_graph_batch *batch = NULL;
  cavs_schedule *schedule = NULL;
  int32_t index = -1;
  int result = -1;
  if (cavs_graph_builder_create(2, arities, &builder) == CAVS_OK &&
      cavs_graph_builder_add_attribute(builder, "word", &index) == CAVS_OK &&
      cavs_graph_builder_add_sample(builder, 5, types, children, attributes) ==
          CAVS_OK &&
      cavs_graph_builder_finalize(builder, &batch) == CAVS_OK &&
      cavs_schedule_create(batch, &schedule) == CAVS_OK)
    result = cavs_schedule_num_tasks(schedule);
  cavs_schedule_destroy(schedule);
  cavs_graph_batch_destroy(batch);
  cavs_graph_builder_destroy(builder);
  return result;
}
