//===- AsanOptions.cpp - AddressSanitizer defaults of the fuzzers ---------===//
//
// libMLIR is not instrumented but inlines LLVM's BumpPtrAllocator from the
// same headers as the instrumented code, whose copy poisons each slab it
// creates and unpoisons allocations one by one: when libMLIR then takes an
// attribute's storage from such a slab, ASan sees a write to poisoned
// memory that is no bug (use-after-poison in StringAttr::get). Ignoring
// manual poisoning keeps every check ASan does on its own.
//
//===----------------------------------------------------------------------===//

extern "C" __attribute__((used)) const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
