// Partitions a canonicalized function into one kernel per memory-intensive
// op (the unfused baseline), library steps (dot) and aliases (reshape), and
// builds the host plan that runs them. Thread mappings come from
// PlanMapping.cpp, symbols and liveness slots from PlanHost.cpp.

#include "transforms/PlanProgram.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/Interpreter.h"
#include "ir/Verifier.h"
#include "transforms/PlanInternal.h"

namespace xs {

namespace {

bool isSplatConstant(const Operation &op) {
  return op.kind() == OpKind::Constant && op.attr("value") &&
         op.attr("value")->getLiteral().shape.empty();
}

std::string opSummary(const Operation &op) {
  return strCat("%", op.result()->name(), " = ", op.mnemonic());
}

class ProgramPlanner {
public:
  ProgramPlanner(const Function &function, const TargetDescription &target)
      : function_(function), target_(target) {}

  absl::StatusOr<ProgramPlan> run();

private:
  absl::Status checkPreconditions() const;
  /// The buffer a new value gets: an Output when a function result returns
  /// it (the first such result), else a Temporary.
  int addValueBuffer(const Value &value);
  int addBuffer(HostBuffer buffer);
  absl::Status planOp(const Operation &op);
  absl::Status planDenseConstant(const Operation &op);
  void planAlias(const Operation &op);
  void planLibrary(const Operation &op);
  /// One kernel computing `op`; its result goes to `resultBuffer`.
  absl::Status planKernel(const Operation &op, int resultBuffer, std::string summary);
  /// A kernel copying `source` into a fresh Output buffer for result `index`.
  absl::Status planResultCopy(const Value &source, size_t index);
  std::string freshBufferName(const std::string &wanted);

