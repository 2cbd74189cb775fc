#include "ir/IR.h"

#include <algorithm>
#include <cassert>

#include "absl/strings/str_cat.h"
#include "ir/HostSymbols.h"

namespace xs {

Operation::Operation(OpKind kind, std::vector<Value *> operands, AttrDict attrs, Location loc)
    : kind_(kind), operands_(std::move(operands)), attrs_(std::move(attrs)), loc_(std::move(loc)) {
  result_.def_ = this;
  result_.loc_ = loc_;
}

const Attribute *Operation::attr(std::string_view name) const {
  auto it = attrs_.find(name);
  return it == attrs_.end() ? nullptr : &it->second;
}

void Operation::setAttr(std::string_view name, Attribute a) {
  attrs_.insert_or_assign(std::string(name), std::move(a));
}

int64_t Operation::intAttrOr(std::string_view name, int64_t dflt) const {
  const Attribute *a = attr(name);
  return a ? a->getInt() : dflt;
}

double Operation::floatAttrOr(std::string_view name, double dflt) const {
  const Attribute *a = attr(name);
  return a ? a->getFloat() : dflt;
}

std::string Operation::enumAttrOr(std::string_view name, std::string_view dflt) const {
  const Attribute *a = attr(name);
  return a ? a->getEnum() : std::string(dflt);
}

Value *Function::addParam(std::string name, TensorType type, Location loc) {
  assert(!names_.contains(name) && "duplicate value name");
  auto v = std::make_unique<Value>();
  v->name_ = std::move(name);
  v->type_ = std::move(type);
  v->paramIndex_ = static_cast<int>(params_.size());
  v->loc_ = std::move(loc);
  names_[v->name_] = v.get();
  params_.push_back(std::move(v));
  return params_.back().get();
}

HostSymbols &Function::getOrCreateHostSymbols() {
  if (!hostSymbols_) {
    hostSymbols_ = std::make_shared<HostSymbols>();
    hostSymbols_->computation = std::make_unique<Function>(name_, loc_);
    for (const auto &param : params_)
      hostSymbols_->computation->addParam(param->name(), param->type(), param->loc());
  }
  return *hostSymbols_;
}

Operation *Function::createOp(OpKind kind, std::vector<Value *> operands, AttrDict attrs,
                              TensorType type, Location loc, std::string name, Operation *before) {
  if (name.empty())
    name = freshName();
  assert(!names_.contains(name) && "duplicate value name");
  std::unique_ptr<Operation> op(
      new Operation(kind, std::move(operands), std::move(attrs), std::move(loc)));
  op->result_.name_ = std::move(name);
  op->result_.type_ = std::move(type);
  names_[op->result_.name_] = &op->result_;
  Operation *raw = op.get();
  if (before == nullptr) {
    ops_.push_back(std::move(op));
  } else {
    auto it = std::find_if(ops_.begin(), ops_.end(),
                           [&](const std::unique_ptr<Operation> &o) { return o.get() == before; });
    assert(it != ops_.end() && "insertion point is not in this function");
    ops_.insert(it, std::move(op));
  }
  return raw;
}

void Function::eraseOp(Operation *op) {
  eraseOpsIf([op](const Operation &o) { return &o == op; });
}

void Function::eraseOpsIf(const std::function<bool(const Operation &)> &pred) {
  std::vector<std::unique_ptr<Operation>> kept;
  kept.reserve(ops_.size());
  for (auto &op : ops_) {
    if (pred(*op))
      names_.erase(op->result_.name_);
    else
      kept.push_back(std::move(op));
  }
  ops_ = std::move(kept);
}

void Function::replaceAllUsesWith(Value *from, Value *to) {
  for (auto &op : ops_)
    for (Value *&operand : op->operands_)
      if (operand == from)
        operand = to;
  for (FunctionResult &r : results_)
    if (r.value == from)
      r.value = to;
}

absl::flat_hash_map<const Value *, int> Function::useCounts() const {
  absl::flat_hash_map<const Value *, int> counts;
  for (const auto &op : ops_)
    for (const Value *operand : op->operands_)
      ++counts[operand];
  for (const FunctionResult &r : results_)
    ++counts[r.value];
  return counts;
}

void Function::setOpOrder(std::vector<Operation *> order) {
  assert(order.size() == ops_.size() && "setOpOrder needs a permutation of ops()");
  absl::flat_hash_map<Operation *, std::unique_ptr<Operation>> owned;
  for (auto &op : ops_)
    owned[op.get()] = std::move(op);
  ops_.clear();
  for (Operation *op : order) {
    auto it = owned.find(op);
    assert(it != owned.end() && "setOpOrder: op is not in this function");
    ops_.push_back(std::move(it->second));
  }
}

std::string Function::freshName(std::string_view prefix) {
  if (!prefix.empty() && !names_.contains(std::string(prefix)))
    return std::string(prefix);
  while (true) {
    std::string candidate = strCat(prefix, nextFresh_++);
    if (!names_.contains(candidate))
      return candidate;
  }
}

Value *Function::lookup(std::string_view name) const {
  auto it = names_.find(std::string(name));
  return it == names_.end() ? nullptr : it->second;
}

Function *Module::addFunction(std::string name, Location loc) {
  functions_.push_back(std::make_unique<Function>(std::move(name), std::move(loc)));
  return functions_.back().get();
}

Function *Module::lookup(std::string_view name) const {
  for (const auto &f : functions_)
    if (f && f->name() == name)
      return f.get();
  return nullptr;
}

std::string opSummary(const Operation &op) {
  std::string summary = strCat("%", op.result()->name(), " = ", op.mnemonic());
  if (op.loc().origin)
    summary += strCat(" from ", *op.loc().origin);
  return summary;
}

std::string opSourceSummary(const Operation &op) {
  std::string summary = opSummary(op);
  if (!op.loc().origin && op.loc().known())
    summary += strCat(" at ", op.loc().str());
  return summary;
}

} // namespace xs
