//===- SafetensorsTest.cpp - safetensors export, import, hostile files ----===//
//
// Checks the written files byte for byte against the documented layout
// (built here by hand), round trips through parameter stores and
// checkpoints, that hand-written files load whatever their tensor order,
// padding and metadata, and that every kind of malformed or mismatched file
// (and every truncation of a good one) is rejected with a clear message
// while the parameters stay untouched.
//
//===----------------------------------------------------------------------===//
#include "CheckpointBytes.h"
#include "ModelFixtures.h"
#include "TestSupport.h"

#include <cstring>

extern "C" int cavsTestSafetensorsFromC(const char *path);

namespace cavs::test {
namespace {

/// A tensor entry of a hand-written header; `extra` is appended inside
/// the tensor's object (",\"x\":1").
struct Entry {
  std::string name, dtype = "F32", shape;
  uint64_t begin = 0, end = 0;
  std::string extra;
};

std::string headerOf(const std::vector<Entry> &entries,
                     const std::string &metadata = "") {
  std::string json = "{" + metadata;
  for (const Entry &e : entries)
    json += (json.size() > 1 ? "," : "") +
            ("\"" + e.name + "\":{\"dtype\":\"" + e.dtype + "\",\"shape\":" +
             e.shape + ",\"data_offsets\":[" + std::to_string(e.begin) + "," +
             std::to_string(e.end) + "]" + e.extra + "}");
  return json + "}";
}

/// A file: the u64 `length` (default: of `header`), `header`, `data`.
std::string fileOf(const std::string &header, const std::string &data,
                   uint64_t length = UINT64_MAX) {
  if (length == UINT64_MAX)
    length = header.size();
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &length, 8);
  return bytes + header + data;
}

std::string bytesOf(const std::vector<float> &values) {
  return {reinterpret_cast<const char *>(values.data()),
          values.size() * sizeof(float)};
}

/// The parameters of tinyModel(): name, shape text, element count.
struct TinyParam {
  const char *name, *shape;
  size_t size;
};
constexpr TinyParam kTiny[] = {{"embed", "[10,4]", 40},
                               {"W_iou", "[6,4]", 24},
                               {"W_f", "[2,4]", 8},
                               {"b", "[5]", 5}};

/// Entries for every parameter of tinyModel(), back to back in this order.
std::vector<Entry> tinyEntries() {
  std::vector<Entry> entries;
  uint64_t offset = 0;
  for (const TinyParam &p : kTiny) {
    entries.push_back(
        {p.name, "F32", p.shape, offset, offset + 4 * p.size, ""});
    offset += 4 * p.size;
  }
  return entries;
}

/// Distinct values for all 77 floats of tinyEntries().
std::vector<float> tinyValues() {
  std::vector<float> values(77);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 0.5f * float(i) - 3;
  return values;
}

class SafetensorsTest : public TempDirTest {
protected:
  std::string path(const std::string &name = "model.safetensors") const {
    return (dir / name).string();
  }

