#include "ir/Builder.h"

#include "ir/TypeRules.h"

namespace xs {

absl::StatusOr<Value *> Builder::create(OpKind kind, std::vector<Value *> operands, AttrDict attrs,
                                        TensorType type) {
  // The rules read the op itself, so it is created first and erased again
  // when its type does not check.
  Operation *op =
      function_.createOp(kind, std::move(operands), std::move(attrs), type, loc_, "", before_);
  DimUnifier unifier(function_.constraints(), DimUnifier::Mode::Check);
  absl::StatusOr<TensorType> inferred = inferResultType(*op, unifier);
  absl::Status status = inferred.status();
  if (status.ok() && type.known() && !opInfo(kind).hasFlag(kResultTypeRequired)) {
    bool same = type.elementType() == inferred->elementType() && type.rank() == inferred->rank();
    for (int64_t d = 0; same && d < type.rank(); ++d)
      same = function_.constraints().provablyEqual(type.dim(d), inferred->dim(d));
    if (!same)
      status = errorAtCat(loc_, std::string(mnemonic(kind)), ": the requested result type ",
                          type.str(), " differs from the inferred ", inferred->str());
  }
  if (!status.ok()) {
    function_.eraseOp(op);
    return status;
  }
  op->result()->setType(*inferred);
  return op->result();
}

} // namespace xs
