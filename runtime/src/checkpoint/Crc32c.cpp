//===- Crc32c.cpp - slicing-by-8 CRC-32C ----------------------------------===//
//
// Table t[k][b] is the CRC of byte b followed by k zero bytes, so eight
// input bytes are folded with eight lookups (Intel's slicing-by-8). The
// tables are computed once, at first use.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Crc32c.h"

#include "checkpoint/Format.h"

#include <array>
#include <cstring>

namespace cavs::runtime {

namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

Tables makeTables() {
  constexpr uint32_t kPolynomial = 0x82f63b78u;
  Tables tables{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc >> 1) ^ (crc & 1 ? kPolynomial : 0);
    tables[0][b] = crc;
  }
  for (uint32_t b = 0; b < 256; ++b)
    for (size_t k = 1; k < 8; ++k)
      tables[k][b] =
          (tables[k - 1][b] >> 8) ^ tables[0][tables[k - 1][b] & 0xff];
  return tables;
}

const Tables &tables() {
  static const Tables instance = makeTables();
  return instance;
}

} // namespace

void Crc32c::update(const void *data, size_t size) {
  const Tables &t = tables();
  const auto *bytes = static_cast<const unsigned char *>(data);
  uint32_t crc = state_;
  for (; size >= 8; size -= 8, bytes += 8) {
    uint32_t low, high;
    std::memcpy(&low, bytes, 4);
    std::memcpy(&high, bytes + 4, 4);
    // Little-endian loads: the first byte is the lowest (checked in
    // checkpoint/Format.h).
    low ^= crc;
    crc = t[7][low & 0xff] ^ t[6][(low >> 8) & 0xff] ^
          t[5][(low >> 16) & 0xff] ^ t[4][low >> 24] ^ t[3][high & 0xff] ^
          t[2][(high >> 8) & 0xff] ^ t[1][(high >> 16) & 0xff] ^
          t[0][high >> 24];
  }
  for (; size > 0; --size, ++bytes)
    crc = (crc >> 8) ^ t[0][(crc ^ *bytes) & 0xff];
  state_ = crc;
}

} // namespace cavs::runtime
