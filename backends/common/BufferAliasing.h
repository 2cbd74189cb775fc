#ifndef XSTITCH_BACKENDS_COMMON_BUFFERALIASING_H
#define XSTITCH_BACKENDS_COMMON_BUFFERALIASING_H

// Scoped no-alias metadata for a kernel's argument buffers. The host plan
// gives every buffer a kernel writes memory of its own while the kernel runs
// (outputs are fresh, scratch and temporaries sit in slots no other live
// buffer shares), and inputs are only read; so an access through one
// argument never aliases an access through another. LLVM cannot see this:
// the buffers are pointers loaded from the argument array. Without it, a
// loop storing to one argument and loading another was vectorized behind
// run-time overlap checks, or not at all.

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Function.h"

namespace xs {

/// Tags every load and store of `function` whose address is based on one of
/// `buffers` (the kernel's argument pointers, in argument order) with that
/// argument's alias scope, and as not aliasing the other arguments' scopes.
/// Accesses to anything else (block buffers on the stack) are left alone.
/// The first `readOnly` of them are the kernel's inputs, which nothing
/// writes while it runs: their loads are also marked invariant, so that
/// they may move ahead of stores (a GPU lane then has several loads in
/// flight) and, on NVPTX, read through the non-coherent cache (ld.global.nc).
void markArgumentBuffersDistinct(llvm::Function &function, llvm::ArrayRef<llvm::Value *> buffers,
                                 size_t readOnly);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_BUFFERALIASING_H
