#ifndef XSTITCH_IR_BUILDER_H
#define XSTITCH_IR_BUILDER_H

// Creates ops with inferred result types, for passes that rewrite IR.

#include "absl/status/statusor.h"
#include "ir/IR.h"

namespace xs {

class Builder {
public:
  /// New ops go before `before`, or at the end when it is nullptr. Ops get
  /// location `loc` (usually that of the op being rewritten).
  Builder(Function &function, Operation *before, Location loc)
      : function_(function), before_(before), loc_(std::move(loc)) {}

  /// Creates an op and infers its result type. For kResultTypeRequired ops,
  /// pass the result type in `type`.
  absl::StatusOr<Value *> create(OpKind kind, std::vector<Value *> operands, AttrDict attrs = {},
                                 TensorType type = {});

  Function &function() { return function_; }
  void setLocation(Location loc) { loc_ = std::move(loc); }

private:
  Function &function_;
  Operation *before_;
  Location loc_;
};

} // namespace xs

#endif // XSTITCH_IR_BUILDER_H
