//===- GradSync.cpp - dense buckets and touched-row unions ----------------===//
//
// Three rounds per step, each posted whole and then waited for: (1) the
// dense buckets and the touched-row counts of every table, (2) the touched
// row ids, (3) the tables, packed as their union rows or whole. Rows a rank
// did not touch are zero in its store (GradStore's invariant), so packing
// them adds zeros and the sums are exact.
//
//===----------------------------------------------------------------------===//
#include "dist/GradSync.h"

#include <algorithm>
#include <cstring>

namespace cavs::runtime {

GradSync::GradSync(const GradStore &grads, int64_t bucketBytes,
                   cavs_dist_sparse_mode sparseMode)
    : bucketFloats_(std::max<int64_t>(1, bucketBytes / int64_t(sizeof(float)))),
      sparseMode_(sparseMode) {
  const ModelLayout &layout = grads.layout();
  for (int32_t p = 0; p < layout.numParams(); ++p)
    if (grads.tracksRows(p)) {
      const cavs_param_info &info = layout.param(p);
      tables_.push_back({p, info.offset, info.shape[0], info.shape[1]});
    }
  std::sort(tables_.begin(), tables_.end(),
            [](const Table &a, const Table &b) { return a.offset < b.offset; });
  // Everything between the tables is one dense range: padding is zero on
  // every rank, so summing it is harmless and saves splitting messages.
  int64_t begin = 0;
  for (const Table &table : tables_) {
    if (table.offset > begin)
      denseRanges_.push_back({begin, table.offset});
    begin = table.offset + table.rows * table.cols;
  }
  if (layout.size() > begin)
    denseRanges_.push_back({begin, layout.size()});
  unions_.resize(tables_.size());
  packed_.resize(tables_.size());
}

Status GradSync::postSum(Communicator &comm, float *data, int64_t count,
                         int32_t &pieces) {
  for (int64_t done = 0; done < count; done += bucketFloats_) {
    CAVS_RETURN_IF_ERROR(comm.postAllreduceSum(
        data + done, std::min(bucketFloats_, count - done)));
    ++pieces;
  }
  return Status();
}

bool GradSync::sendDense(const Table &table, size_t unionRows) const {
  if (sparseMode_ == CAVS_DIST_SPARSE_DENSE)
    return true;
  if (sparseMode_ == CAVS_DIST_SPARSE_ROWS)
    return false;
  // Packing copies each row twice (gather, scatter) and a dense sum copies
  // nothing, so past half the table the whole table is the cheaper message.
  return int64_t(unionRows) * 2 >= table.rows;
}

Status GradSync::gatherRows(Communicator &comm, const GradStore &grads,
                            GradSyncStats &stats) {
  const int ranks = comm.size();
  const size_t numTables = tables_.size();
  std::vector<int32_t> localCounts(numTables), counts(numTables * ranks);
  for (size_t t = 0; t < numTables; ++t)
    localCounts[t] =
        static_cast<int32_t>(grads.touchedRows(tables_[t].param).size());
  CAVS_RETURN_IF_ERROR(comm.postAllgather(
      localCounts.data(), static_cast<int>(numTables * sizeof(int32_t)),
      counts.data()));
  CAVS_RETURN_IF_ERROR(comm.wait("exchanging touched-row counts"));

  std::vector<std::vector<int32_t>> gathered(numTables);
  std::vector<std::vector<int>> rankCounts(numTables, std::vector<int>(ranks)),
      displs(numTables, std::vector<int>(ranks));
  for (size_t t = 0; t < numTables; ++t) {
    int total = 0;
    for (int r = 0; r < ranks; ++r) {
      rankCounts[t][r] = counts[size_t(r) * numTables + t];
      displs[t][r] = total;
      total += rankCounts[t][r];
    }
    gathered[t].resize(std::max(total, 1));
    stats.indexBytes += int64_t(localCounts[t]) * int64_t(sizeof(int32_t));
    CAVS_RETURN_IF_ERROR(comm.postAllgatherv(
        grads.touchedRows(tables_[t].param).data(), localCounts[t],
        gathered[t].data(), rankCounts[t].data(), displs[t].data()));
  }
  CAVS_RETURN_IF_ERROR(comm.wait("exchanging touched rows"));

  for (size_t t = 0; t < numTables; ++t) {
    std::vector<int32_t> &rows = unions_[t];
    rows.assign(gathered[t].begin(),
                gathered[t].begin() + displs[t][ranks - 1] +
                    rankCounts[t][ranks - 1]);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  return Status();
}

Status GradSync::run(Communicator &comm, GradStore &grads,
                     GradSyncStats &stats) {
  stats = GradSyncStats();
  float *data = grads.data();
  for (const ElementRange &range : denseRanges_) {
    CAVS_RETURN_IF_ERROR(
        postSum(comm, data + range.begin, range.end - range.begin,
                stats.denseBuckets));
    stats.denseBytes += (range.end - range.begin) * int64_t(sizeof(float));
  }
  if (tables_.empty())
    return comm.wait("summing the gradients");
  // The dense buckets progress while the row ids are exchanged.
  CAVS_RETURN_IF_ERROR(gatherRows(comm, grads, stats));

  int32_t pieces = 0;
  for (size_t t = 0; t < tables_.size(); ++t) {
    const Table &table = tables_[t];
    float *values = data + table.offset;
    const std::vector<int32_t> &rows = unions_[t];
    if (sendDense(table, rows.size())) {
      CAVS_RETURN_IF_ERROR(postSum(comm, values, table.rows * table.cols,
                                   pieces));
      stats.sparseBytes += table.rows * table.cols * int64_t(sizeof(float));
      ++stats.sparseDenseTables;
      continue;
    }
    std::vector<float> &packed = packed_[t];
    packed.resize(rows.size() * size_t(table.cols));
    for (size_t i = 0; i < rows.size(); ++i)
      std::memcpy(packed.data() + i * table.cols,
                  values + int64_t(rows[i]) * table.cols,
                  size_t(table.cols) * sizeof(float));
    CAVS_RETURN_IF_ERROR(
        postSum(comm, packed.data(), int64_t(packed.size()), pieces));
    stats.sparseRows += int64_t(rows.size());
    stats.sparseBytes += int64_t(packed.size()) * int64_t(sizeof(float));
  }
  CAVS_RETURN_IF_ERROR(comm.wait("summing the gradients"));

  for (size_t t = 0; t < tables_.size(); ++t) {
    const Table &table = tables_[t];
    const std::vector<int32_t> &rows = unions_[t];
    if (!sendDense(table, rows.size()))
      for (size_t i = 0; i < rows.size(); ++i)
        std::memcpy(data + table.offset + int64_t(rows[i]) * table.cols,
                    packed_[t].data() + i * table.cols,
                    size_t(table.cols) * sizeof(float));
    // Every rank now holds gradient in the union's rows: mark them all, so
    // zeroing clears them and the optimizer updates the same rows on every
    // rank (one process would have touched exactly this union).
    CAVS_RETURN_IF_ERROR(grads.markRows(table.param, rows.data(),
                                        int64_t(rows.size())));
  }
  return Status();
}

} // namespace cavs::runtime