  const Function &function_;
  const TargetDescription &target_;
  ProgramPlan plan_;
  absl::flat_hash_map<const Value *, int> bufferOf_;
  absl::flat_hash_set<std::string> bufferNames_;
  /// Splat constants that need a buffer (a library op reads them).
  absl::flat_hash_set<const Value *> materialize_;
};

absl::Status ProgramPlanner::checkPreconditions() const {
  for (const auto &param : function_.params())
    if (!param->type().known())
      return errorAtCat(param->loc(), "cannot plan kernels: the type of parameter %", param->name(),
                        " is unknown");
  for (const auto &op : function_.ops()) {
    if (!op->type().known())
      return errorAtCat(op->loc(), "cannot plan kernels: the type of %", op->result()->name(),
                        " = ", op->mnemonic(), " is unknown; run shape-inference first");
    if (op->info().category == OpCategory::Composite)
      return errorAtCat(op->loc(), "cannot plan kernels for composite op '", op->mnemonic(), "' (%",
                        op->result()->name(), "); run the decompose pass first");
  }
  return absl::OkStatus();
}

std::string ProgramPlanner::freshBufferName(const std::string &wanted) {
  std::string name = wanted;
  for (int i = 0; function_.nameInUse(name) || bufferNames_.contains(name); ++i)
    name = i == 0 ? strCat(wanted, "_copy") : strCat(wanted, "_copy", i);
  return name;
}

int ProgramPlanner::addBuffer(HostBuffer buffer) {
  bufferNames_.insert(buffer.name);
  plan_.host.buffers.push_back(std::move(buffer));
  return static_cast<int>(plan_.host.buffers.size()) - 1;
}

int ProgramPlanner::addValueBuffer(const Value &value) {
  HostBuffer buffer;
  buffer.name = value.name();
  buffer.type = value.type();
  buffer.kind = HostBuffer::Kind::Temporary;
  const std::vector<FunctionResult> &results = function_.results();
  for (size_t r = 0; r < results.size(); ++r)
    if (results[r].value == &value) {
      buffer.kind = HostBuffer::Kind::Output;
      buffer.resultIndex = static_cast<int>(r);
      break;
    }
  int index = addBuffer(std::move(buffer));
  bufferOf_[&value] = index;
  return index;
}

absl::Status ProgramPlanner::planKernel(const Operation &op, int resultBuffer,
                                        std::string summary) {
  KernelPlan kernel;
  kernel.name = strCat("k", plan_.kernels.size(), "_", op.mnemonic());
  kernel.body = std::make_unique<Function>(kernel.name, function_.loc());
  Function &body = *kernel.body;
  body.constraints() = function_.constraints();

  HostStep step;
  step.kind = HostStep::Kind::Launch;
  step.kernel = kernel.name;
  absl::flat_hash_map<const Value *, Value *> inBody;
  // Parameters first, in operand order; splat constants are cloned in
  // instead, since recomputing a literal costs nothing.
  for (Value *operand : op.operands()) {
    if (inBody.contains(operand) ||
        (operand->definingOp() && isSplatConstant(*operand->definingOp())))
      continue;
    inBody[operand] = body.addParam(operand->name(), operand->type(), operand->loc());
    step.buffers.push_back(bufferOf_.at(operand));
  }
  for (Value *operand : op.operands()) {
    if (inBody.contains(operand))
      continue;
    const Operation &constant = *operand->definingOp();
    inBody[operand] = body.createOp(OpKind::Constant, {}, constant.attrs(), constant.type(),
                                    constant.loc(), operand->name())
                          ->result();
  }
  std::vector<Value *> operands;
  for (Value *operand : op.operands())
    operands.push_back(inBody.at(operand));
  const HostBuffer &out = plan_.host.buffers[resultBuffer];
  Operation *dominant =
      body.createOp(op.kind(), std::move(operands), op.attrs(), op.type(), op.loc(), out.name);
  body.results().push_back(FunctionResult{out.name, dominant->result(), out.type, op.loc()});
  step.buffers.push_back(resultBuffer);

  if (absl::Status s = verifyFunction(body); !s.ok())
    return absl::InternalError(
        strCat("the body of kernel ", kernel.name, " does not verify: ", s.message()));

  kernel.variants = plan::planVariants(*dominant, target_);
  kernel.minimumBytes = DimExpr(0);
  for (const auto &param : body.params())
    kernel.minimumBytes = kernel.minimumBytes + plan::tensorBytes(param->type());
  for (const FunctionResult &result : body.results())
    kernel.minimumBytes = kernel.minimumBytes + plan::tensorBytes(result.value->type());

  for (size_t i = 0; i < kernel.variants.size(); ++i) {
    const KernelVariant &v = kernel.variants[i];
    // The symbol format matches kernelSymbol() in backends/common/KernelEmitter.h.
    step.variants.push_back(HostLaunchVariant{v.predicates, strCat(kernel.name, ".v", i), v.grid});
  }
  step.ops.push_back(std::move(summary));
  step.minimumBytes = kernel.minimumBytes;
  plan_.host.steps.push_back(std::move(step));
  plan_.kernels.push_back(std::move(kernel));
  return absl::OkStatus();
}

absl::Status ProgramPlanner::planDenseConstant(const Operation &op) {
  absl::StatusOr<HostTensor> values = evaluateOp(op, {}, {});
  if (!values.ok())
    return values.status();
  int index = addBuffer(HostBuffer{op.result()->name(), op.type(), HostBuffer::Kind::Constant});
  plan_.host.buffers[index].constant = *std::move(values);
  bufferOf_[op.result()] = index;
  return absl::OkStatus();
}

void ProgramPlanner::planAlias(const Operation &op) {
  int source = bufferOf_.at(op.operand(0));
  HostBuffer alias{op.result()->name(), op.type(), HostBuffer::Kind::Alias};
  // Point at the buffer that owns the memory, so the runtime never chases chains.
  alias.aliasOf = source;
  while (plan_.host.buffers[alias.aliasOf].kind == HostBuffer::Kind::Alias)
    alias.aliasOf = plan_.host.buffers[alias.aliasOf].aliasOf;
  int index = addBuffer(std::move(alias));
  bufferOf_[op.result()] = index;
  HostStep step;
  step.kind = HostStep::Kind::Alias;
  step.buffers = {source, index};
  step.ops.push_back(opSummary(op));
  step.minimumBytes = DimExpr(0);
  plan_.host.steps.push_back(std::move(step));
}

void ProgramPlanner::planLibrary(const Operation &op) {
  HostStep step;
  step.kind = HostStep::Kind::Library;
  step.libraryOp = op.kind();
  step.minimumBytes = plan::tensorBytes(op.type());
  for (Value *operand : op.operands()) {
    step.buffers.push_back(bufferOf_.at(operand));
    step.minimumBytes = step.minimumBytes + plan::tensorBytes(operand->type());
  }
  step.buffers.push_back(addValueBuffer(*op.result()));
  step.ops.push_back(opSummary(op));
  plan_.host.steps.push_back(std::move(step));
}

absl::Status ProgramPlanner::planOp(const Operation &op) {
  const Value *result = op.result();
  bool returned = false;
  for (const FunctionResult &r : function_.results())
    returned |= r.value == result;

  if (op.kind() == OpKind::Constant) {
    if (!isSplatConstant(op))
      return planDenseConstant(op);
    // A splat is cloned into each kernel that reads it; it gets a buffer of
    // its own only when the caller or a library op needs one.
    if (!returned && !materialize_.contains(result))
      return absl::OkStatus();
  }
  if (op.kind() == OpKind::Reshape && !returned && bufferOf_.contains(op.operand(0))) {
    // Row-major data is unchanged by a reshape: view the operand's buffer.
    planAlias(op);
    return absl::OkStatus();
  }
  if (op.info().category == OpCategory::Library) {
    planLibrary(op);
    return absl::OkStatus();
  }
  return planKernel(op, addValueBuffer(*result), opSummary(op));
}

absl::Status ProgramPlanner::planResultCopy(const Value &source, size_t index) {
  const FunctionResult &result = function_.results()[index];
  HostBuffer out{freshBufferName(result.name), source.type(), HostBuffer::Kind::Output};
  out.resultIndex = static_cast<int>(index);
  int buffer = addBuffer(std::move(out));
  plan_.host.outputs[index] = buffer;

  // The copy is a reshape to the same type, computed by a kernel of its own
  // on a scratch function that holds only the source value.
  Function scratch("copy", function_.loc());
  Value *param = scratch.addParam(source.name(), source.type(), source.loc());
  Operation *copy = scratch.createOp(OpKind::Reshape, {param}, {}, source.type(), result.loc,
                                     plan_.host.buffers[buffer].name);
  bufferOf_[param] = bufferOf_.at(&source);
  absl::Status planned = planKernel(
      *copy, buffer, strCat("%", plan_.host.buffers[buffer].name, " = copy %", source.name()));
  bufferOf_.erase(param);
  return planned;
}

absl::StatusOr<ProgramPlan> ProgramPlanner::run() {
  if (absl::Status s = checkPreconditions(); !s.ok())
    return s;
  HostPlan &host = plan_.host;
  host.function = function_.name();
  host.constraints = function_.constraints();
  for (const auto &param : function_.params()) {
    host.paramTypes.push_back(param->type());
    HostBuffer buffer{param->name(), param->type(), HostBuffer::Kind::Input};
    buffer.paramIndex = param->paramIndex();
    bufferOf_[param.get()] = addBuffer(std::move(buffer));
  }
  for (const auto &op : function_.ops())
    if (op->info().category == OpCategory::Library)
      for (const Value *operand : op->operands())
        materialize_.insert(operand);

  for (const auto &op : function_.ops())
    if (absl::Status s = planOp(*op); !s.ok())
      return s;

  // Every output is a fresh buffer of its own: a parameter, a constant or a
  // value returned twice is copied.
  const std::vector<FunctionResult> &results = function_.results();
  host.outputs.assign(results.size(), -1);
  for (size_t r = 0; r < results.size(); ++r) {
    const Value &value = *results[r].value;
    auto it = bufferOf_.find(&value);
    if (it != bufferOf_.end() && host.buffers[it->second].kind == HostBuffer::Kind::Output &&
        host.buffers[it->second].resultIndex == static_cast<int>(r)) {
      host.outputs[r] = it->second;
      continue;
    }
    if (absl::Status s = planResultCopy(value, r); !s.ok())
      return s;
  }

  std::vector<DimExpr> planExprs;
  for (const KernelPlan &kernel : plan_.kernels) {
    planExprs.push_back(kernel.minimumBytes);
    for (const KernelVariant &v : kernel.variants) {
      planExprs.push_back(v.grid);
      for (const DimPredicate &p : v.predicates) {
        planExprs.push_back(p.lhs);
        planExprs.push_back(p.rhs);
      }
      for (const PlanBuffer &b : v.buffers)
        planExprs.push_back(b.elements);
    }
  }
  if (absl::Status s = plan::collectSymbols(function_, planExprs, host); !s.ok())
    return s;
  plan::assignSlots(host);
  return std::move(plan_);
}

} // namespace

absl::StatusOr<ProgramPlan> planProgram(const Function &function, const TargetDescription &target,
                                        const PlanOptions &options) {
  // Stitching is a later issue: until it lands, fusion or not, one op per
  // kernel.
  (void)options;
  return ProgramPlanner(function, target).run();
}

} // namespace xs
