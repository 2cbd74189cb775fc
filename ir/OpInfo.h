#ifndef XSTITCH_IR_OPINFO_H
#define XSTITCH_IR_OPINFO_H

// Static facts about each op kind, generated from Ops.def.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ir/Attribute.h"

namespace xs {

enum class OpKind : uint16_t {
#define XS_OP(Name, Mnemonic, Category, Rule, MinOperands, MaxOperands, Flags) Name,
#include "ir/Ops.def"
};

/// What an op does to memory; later passes decide fusion from it.
enum class OpCategory : uint8_t {
  LightElementwise,
  ExpensiveElementwise,
  Source, // constant, iota: no tensor operand
  Broadcast,
  Reshape,
  Transpose,
  DataMovement, // slice, concat, pad
  Gather,
  Reduce,
  Scan,      // a state carried along whole lines of one dim (cumsum, top_k)
  Composite, // decomposed by the decompose pass
  Library,   // dot: not memory-intensive, runs through a library
};

/// The typing rule shared by a family of ops (see TypeRules.h).
enum class TypeRule : uint8_t {
  UnaryNumeric,
  UnaryFloat,
  UnaryPredicate,
  UnaryLogical,
  BinaryNumeric,
  BinaryLogical,
  Compare,
  Select,
  Cast,
  Constant,
  Iota,
  DimValue,
  Broadcast,
  Reshape,
  Transpose,
  Slice,
  Concat,
  Pad,
  Gather,
  TakeAlongAxis,
  Reduce,
  ArgReduce,
  LayerNorm,
  RmsNorm,
  Softmax,
  Gelu,
  Scan,
  TopK,
  Dot,
};

/// The largest k of top_k: each line keeps its k best elements so far (on
/// the stack of the lane that walks it) and inserts a better one in order.
constexpr int64_t kMaxTopK = 1024;

/// The longest step of slice. A step as long as the dim takes its first
/// element, so a longer one says nothing more; the bound keeps the extent
/// arithmetic ceil((limit - start) / step) from overflowing.
constexpr int64_t kMaxSliceStep = int64_t(1) << 31;

enum OpFlags : uint32_t {
  kResultTypeRequired = 1u << 0, // the text must give the result type (shape comes from it)
  kCommutative = 1u << 1,
};

struct AttrSpec {
  std::string_view name;
  AttrKind kind;
  bool required;
};

struct OpInfo {
  OpKind kind;
  std::string_view mnemonic;
  OpCategory category;
  TypeRule rule;
  int minOperands;
  int maxOperands; // -1: variadic
  uint32_t flags;
  std::span<const AttrSpec> attrs;

  bool hasFlag(OpFlags f) const { return (flags & f) != 0; }
  /// Light or expensive element-wise: each result element from the operands'
  /// elements at the same index.
  bool isElementwise() const {
    return category == OpCategory::LightElementwise || category == OpCategory::ExpensiveElementwise;
  }
  /// The attribute spec named `name`, or nullptr.
  const AttrSpec *findAttr(std::string_view name) const;
};

const OpInfo &opInfo(OpKind kind);
std::optional<OpKind> lookupOpKind(std::string_view mnemonic);
std::span<const OpInfo> allOpInfos();
std::string_view opCategoryName(OpCategory c);
inline std::string_view mnemonic(OpKind k) { return opInfo(k).mnemonic; }

} // namespace xs

#endif // XSTITCH_IR_OPINFO_H