  /// Expects loading the file `bytes` into the tiny model to fail with
  /// `status` and `fragments`, leaving the parameters untouched.
  void expectLoadFails(const std::string &bytes, cavs_status status,
                       std::initializer_list<std::string> fragments) {
    writeBytes(path(), bytes);
    expectPathFails(path(), status, fragments);
  }
  void expectPathFails(const std::string &file, cavs_status status,
                       std::initializer_list<std::string> fragments) {
    ParamStore params(tinyModel().desc(), 1);
    const std::vector<float> before = toVector(params.data());
    expectError([&] { loadSafetensors(file, params); }, status, fragments);
    EXPECT_EQ(toVector(params.data()), before);
  }
  /// expectLoadFails for the header `header` over the tiny values.
  void expectHeaderFails(const std::string &header, cavs_status status,
                         std::initializer_list<std::string> fragments) {
    expectLoadFails(fileOf(header, bytesOf(tinyValues())), status, fragments);
  }
  void expectEntriesFail(const std::vector<Entry> &entries, cavs_status status,
                         std::initializer_list<std::string> fragments) {
    expectHeaderFails(headerOf(entries), status, fragments);
  }
};

// Tests that a saved file is exactly the documented layout: metadata first,
// parameters in declaration order (pack members too), the header padded
// with spaces to a multiple of 8, the values back to back.
TEST_F(SafetensorsTest, WritesTheDocumentedLayout) {
  ParamStore params(tinyModel().desc(), 1);
  saveSafetensors(path(), params);
  std::string header =
      R"({"__metadata__":{"cavs.model":"tiny","cavs.signature":)"
      R"("0x5eed5eed0000cafe"},)" +
      headerOf(tinyEntries()).substr(1);
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string data;
  for (int32_t i = 0; i < params.numParams(); ++i)
    data += bytesOf(toVector(params.values(i)));
  EXPECT_EQ(readBytes(path()), fileOf(header, data));
  // No temporary file is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
}

// Tests a round trip into a store initialised differently.
TEST_F(SafetensorsTest, RoundTrip) {
  ParamStore saved(tinyModel().desc(), 1), loaded(tinyModel().desc(), 2);
  ASSERT_NE(toVector(saved.data()), toVector(loaded.data()));
  saveSafetensors(path(), saved);
  loadSafetensors(path(), loaded);
  EXPECT_EQ(toVector(loaded.data()), toVector(saved.data()));
}

// Tests that a hand-written file loads whatever its header order, data
// order, padding and metadata (which is not checked).
TEST_F(SafetensorsTest, ReadsForeignFiles) {
  std::vector<Entry> entries = tinyEntries();
  std::vector<float> values = tinyValues();
  // The header lists the tensors backwards; the data keeps its order.
  std::reverse(entries.begin(), entries.end());
  const std::string header =
      headerOf(entries, R"("__metadata__":{"format":"pt"})") + "      ";
  writeBytes(path(), fileOf(header, bytesOf(values)));
  ParamStore params(tinyModel().desc(), 1);
  loadSafetensors(path(), params);
  size_t next = 0;
  for (const TinyParam &p : kTiny) {
    const std::vector<float> expected(values.begin() + next,
                                      values.begin() + next + p.size);
    EXPECT_EQ(toVector(params.values(params.paramIndex(p.name))), expected)
        << p.name;
    next += p.size;
  }
}

// Tests files too short for their header, or whose length is hostile.
TEST_F(SafetensorsTest, RejectsBadHeaderLengths) {
  expectLoadFails("", CAVS_ERROR_PARSE,
                  {"safetensors file '" + path() +
                   "': truncated: 0 bytes, fewer than the 8 of the header "
                   "length"});
  expectLoadFails("{\"a\":", CAVS_ERROR_PARSE, {"truncated: 5 bytes"});
  // Far more than the file, and beyond the bound: never allocated.
  expectLoadFails(fileOf("{}", "", 100'000'001), CAVS_ERROR_PARSE,
                  {"the header length 100000001 exceeds the limit of "
                   "100000000 bytes"});
  expectLoadFails(fileOf("{}", "", UINT64_MAX - 1), CAVS_ERROR_PARSE,
                  {"exceeds the limit"});
  expectLoadFails(fileOf("{}", "", 3), CAVS_ERROR_PARSE,
                  {"truncated: the header length is 3, but only 2 bytes "
                   "follow it"});
  // A checkpoint given for a safetensors file: said, not read as a length.
  expectLoadFails(std::string("CAVSCKPT") + std::string(64, '\0'),
                  CAVS_ERROR_PARSE,
                  {"safetensors file '" + path() +
                   "': it is a cavs checkpoint, not a safetensors file"});
}

// Tests that every proper prefix of a good file is refused cleanly.
TEST_F(SafetensorsTest, TruncatedAtEveryOffset) {
  ParamStore params(tinyModel().desc(), 1);
  saveSafetensors(path("good.safetensors"), params);
  const std::string good = readBytes(path("good.safetensors"));
  for (size_t size = 0; size < good.size(); ++size) {
    SCOPED_TRACE(size);
    expectLoadFails(good.substr(0, size), CAVS_ERROR_PARSE,
                    {"safetensors file '" + path() + "': "});
  }
}

// Tests headers that are not JSON, or not the format's JSON.
TEST_F(SafetensorsTest, RejectsMalformedHeaders) {
  const cavs_status parse = CAVS_ERROR_PARSE;
  expectHeaderFails("{\"b\": ", parse,
                    {"': the header is not valid JSON: parse error at line "
                     "1, column "});
  expectHeaderFails("{} {}", parse, {"the header is not valid JSON"});
  // The JSON library ends the input at a NUL and skips a byte order mark:
  // valid headers so followed or preceded loaded.
  const std::string valid = headerOf(tinyEntries());
  expectHeaderFails(valid + std::string("\0{\"not json", 11), parse,
                    {"the header is not valid JSON: a NUL byte at offset " +
                     std::to_string(valid.size())});
  expectHeaderFails("\xEF\xBB\xBF" + valid, parse,
                    {"the header is not valid JSON: it starts with a UTF-8 "
                     "byte order mark"});
  // The parser's "last read" quote of the byte is escaped (it was raw,
  // which made the message invalid UTF-8).
  expectHeaderFails("{\"b\":\"\xff\"}", parse,
                    {"not valid JSON", "last read: '\"\\xff'"});
  expectHeaderFails("[1, 2]", parse,
                    {"the header must be a JSON object, not an array"});
  expectHeaderFails("{\"b\": 3}", parse,
                    {"tensor 'b' must be an object, not the number 3"});
  expectHeaderFails(R"({"__metadata__":[]})", parse,
                    {"__metadata__ must be an object of strings, not an "
                     "array"});
  expectHeaderFails(R"({"__metadata__":{"k":1.5}})", parse,
                    {"__metadata__ value 'k' must be a string, not the "
                     "number 1.5"});
  expectHeaderFails(R"({"__metadata__":{"k":"a","k":"b"}})", parse,
                    {"__metadata__ key 'k' appears twice"});

  std::vector<Entry> entries = tinyEntries();
  entries.push_back(entries[3]);
  expectEntriesFail(entries, parse, {"the key 'b' appears twice"});

  entries = tinyEntries();
  entries[3].extra = R"(,"dtype":"F32")";
  expectEntriesFail(entries, parse, {"tensor 'b' has field 'dtype' twice"});
  entries[3].extra = R"(,"offsets":[0,1])";
  expectEntriesFail(entries, parse,
                    {"tensor 'b' has the unknown field 'offsets'"});
  expectHeaderFails(R"({"b":{"dtype":"F32","shape":[5]}})", parse,
                    {"tensor 'b' has no data_offsets"});

  std::string manyDims = "[1";
  for (int i = 1; i < 65; ++i)
    manyDims += ",1";
  manyDims += "]";
  const std::pair<std::string, std::string> badShapes[] = {
      {"\"5\"", "the shape of tensor 'b' must be an array, not the string "
                "\"5\""},
      {"[-5]", "the dimensions of tensor 'b' must be non-negative "
               "integers, not a negative number"},
      {"[5.0]", "must be non-negative integers, not the number 5.0"},
      {"[[5]]", "must be non-negative integers, not an array"},
      {"[null]", "not null"},
      {"[true]", "not a boolean"},
      {"[18446744073709551616]", "not the number 18446744073709551616"},
      {manyDims, "tensor 'b' has more than 64 dimensions"}};
  for (const auto &[shape, message] : badShapes) {
    entries = tinyEntries();
    entries[3].shape = shape;
    expectEntriesFail(entries, parse, {message});
  }
  entries = tinyEntries();
  entries[3].dtype = "F32\",\"dtype\":\"F16";
  expectEntriesFail(entries, parse, {"tensor 'b' has field 'dtype' twice"});
  expectHeaderFails(R"({"b":{"dtype":32,"shape":[5],"data_offsets":[0,20]}})",
                    parse,
                    {"the dtype of tensor 'b' must be a string, not the "
                     "number 32"});
  expectHeaderFails(R"({"b":{"dtype":"F32","shape":[5],"data_offsets":3}})",
                    parse,
                    {"the data_offsets of tensor 'b' must be an array, not "
                     "the number 3"});
  expectHeaderFails(
      R"({"b":{"dtype":"F32","shape":[5],"data_offsets":[0,20,40]}})", parse,
      {"tensor 'b' has more than 2 data_offsets"});
  expectHeaderFails(R"({"b":{"dtype":"F32","shape":[5],"data_offsets":[0]}})",
                    parse, {"tensor 'b' has 1 data_offsets instead of 2"});
}

// Tests data offsets that do not tile the data section exactly.
TEST_F(SafetensorsTest, RejectsBadOffsets) {
  const cavs_status parse = CAVS_ERROR_PARSE;
  std::vector<Entry> entries = tinyEntries();
  entries[3].end += 4; // b [288, 312) in 308 bytes.
  expectEntriesFail(entries, parse,
                    {"tensor 'b' of dtype F32 and shape [5] takes 20 bytes, "
                     "but its data_offsets [288, 312] hold 24"});
  entries[3].begin += 4;
  expectEntriesFail(entries, parse,
                    {"tensor 'b' has data_offsets [292, 312] past the end of "
                     "the data section (308 bytes)"});
  entries = tinyEntries();
  std::swap(entries[3].begin, entries[3].end);
  expectEntriesFail(entries, parse,
                    {"tensor 'b' has data_offsets [308, 288], which end "
                     "before they begin"});
  entries = tinyEntries();
  entries[3].begin -= 4; // b overlaps W_f.
  entries[3].end -= 4;
  expectEntriesFail(entries, parse,
                    {"tensor 'b' at data_offsets [284, 304] overlaps tensor "
                     "'W_f' at [256, 288]"});
  entries = tinyEntries();
  entries[0].begin = entries[0].end = 0;
  entries[0].shape = "[0,4]";
  expectEntriesFail(entries, parse,
                    {"bytes [0, 160) of the data section belong to no "
                     "tensor"});
  expectLoadFails(fileOf(headerOf(tinyEntries()), bytesOf(tinyValues()) + "x"),
                  parse,
                  {"bytes [308, 309) of the data section belong to no "
                   "tensor"});
  entries = tinyEntries();
  entries[3].shape = "[9223372036854775808,4]";
  expectEntriesFail(entries, parse,
                    {"tensor 'b' of shape [9223372036854775808, 4] has more "
                     "bytes than 2^64"});
}

// Tests files that are well formed but do not match the model.
TEST_F(SafetensorsTest, RejectsMismatchedTensors) {
  std::vector<Entry> entries = tinyEntries();
  entries[3].dtype = "F16"; // 5 halves in 10 bytes.
  entries[3].end -= 10;
  expectLoadFails(
      fileOf(headerOf(entries), bytesOf(tinyValues()).substr(0, 298)),
      CAVS_ERROR_UNSUPPORTED,
      {"safetensors file '" + path() +
       "': parameter 'b' has dtype F16; parameters are read as "
       "F32 only"});
  entries = tinyEntries();
  entries[3].dtype = "F31";
  expectEntriesFail(entries, CAVS_ERROR_UNSUPPORTED,
                    {"tensor 'b' has the unknown dtype 'F31'"});
  entries = tinyEntries();
  entries[3].shape = "[1,5]";
  expectEntriesFail(entries, CAVS_ERROR_INVALID_ARGUMENT,
                    {"parameter 'b' has shape [1, 5] in the file but [5] in "
                     "the model"});
  entries = tinyEntries();
  entries[1].shape = "[4,6]";
  expectEntriesFail(entries, CAVS_ERROR_INVALID_ARGUMENT,
                    {"parameter 'W_iou' has shape [4, 6] in the file but "
                     "[6, 4] in the model"});
  entries = tinyEntries();
  entries[3].name = "bias";
  expectEntriesFail(entries, CAVS_ERROR_INVALID_ARGUMENT,
                    {"tensor 'bias' is not a parameter of model 'tiny'"});
  entries = tinyEntries();
  entries.pop_back();
  expectLoadFails(
      fileOf(headerOf(entries), bytesOf(tinyValues()).substr(0, 288)),
      CAVS_ERROR_INVALID_ARGUMENT,
      {"parameter 'b' of model 'tiny' is missing"});
  // A pack name is not a parameter.
  entries = tinyEntries();
  entries[1].name = "W_iou_f";
  expectEntriesFail(entries, CAVS_ERROR_INVALID_ARGUMENT,
                    {"tensor 'W_iou_f' is not a parameter"});
}

// Tests I/O errors on both sides.
TEST_F(SafetensorsTest, IoErrors) {
  expectPathFails(path("missing.safetensors"), CAVS_ERROR_IO,
                  {"cannot open safetensors file '" +
                   path("missing.safetensors") +
                   "': No such file or directory"});
  expectPathFails(dir.string(), CAVS_ERROR_IO,
                  {"it is a directory, not a regular file"});
  ParamStore params(tinyModel().desc(), 1);
  const std::string inMissingDir = path("no/such/dir/model.safetensors");
  expectError([&] { saveSafetensors(inMissingDir, params); }, CAVS_ERROR_IO,
              {"cannot create safetensors file '" + inMissingDir});
}

// Tests the conversions of checkpoint files, which need no model: a
// checkpoint exports exactly what its store would, and a safetensors file
// becomes a parameters-only checkpoint of the template's model.
TEST_F(SafetensorsTest, ConvertsCheckpoints) {
  ParamStore params(tinyModel().desc(), 1);
  GradStore grads(params);
  for (float &g : grads.data())
    g = 0.5f;
  Optimizer adam(params, Optimizer::defaults(OptimizerKind::Adam));
  adam.step(params, grads);
  saveCheckpoint(path("model.ckpt"), params, adam);
  safetensorsFromCheckpoint(path("model.ckpt"), path("from-ckpt.safetensors"));
  saveSafetensors(path("from-store.safetensors"), params);
  EXPECT_EQ(readBytes(path("from-ckpt.safetensors")),
            readBytes(path("from-store.safetensors")));

  writeBytes(path(), fileOf(headerOf(tinyEntries()), bytesOf(tinyValues())));
  ParamStore expected(tinyModel().desc(), 3);
  loadSafetensors(path(), expected);
  // The output may replace the template.
  safetensorsToCheckpoint(path(), path("model.ckpt"), path("model.ckpt"));
  ParamStore loaded(tinyModel().desc(), 2);
  loadCheckpoint(path("model.ckpt"), loaded);
  EXPECT_EQ(toVector(loaded.data()), toVector(expected.data()));
  Optimizer fresh(loaded, Optimizer::defaults(OptimizerKind::Adam));
  expectError([&] { loadCheckpoint(path("model.ckpt"), loaded, fresh); },
              CAVS_ERROR_INVALID_ARGUMENT, {"holds no optimizer state"});

  // The template's model decides, and a bad template or file writes nothing.
  ModelSpec other = tinyModel();
  other.params[3].shape[0] = 6;
  saveCheckpoint(path("other.ckpt"), ParamStore(other.desc(), 1));
  expectError(
      [&] {
        safetensorsToCheckpoint(path(), path("other.ckpt"), path("out.ckpt"));
      },
      CAVS_ERROR_INVALID_ARGUMENT,
      {"parameter 'b' has shape [5] in the file but [6] in the model"});
  writeBytes(path("bad.ckpt"), "not a checkpoint");
  expectError(
      [&] {
        safetensorsToCheckpoint(path(), path("bad.ckpt"), path("out.ckpt"));
      },
      CAVS_ERROR_PARSE,
      {"'" + path("bad.ckpt") + "' is not a cavs checkpoint"});
  expectError(
      [&] {
        safetensorsFromCheckpoint(path("bad.ckpt"), path("out.safetensors"));
      },
      CAVS_ERROR_PARSE, {"is not a cavs checkpoint"});
  EXPECT_FALSE(std::filesystem::exists(path("out.ckpt")));
  EXPECT_FALSE(std::filesystem::exists(path("out.safetensors")));

  // A conversion never writes onto its input, also through a link: the
  // checkpoint would lose its optimizer state, the file its tensors.
  saveCheckpoint(path("kept.ckpt"), params, adam);
  const std::string checkpoint = readBytes(path("kept.ckpt"));
  std::filesystem::create_symlink(path("kept.ckpt"), path("link.safetensors"));
  for (const std::string &output : {path("kept.ckpt"), path("link.safetensors")})
    expectError([&] { safetensorsFromCheckpoint(path("kept.ckpt"), output); },
                CAVS_ERROR_INVALID_ARGUMENT,
                {"output file '" + output + "' is the input file '" +
                 path("kept.ckpt") + "'; refusing to overwrite it"});
  EXPECT_EQ(readBytes(path("kept.ckpt")), checkpoint);
  const std::string tensors = readBytes(path());
  expectError(
      [&] { safetensorsToCheckpoint(path(), path("kept.ckpt"), path()); },
      CAVS_ERROR_INVALID_ARGUMENT, {"is the input file"});
  EXPECT_EQ(readBytes(path()), tensors);
}

// Tests the C ABI from C99 (ParamsFromC.c): a round trip and NULLs.
TEST_F(SafetensorsTest, CApiFromC) {
  EXPECT_EQ(cavsTestSafetensorsFromC(path().c_str()), 0)
      << cavs_last_error_message();
}

} // namespace
} // namespace cavs::test
