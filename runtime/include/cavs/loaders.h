//===- loaders.h - input graph loaders of the cavs C ABI ------------------===//
//
// Loaders turn common data-set formats into graph batches with per-vertex
// attributes. Malformed input fails with CAVS_ERROR_PARSE (or
// CAVS_ERROR_INVALID_GRAPH for a structural problem such as a cycle) and a
// message starting with "file:line:" (plus ":column" where it helps); a
// missing or unreadable file, or one that is not a regular file (a
// directory, FIFO or device), fails with CAVS_ERROR_IO. docs/runtime.md
// describes every format in detail.
//
// Trees and chains come in one of two typings (cavs_tree_typing): a single
// vertex-function type whose leaves simply have absent children, or a leaf
// type 0 (arity 0) apart from an inner type 1.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_LOADERS_H
#define CAVS_LOADERS_H

#include "cavs/graph.h"
#include "cavs/vocab.h"

CAVS_EXTERN_C_BEGIN

/// How tree and chain loaders assign vertex-function types.
typedef enum cavs_tree_typing {
  /// Every vertex has type 0 with the full arity; leaves have absent children.
  CAVS_TREE_ONE_TYPE = 0,
  /// Leaves (vertices without children) have type 0 with arity 0, the other
  /// vertices type 1 with the full arity.
  CAVS_TREE_LEAF_TYPE = 1,
  /// Not a typing: makes the enum 32 bits wide, so that a bad value passed
  /// from C is a valid (rejected) cavs_tree_typing.
  CAVS_TREE_TYPING_FORCE_INT32 = 0x7fffffff,
} cavs_tree_typing;

/// Loads binarized PTB-bracket trees in the Stanford Sentiment Treebank
/// format: one tree per line, `(label child child)` or `(label word)`, with an
/// integer label in [0, 4] on every node. Arity 2. Vertices of a tree are
/// numbered in post-order (children before parents, left subtree first, the
/// root last); child slot 0 is the left child. Attributes: `word` (the word id
/// of a leaf, -1 for inner vertices) and `label`.
/// Words missing from `vocab` are added when `add_unknown_words` is nonzero,
/// and otherwise mapped to `unknown_id` (-1 or an id of `vocab`).
CAVS_API cavs_status cavs_load_sst_trees(const char *path, cavs_vocab *vocab,
                                         int32_t add_unknown_words,
                                         int32_t unknown_id,
                                         cavs_tree_typing typing,
                                         cavs_graph_batch **out_batch);

/// Loads parent arrays (the Stanford Tree-LSTM `parents.txt` format): one tree
/// per line, the i-th number (1-based) being the 1-based index of vertex i's
/// parent, 0 for a root. Vertex i of a line is vertex i - 1 of its sample
/// (parents may come before their children); a vertex's children fill its
/// slots in increasing vertex order. `arity` is the number of child slots, or
/// 0 to use the largest child count in the file. No attributes.
CAVS_API cavs_status cavs_load_parent_arrays(const char *path, int32_t arity,
                                             cavs_tree_typing typing,
                                             cavs_graph_batch **out_batch);

/// Loads one chain per line of space-separated words (e.g. Penn Treebank
/// language-model text): vertex i of a chain is word i, and its child slot 0
/// is vertex i - 1 (absent for i = 0). Arity 1. Attribute: `word`, mapped as
/// in cavs_load_sst_trees. Blank lines are parse errors.
CAVS_API cavs_status cavs_load_sentence_chains(
    const char *path, cavs_vocab *vocab, int32_t add_unknown_words,
    int32_t unknown_id, cavs_tree_typing typing, cavs_graph_batch **out_batch);

/// Makes `num_samples` chains, sample s having `lengths[s]` >= 1 vertices
/// linked as in cavs_load_sentence_chains. No attributes.
CAVS_API cavs_status cavs_graph_batch_create_chains(
    int32_t num_samples, const int32_t *lengths, cavs_tree_typing typing,
    cavs_graph_batch **out_batch);

/// Loads the cavs edge-list format, which expresses DAGs, several vertex types
/// and attributes ('#' starts a comment; blank lines are ignored):
///   types <arity of type 0> <arity of type 1> ...
///   attributes <name> ...           (optional)
///   sample <number of vertices>
///   <vertex> <type> <child 0> ... <child arity-1> <attribute 0> ...
/// with exactly one line per vertex, vertices numbered 0, 1, ... in order,
/// children given as vertex numbers of the same sample or -1 when absent.
CAVS_API cavs_status cavs_load_edge_list(const char *path,
                                         cavs_graph_batch **out_batch);

CAVS_EXTERN_C_END

#endif // CAVS_LOADERS_H
