//===- ParentsLoader.cpp - Tree-LSTM parent arrays ------------------------===//
//
// Two passes: the first parses and range-checks every line (so errors point
// at a column) and finds the largest child count, which is the arity when the
// caller asks for it to be inferred; the second turns each parent array into
// child slots, filled in increasing vertex order, and appends it. Cycles are
// left to the builder's validation, whose message gets the line prefixed.
//
//===----------------------------------------------------------------------===//
#include "graph/Loaders.h"

#include "graph/TextFile.h"
#include "support/Excerpt.h"

#include <algorithm>

namespace cavs::runtime {

namespace {

/// Every parent array of a file, concatenated.
struct ParentArrays {
  std::vector<int32_t> parents;     // 1-based, 0 for a root
  std::vector<size_t> sampleBegins; // into parents, plus the end
  std::vector<int64_t> sampleLines; // line of each sample
  int32_t maxChildren = 0;
};

/// Parses the line into `arrays`. `childCounts` is scratch; `arity` > 0
/// bounds the children per vertex.
Status parseLine(const TextFile &file, std::string_view line, int32_t arity,
                 std::vector<int64_t> &columns,
                 std::vector<int32_t> &childCounts, ParentArrays &arrays) {
  const size_t begin = arrays.parents.size();
  columns.clear();
  Tokens tokens(line);
  std::string_view token;
  while (tokens.next(token)) {
    int32_t parent;
    if (!parseInt32(token, parent))
      return file.errorAt(tokens.column(token),
                          "'{}' is not a parent index (an integer, 0 for a "
                          "root)",
                          excerpt(token));
    arrays.parents.push_back(parent);
    columns.push_back(tokens.column(token));
  }
  const auto n = static_cast<int32_t>(arrays.parents.size() - begin);
  if (n == 0)
    return file.error("blank line; expected a parent array");

  childCounts.assign(n, 0);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t parent = arrays.parents[begin + i];
    if (parent < 0 || parent > n)
      return file.errorAt(columns[i],
                          "parent {} of vertex {} is outside [0, {}] (1-based "
                          "vertices, 0 for a root)",
                          parent, i + 1, n);
    if (parent == i + 1)
      return file.errorAt(columns[i], "vertex {} is its own parent", i + 1);
    if (parent == 0)
      continue;
    const int32_t count = ++childCounts[parent - 1];
    if (arity > 0 && count > arity)
      return file.errorAt(columns[i],
                          "vertex {} would be child {} of vertex {}, more "
                          "than the arity {}",
                          i + 1, count, parent, arity);
    // An inferred arity has the runtime's bound (it failed later, with no
    // line, as an invalid argument).
    if (count > CAVS_MAX_ARITY)
      return file.errorAt(columns[i],
                          "vertex {} would be child {} of vertex {}, more "
                          "than the largest arity, {}",
                          i + 1, count, parent, CAVS_MAX_ARITY);
    arrays.maxChildren = std::max(arrays.maxChildren, count);
  }
  arrays.sampleBegins.push_back(begin);
  arrays.sampleLines.push_back(file.lineNumber());
  return Status();
}

} // namespace

Status loadParentArrays(const std::string &path, int32_t arity,
                        cavs_tree_typing typing, GraphBatch &out) {
  if (arity < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "arity {} is negative (0 infers it)", arity);
  TextFile file;
  CAVS_RETURN_IF_ERROR(TextFile::read(path, "parent arrays", file));

  ParentArrays arrays;
  std::vector<int64_t> columns;
  std::vector<int32_t> counts;
  std::string_view line;
  while (file.nextLine(line))
    CAVS_RETURN_IF_ERROR(parseLine(file, line, arity, columns, counts, arrays));
  arrays.sampleBegins.push_back(arrays.parents.size());

  TreeTypes treeTypes;
  GraphBuilder builder;
  const int32_t slots = arity > 0 ? arity : arrays.maxChildren;
  CAVS_RETURN_IF_ERROR(TreeTypes::create(typing, slots, treeTypes));
  CAVS_RETURN_IF_ERROR(GraphBuilder::create(treeTypes.arities(), builder)
                           .withPrefix(path + ": "));
  CAVS_RETURN_IF_ERROR(
      builder
          .reserve(static_cast<int64_t>(arrays.parents.size()),
                   static_cast<int64_t>(arrays.sampleLines.size()))
          .withPrefix(path + ": "));

  std::vector<int32_t> types, children;
  for (size_t s = 0; s < arrays.sampleLines.size(); ++s) {
    const int32_t *parents = arrays.parents.data() + arrays.sampleBegins[s];
    const auto n = static_cast<int32_t>(arrays.sampleBegins[s + 1] -
                                        arrays.sampleBegins[s]);
    // counts[v] doubles as the next free slot of v while children are placed.
    counts.assign(n, 0);
    children.assign(size_t(n) * slots, -1);
    for (int32_t i = 0; i < n; ++i)
      if (const int32_t parent = parents[i] - 1; parent >= 0)
        children[size_t(parent) * slots + counts[parent]++] = i;
    types.resize(n);
    for (int32_t v = 0; v < n; ++v)
      types[v] = treeTypes.typeOf(counts[v] > 0);
    if (Status st = builder.addSample(n, types.data(), children.data(),
                                      /*attributes=*/nullptr);
        !st.ok())
      return std::move(st).withPrefix(file.lineLocation(arrays.sampleLines[s]));
  }
  return builder.finalize(out).withPrefix(path + ": ");
}

} // namespace cavs::runtime
