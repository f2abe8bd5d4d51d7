//===- PrintableText.cpp - user text made safe to print -------------------===//
#include "compiler/Support/PrintableText.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Unicode.h"

namespace cavs {

namespace {

/// Code points that print nothing but change how the rest prints.
bool isControl(llvm::UTF32 codePoint) {
  return (codePoint >= 0x80 && codePoint <= 0x9f) ||     // C1, CSI among them
         codePoint == 0x61c ||                           // Arabic letter mark
         codePoint == 0x200e || codePoint == 0x200f ||   // LRM, RLM
         (codePoint >= 0x202a && codePoint <= 0x202e) || // embeddings
         (codePoint >= 0x2066 && codePoint <= 0x2069);   // isolates
}

} // namespace

std::string printableText(llvm::StringRef text) {
  std::string shown = text.str();
  for (size_t i = 0; i < shown.size();) {
    const auto byte = static_cast<unsigned char>(shown[i]);
    if (byte < 0x80) {
      if ((byte < 0x20 && byte != '\t') || byte == 0x7f)
        shown[i] = '?';
      ++i;
      continue;
    }
    const auto *bytes = reinterpret_cast<const llvm::UTF8 *>(shown.data() + i);
    const unsigned length = llvm::getNumBytesForUTF8(byte);
    if (i + length > shown.size() ||
        !llvm::isLegalUTF8Sequence(bytes, bytes + length)) {
      shown[i++] = '?';
      continue;
    }
    const llvm::UTF8 *next = bytes;
    llvm::UTF32 codePoint = 0;
    llvm::convertUTF8Sequence(&next, bytes + length, &codePoint,
                              llvm::strictConversion);
    if (isControl(codePoint))
      shown.replace(i, length, length, '?');
    i += length;
  }
  return shown;
}

llvm::StringRef utf8Prefix(llvm::StringRef text, size_t maxBytes) {
  if (text.size() <= maxBytes)
    return text;
  size_t end = maxBytes;
  // Back off the continuation bytes (10xxxxxx) of a cut sequence.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80)
    --end;
  return text.take_front(end);
}

unsigned displayWidth(llvm::StringRef sequence) {
  const int width = llvm::sys::unicode::columnWidthUTF8(sequence);
  // Format characters (a zero-width joiner or space) take no column.
  if (width == llvm::sys::unicode::ErrorNonPrintableCharacter)
    return 0;
  return width < 0 ? 1 : static_cast<unsigned>(width);
}

} // namespace cavs
