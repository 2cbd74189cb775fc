#ifndef XSTITCH_RUNTIME_JITCALL_H
#define XSTITCH_RUNTIME_JITCALL_H

/// Marks a function that calls code LLVM's JIT produced through a pointer.
/// Clang's -fsanitize=function checks an indirect call by reading a type
/// signature just before the callee; JIT code has none, and the read can fall
/// off the start of its page. Such calls stay in small functions carrying this
/// mark, so the rest of the runtime keeps the check.
#if defined(__clang__)
#define XSTITCH_CALLS_JIT_CODE __attribute__((no_sanitize("function")))
#else
#define XSTITCH_CALLS_JIT_CODE
#endif

#endif // XSTITCH_RUNTIME_JITCALL_H
