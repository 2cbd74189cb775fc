#ifndef XSTITCH_IR_IR_H
#define XSTITCH_IR_IR_H

// The in-memory IR: a Module holds Functions; a Function holds parameters, a
// list of Operations in program order (SSA: every operand is defined before
// use) and named results. Each Operation defines exactly one Value.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/Attribute.h"
#include "ir/Constraints.h"
#include "ir/Diagnostics.h"
#include "ir/OpInfo.h"
#include "ir/Type.h"

namespace xs {

class Operation;
class Function;
struct HostSymbols;

/// An SSA value: a function parameter or the result of an operation. Its name
/// is printed with a leading `%` and is unique within its function.
class Value {
public:
  const std::string &name() const { return name_; }
  const TensorType &type() const { return type_; }
  void setType(TensorType t) { type_ = std::move(t); }
  /// The defining operation; nullptr for a parameter.
  Operation *definingOp() const { return def_; }
  bool isParam() const { return def_ == nullptr; }
  /// Index in the function's parameter list; -1 for an op result.
  int paramIndex() const { return paramIndex_; }
  const Location &loc() const { return loc_; }

private:
  friend class Function;
  friend class Operation;
  std::string name_;
  TensorType type_;
  Operation *def_ = nullptr;
  int paramIndex_ = -1;
  Location loc_;
};

class Operation {
public:
  OpKind kind() const { return kind_; }
  const OpInfo &info() const { return opInfo(kind_); }
  std::string_view mnemonic() const { return info().mnemonic; }

  const std::vector<Value *> &operands() const { return operands_; }
  Value *operand(size_t i) const { return operands_[i]; }
  size_t numOperands() const { return operands_.size(); }
  void setOperand(size_t i, Value *v) { operands_[i] = v; }

  const AttrDict &attrs() const { return attrs_; }
  /// The attribute named `name`, or nullptr.
  const Attribute *attr(std::string_view name) const;
  void setAttr(std::string_view name, Attribute a);
  /// Typed accessors with a default for optional attributes.
  int64_t intAttrOr(std::string_view name, int64_t dflt) const;
  double floatAttrOr(std::string_view name, double dflt) const;
  std::string enumAttrOr(std::string_view name, std::string_view dflt) const;

  Value *result() { return &result_; }
  const Value *result() const { return &result_; }
  const TensorType &type() const { return result_.type(); }
  const Location &loc() const { return loc_; }

private:
  friend class Function;
  Operation(OpKind kind, std::vector<Value *> operands, AttrDict attrs, Location loc);
  OpKind kind_;
  std::vector<Value *> operands_;
  AttrDict attrs_;
  Value result_;
  Location loc_;
};

/// "%4 = reduce_sum", and where an imported model's op came from: "%4 =
/// reduce_sum from /encoder/ReduceMean (ReduceMean)". Reports, explain
/// output and run-time errors name ops so.
std::string opSummary(const Operation &op);

/// opSummary, and for an op written in text IR where it was written: "%4 =
/// reduce_sum at model.xs:12:3". Reports tracing kernels back to their
/// source (--explain, --report=json) name ops so; the host plan keeps
/// opSummary, so that moving lines of a file changes no compiled program.
std::string opSourceSummary(const Operation &op);

/// A named result of a function: `-> (y: f32[N])` with `return %v`.
struct FunctionResult {
  std::string name;
  Value *value = nullptr;
  TensorType declaredType; // unknown when the signature leaves it out
  Location loc;
};

class Function {
public:
  Function(std::string name, Location loc) : name_(std::move(name)), loc_(std::move(loc)) {}
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  const std::string &name() const { return name_; }
  const Location &loc() const { return loc_; }

  Value *addParam(std::string name, TensorType type, Location loc);
  const std::vector<std::unique_ptr<Value>> &params() const { return params_; }
  Value *param(size_t i) const { return params_[i].get(); }

  std::vector<FunctionResult> &results() { return results_; }
  const std::vector<FunctionResult> &results() const { return results_; }

  /// Ops in program order. Iterate over this; mutate through the methods below.
  const std::vector<std::unique_ptr<Operation>> &ops() const { return ops_; }

  /// Creates an op at the end (before == nullptr) or just before `before`.
  /// An empty name gets a fresh one. The result type is `type` as given (may
  /// be unknown); use Builder to create ops with inferred types.
  Operation *createOp(OpKind kind, std::vector<Value *> operands, AttrDict attrs, TensorType type,
                      Location loc, std::string name = "", Operation *before = nullptr);
  /// Removes an op whose result has no uses left.
  void eraseOp(Operation *op);
  /// Removes every op for which `pred` is true (their results must be unused
  /// by the remaining ops and results).
  void eraseOpsIf(const std::function<bool(const Operation &)> &pred);
  /// Makes every operand and result that refers to `from` refer to `to`.
  void replaceAllUsesWith(Value *from, Value *to);
  /// Number of uses of each value by ops and function results.
  absl::flat_hash_map<const Value *, int> useCounts() const;
  /// Reorders ops (a permutation of ops()); used by passes that sort.
  void setOpOrder(std::vector<Operation *> order);

  /// A name not used by any value of this function: `prefix`, `prefix1`, ...
  /// With an empty prefix: `0`, `1`, ...
  std::string freshName(std::string_view prefix = "");
  bool nameInUse(std::string_view name) const { return names_.contains(std::string(name)); }
  /// The value named `name` (without `%`), or nullptr.
  Value *lookup(std::string_view name) const;

  ConstraintStore &constraints() { return constraints_; }
  const ConstraintStore &constraints() const { return constraints_; }

  /// Symbols the function computes on the host at each call, before anything
  /// else runs (ir/HostSymbols.h); nullptr when it has none.
  const HostSymbols *hostSymbols() const { return hostSymbols_.get(); }
  HostSymbols *hostSymbols() { return hostSymbols_.get(); }
  /// The function's host symbols, created (empty, its computation taking the
  /// same parameters) when it has none. Add every parameter first.
  HostSymbols &getOrCreateHostSymbols();
  /// For host plans, which outlive the function they were planned from.
  std::shared_ptr<const HostSymbols> sharedHostSymbols() const { return hostSymbols_; }

private:
  std::string name_;
  Location loc_;
  std::vector<std::unique_ptr<Value>> params_;
  std::vector<std::unique_ptr<Operation>> ops_;
  std::vector<FunctionResult> results_;
  absl::flat_hash_map<std::string, Value *> names_;
  int64_t nextFresh_ = 0;
  ConstraintStore constraints_;
  std::shared_ptr<HostSymbols> hostSymbols_;
};

class Module {
public:
  explicit Module(std::shared_ptr<const std::string> fileName = nullptr)
      : fileName_(std::move(fileName)) {}
  Function *addFunction(std::string name, Location loc);
  const std::vector<std::unique_ptr<Function>> &functions() const { return functions_; }
  /// The function named `name` (without `@`), or nullptr.
  Function *lookup(std::string_view name) const;
  /// Moves function `index` out of the module (which keeps a null entry).
  std::unique_ptr<Function> releaseFunction(size_t index) { return std::move(functions_[index]); }
  const std::shared_ptr<const std::string> &fileName() const { return fileName_; }

private:
  std::shared_ptr<const std::string> fileName_;
  std::vector<std::unique_ptr<Function>> functions_;
};

} // namespace xs

#endif // XSTITCH_IR_IR_H
