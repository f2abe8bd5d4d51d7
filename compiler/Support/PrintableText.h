//===- PrintableText.h - user text made safe to print -----------*- C++ -*-===//
//
// Diagnostics quote what users give the tools: source lines, names, file
// names, -D values. Quoted raw, such text could move the cursor or recolour
// the terminal (an ESC or a C1 CSI byte), reorder what is shown (bidi
// controls), or break a reader that expects UTF-8 (a cut sequence). These
// helpers keep the bytes of a text that print as themselves and replace
// the others with '?', byte for byte, so that byte columns stay.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_PRINTABLETEXT_H
#define CAVS_COMPILER_SUPPORT_PRINTABLETEXT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace cavs {

/// `text` with every control character but tab (C0, DEL, C1), every bidi
/// control and every byte that starts no valid UTF-8 sequence replaced by
/// '?', one per byte.
std::string printableText(llvm::StringRef text);

/// The longest prefix of `text` of at most `maxBytes` that ends between
/// two UTF-8 sequences.
llvm::StringRef utf8Prefix(llvm::StringRef text, size_t maxBytes);

/// The terminal columns of one printable UTF-8 sequence: 2 for wide (East
/// Asian, emoji), 0 for combining marks and format characters (U+200B,
/// U+200D), 1 otherwise.
unsigned displayWidth(llvm::StringRef sequence);

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_PRINTABLETEXT_H
