#ifndef XSTITCH_BACKENDS_COMMON_TYPELOWERING_H
#define XSTITCH_BACKENDS_COMMON_TYPELOWERING_H

// How xstitch element types live in LLVM: a storage type (what a buffer
// holds) and a compute type (what the emitted code computes in).
//
//   element   storage   compute
//   f32       float     float
//   f64       double    double
//   f16       half      float   (fpext on load, fptrunc on store)
//   bf16      i16       float   (the bits; see storageType)
//   i1        i8 (0/1)  i1
//   i8, u8    i8        i8      (u8 is unsigned where it matters)
//   i32, i64  i32, i64  same

#include "ir/ElementType.h"
#include "llvm/IR/IRBuilder.h"

namespace xs {

llvm::Type *storageType(llvm::LLVMContext &context, ElementType type);
llvm::Type *computeType(llvm::LLVMContext &context, ElementType type);

/// Loads element `index` (i64) of a buffer of `type` and converts it to the
/// compute type.
llvm::Value *loadElement(llvm::IRBuilder<> &b, ElementType type, llvm::Value *base,
                         llvm::Value *index);
/// How f32 values round to bf16. Integer: bit operations, on every target.
/// Native: LLVM's fptrunc to bfloat, for targets that have the instruction
/// (x86's AVX512-BF16 vcvtneps2bf16, one instruction for 16 values against
/// about eight), where the kernel also flushes subnormals: that instruction
/// treats subnormal inputs as zero and flushes subnormal results.
enum class BFloatRounding { Integer, Native };

/// Converts a compute-type value to storage and stores it at `index`.
void storeElement(llvm::IRBuilder<> &b, ElementType type, llvm::Value *value, llvm::Value *base,
                  llvm::Value *index, BFloatRounding rounding);

/// CPUs' cache line: what one prefetch brings in.
constexpr int64_t kCacheLineBytes = 64;
/// Prefetches the cache line at `address` for reading, into every cache
/// level. A prefetch never faults, so `address` may lie past a tensor's end
/// (computed without inbounds).
void emitPrefetch(llvm::IRBuilder<> &b, llvm::Value *address);

/// A compute-type constant from a number as the interpreter holds it: floats
/// as double (rounded once to `type`), integers and i1 as int64 (wrapped).
llvm::Constant *floatConstant(llvm::LLVMContext &context, ElementType type, double value);
llvm::Constant *integerConstant(llvm::LLVMContext &context, ElementType type, int64_t value);

/// The bf16 bit pattern (i16) nearest to an f32 value, ties to even, NaN
/// kept quiet; no library call either way.
llvm::Value *floatToBFloatBits(llvm::IRBuilder<> &b, llvm::Value *x, BFloatRounding rounding);

/// An f32 value rounded to bf16, as f32 (the compute type of bf16).
llvm::Value *roundFloatToBFloat(llvm::IRBuilder<> &b, llvm::Value *x, BFloatRounding rounding);

/// The f32 value of bf16 bits (i16): exact, a shift.
llvm::Value *bfloatBitsToFloat(llvm::IRBuilder<> &b, llvm::Value *bits);

/// An i64 index value from an integer compute value of `type` (sign- or
/// zero-extended as the type says).
llvm::Value *indexFromInteger(llvm::IRBuilder<> &b, ElementType type, llvm::Value *value);

} // namespace xs

#endif // XSTITCH_BACKENDS_COMMON_TYPELOWERING_H
