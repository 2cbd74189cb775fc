// Partitions a canonicalized function into kernels, library steps (dot) and
// aliases (reshape), and builds the host plan that runs them. Unfused, every
// memory-intensive op is a kernel (the baseline); with fusion, every run of
// memory-intensive ops between library ops is one stitch scope planned by
// StitchPlanner.h. Thread mappings come from PlanMapping.cpp, symbols and
// liveness slots from PlanHost.cpp.

#include "transforms/PlanProgram.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/Interpreter.h"
#include "ir/ValueFacts.h"
#include "ir/Verifier.h"
#include "transforms/BlockBuffers.h"
#include "transforms/PlanInternal.h"
#include "transforms/StitchPlanner.h"

namespace xs {

namespace {

/// The checks of an op that the interpreter refuses for some dims (reflect
/// padding as wide as the dim, edge padding of an empty dim, top_k of more
/// elements than its dim has), unless its dims are constants that pass.
std::vector<HostCheck> dimChecksOf(const Operation &op) {
  std::vector<HostCheck> checks;
  if (op.kind() == OpKind::TopK) {
    auto dim = static_cast<int>(op.intAttrOr("dim", 0));
    HostCheck check;
    check.kind = HostCheck::Kind::TopKBeyondDim;
    check.bound = op.operand(0)->type().dim(dim);
    check.axis = dim;
    check.amount = op.intAttrOr("k", 0);
    if (!check.bound.constantValue()) // constants were checked by the type rule
      checks.push_back(std::move(check));
    return checks;
  }
  std::string mode = op.enumAttrOr("mode", "constant");
  if (op.kind() != OpKind::Pad || mode == "constant")
    return checks;
  const std::vector<int64_t> &low = op.attr("low")->getIntList();
  const std::vector<int64_t> &high = op.attr("high")->getIntList();
  for (size_t d = 0; d < low.size() && d < high.size(); ++d) {
    if (low[d] + high[d] == 0)
      continue;
    const DimExpr &size = op.operand(0)->type().dim(static_cast<int64_t>(d));
    std::optional<int64_t> known = size.constantValue();
    HostCheck check;
    check.bound = size;
    check.axis = static_cast<int>(d);
    check.amount = std::max(low[d], high[d]);
    if (mode == "reflect") {
      if (known && check.amount < *known)
        continue;
      check.kind = HostCheck::Kind::ReflectPadTooWide;
    } else {
      if (known && *known > 0)
        continue;
      check.kind = HostCheck::Kind::EdgePadOfEmpty;
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

/// The data check `op` needs in compiled code (HostCheck), if any: integer
/// division and remainder by a divisor that may be zero, integer powers of
/// a base that may be zero by an exponent that may be negative, and every
/// indexed read.
std::optional<HostCheck::Kind> dataCheckOf(const Operation &op) {
  auto constantOperand = [&](size_t i) { return splatValue(*op.operand(i)); };
  switch (op.kind()) {
  case OpKind::Div:
  case OpKind::Rem:
    if (!isInteger(op.type().elementType()))
      return std::nullopt;
    if (std::optional<double> divisor = constantOperand(1); divisor && *divisor != 0)
      return std::nullopt;
    return HostCheck::Kind::DivisionByZero;
  case OpKind::Pow: {
    if (!isInteger(op.type().elementType()))
      return std::nullopt;
    std::optional<double> base = constantOperand(0), exponent = constantOperand(1);
    if ((base && *base != 0) || (exponent && *exponent >= 0))
      return std::nullopt;
    return HostCheck::Kind::ZeroToNegativePower;
  }
  case OpKind::Gather:
  case OpKind::TakeAlongAxis:
    return HostCheck::Kind::IndexOutOfRange;
  default:
    return std::nullopt;
  }
}

class ProgramPlanner {
public:
  ProgramPlanner(const Function &function, const TargetDescription &target,
                 const PlanOptions &options)
      : function_(function), target_(target), fusion_(options.fusion),
        dataChecks_(options.dataChecks) {}

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
  /// One kernel computing the ops of a stitch scope (program order); values
  /// used after it get buffers. `forcedResult` >= 0: one op whose result
  /// goes to that buffer.
  absl::Status planScope(const std::vector<const Operation *> &ops,
                         std::vector<std::string> summaries, int forcedResult = -1);
  /// Whether `op` becomes part of a kernel (not a library step, an alias, a
  /// constant buffer or a splat constant cloned where it is read).
  bool isKernelOp(const Operation &op) const;
  /// Plans the pending stitch scope, if any.
  absl::Status flushScope();
  std::vector<const Operation *> programOrder() const;
  /// The function's ops ordered so that memory-intensive ops separated by
  /// the same number of library ops are adjacent (one stitch scope each,
  /// unrelated ones packed together), library ops after the scope that
  /// feeds them; a topological order.
  std::vector<const Operation *> scopeOrder() const;
  /// A kernel copying `source` into a fresh Output buffer for result `index`.
  absl::Status planResultCopy(const Value &source, size_t index);
  std::string freshBufferName(const std::string &wanted);
  /// Kernels that compile to the same code (the same kernelCodeKey) run the
  /// first one's symbols: it is compiled once.
  void shareIdenticalKernels();
  void collectChecks();

  const Function &function_;
  const TargetDescription &target_;
  bool fusion_;
  bool dataChecks_;
  ProgramPlan plan_;
  /// Users of each value, and the values the function returns.
  absl::flat_hash_map<const Value *, std::vector<const Operation *>> users_;
  absl::flat_hash_set<const Value *> returned_;
  /// Values a returned reshape views (ONNX graphs end in Reshape, Flatten
  /// or a view): the step computing one writes it into that result's
  /// buffer, and the reshape is a view of it instead of a copy.
  absl::flat_hash_map<const Value *, int> viewedResult_;
  /// Whether `op` is the returned reshape of a value in viewedResult_.
  bool viewsResult(const Operation &op) const;
  void findViewedResults();
  std::vector<const Operation *> scope_; // fusion: the scope being collected
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

void ProgramPlanner::findViewedResults() {
  absl::flat_hash_map<const Value *, int> timesReturned;
  for (const FunctionResult &r : function_.results())
    ++timesReturned[r.value];
  const std::vector<FunctionResult> &results = function_.results();
  for (size_t r = 0; r < results.size(); ++r) {
    const Value *value = results[r].value;
    const Operation *reshape = value->definingOp();
    // Read by nothing else: a view read by a kernel of its scope would be
    // that kernel's operand before its buffer is written.
    if (reshape == nullptr || reshape->kind() != OpKind::Reshape || timesReturned[value] != 1 ||
        users_.contains(value))
      continue;
    const Value *source = reshape->operand(0);
    const Operation *def = source->definingOp();
    // Parameters, constants and views own no buffer a step writes.
    if (def == nullptr || def->kind() == OpKind::Constant || def->kind() == OpKind::Reshape ||
        returned_.contains(source) || viewedResult_.contains(source))
      continue;
    // The kernel walks the value's rows instead of the result's: only where
    // they are as long (dims split, as collapse-dims's [B, C, H*W] back to
    // [B, C, H, W]), not where the reshape merges short rows into long ones
    // (a nearest upsample's [.., W, 2] into [.., 2*W]: rows of 2).
    const std::vector<DimExpr> &from = source->type().shape();
    const std::vector<DimExpr> &to = value->type().shape();
    if (!from.empty() && !to.empty() && !DimExpr::exactDiv(from.back(), to.back()))
      continue;
    viewedResult_[source] = static_cast<int>(r);
  }
}

bool ProgramPlanner::viewsResult(const Operation &op) const {
  if (op.kind() != OpKind::Reshape)
    return false;
  auto it = viewedResult_.find(op.operand(0));
  return it != viewedResult_.end() &&
         function_.results()[static_cast<size_t>(it->second)].value == op.result();
}

int ProgramPlanner::addValueBuffer(const Value &value) {
  HostBuffer buffer;
  buffer.name = value.name();
  buffer.type = value.type();
  buffer.kind = HostBuffer::Kind::Temporary;
  if (auto viewed = viewedResult_.find(&value); viewed != viewedResult_.end()) {
    buffer.kind = HostBuffer::Kind::Output;
    buffer.resultIndex = viewed->second;
  }
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
  return planScope({&op}, {std::move(summary)}, resultBuffer);
}

absl::Status ProgramPlanner::planScope(const std::vector<const Operation *> &ops,
                                       std::vector<std::string> summaries, int forcedResult) {
  absl::flat_hash_set<const Operation *> inScope(ops.begin(), ops.end());
  KernelPlan kernel;
  kernel.name = strCat("k", plan_.kernels.size(), "_", ops.back()->mnemonic());
  kernel.body = std::make_unique<Function>(kernel.name, function_.loc());
  Function &body = *kernel.body;
  body.constraints() = function_.constraints();

  HostStep step;
  step.kind = HostStep::Kind::Launch;
  step.kernel = kernel.name;
  absl::flat_hash_map<const Value *, Value *> inBody;
  // Parameters first, in operand order; splat constants are cloned in
  // instead, since recomputing a literal costs nothing.
  for (const Operation *op : ops)
    for (Value *operand : op->operands()) {
      if (inBody.contains(operand) ||
          (operand->definingOp() && inScope.contains(operand->definingOp())) ||
          (operand->definingOp() && isScalarConstant(*operand->definingOp())))
        continue;
      inBody[operand] = body.addParam(operand->name(), operand->type(), operand->loc());
      step.buffers.push_back(bufferOf_.at(operand));
    }
  std::vector<std::pair<const Value *, int>> results;
  for (const Operation *op : ops) {
    for (Value *operand : op->operands()) {
      if (inBody.contains(operand))
        continue;
      const Operation &constant = *operand->definingOp();
      inBody[operand] = body.createOp(OpKind::Constant, {}, constant.attrs(), constant.type(),
                                      constant.loc(), operand->name())
                            ->result();
    }
    std::vector<Value *> operands;
    for (Value *operand : op->operands())
      operands.push_back(inBody.at(operand));
    const Value *result = op->result();
    int buffer = forcedResult;
    if (forcedResult < 0) {
      // A value leaves the kernel when something after it reads it, the
      // function returns it, or nothing reads it at all.
      auto users = users_.find(result);
      bool leaves = returned_.contains(result) || users == users_.end() || users->second.empty();
      if (users != users_.end())
        for (const Operation *user : users->second)
          leaves |= !inScope.contains(user);
      if (leaves)
        buffer = addValueBuffer(*result);
    }
    std::string name =
        buffer >= 0 ? plan_.host.buffers[static_cast<size_t>(buffer)].name : result->name();
    Operation *cloned =
        body.createOp(op->kind(), std::move(operands), op->attrs(), op->type(), op->loc(), name);
    inBody[result] = cloned->result();
    if (buffer >= 0) {
      const HostBuffer &out = plan_.host.buffers[static_cast<size_t>(buffer)];
      body.results().push_back(FunctionResult{out.name, cloned->result(), out.type, op->loc()});
      results.emplace_back(cloned->result(), buffer);
    }
  }
  for (const auto &[value, buffer] : results)
    step.buffers.push_back(buffer);

  if (absl::Status s = verifyFunction(body); !s.ok())
    return absl::InternalError(
        strCat("the body of kernel ", kernel.name, " does not verify: ", s.message()));

  // One op alone has one group, unless a split reduction needs the group
  // that combines its partials.
  const Operation &last = *body.ops().back();
  if (ops.size() == 1 && !plan::splitColumnVariant(last, target_) &&
      !plan::splitRowVariant(last, target_)) {
    kernel.variants = plan::planVariants(*body.ops().back(), target_);
  } else {
    plan::StitchedKernel stitched = plan::planStitchedKernel(body, target_);
    kernel.variants = std::move(stitched.variants);
    kernel.scratch = std::move(stitched.scratch);
    kernel.partials = std::move(stitched.partials);
  }
  if (kernel.variants.empty())
    return absl::InternalError(strCat("kernel ", kernel.name, " has no variant"));
  for (const Value *scratch : kernel.scratch) {
    HostBuffer buffer{freshBufferName(scratch->name()), scratch->type(),
                      HostBuffer::Kind::Temporary};
    step.buffers.push_back(addBuffer(std::move(buffer)));
  }
  for (const PlanPartials &partials : kernel.partials) {
    HostBuffer buffer{freshBufferName(partials.reduction->name() + "_partials"),
                      TensorType(partials.type, {partials.blocks, partials.cols}),
                      HostBuffer::Kind::Temporary};
    step.buffers.push_back(addBuffer(std::move(buffer)));
  }
  kernel.minimumBytes = DimExpr(0);
  for (const auto &param : body.params())
    kernel.minimumBytes = kernel.minimumBytes + plan::tensorBytes(param->type());
  for (const FunctionResult &result : body.results())
    kernel.minimumBytes = kernel.minimumBytes + plan::tensorBytes(result.value->type());

  // Vertical packing: a grid of many blocks runs as about tasksPerUnit
  // tasks per parallel unit, each over consecutive blocks.
  if (int64_t tasks = target_.tasksPerUnit * std::max<int64_t>(target_.parallelUnits, 1);
      target_.tasksPerUnit > 0 && tasks > 1)
    for (KernelVariant &v : kernel.variants)
      v.blocksPerTask = DimExpr::ceilDiv(v.grid, tasks);
  for (size_t i = 0; i < kernel.variants.size(); ++i) {
    const KernelVariant &v = kernel.variants[i];
    // The symbol format matches kernelSymbol() in backends/common/KernelEmitter.h.
    int64_t lanes = blockLanes(v);
    int phases = static_cast<int>(v.phases.size());
    step.variants.push_back(
        HostLaunchVariant{v.predicates, strCat(kernel.name, ".v", i), v.grid, phases,
                          v.blocksPerTask, phaseBlockBufferBytes(v, target_), lanes,
                          target_.gridBarrier && phases > 1, v.hasOwnBlockGroups()});
  }
  step.ops = std::move(summaries);
  step.minimumBytes = kernel.minimumBytes;
  plan_.host.steps.push_back(std::move(step));
  plan_.kernels.push_back(std::move(kernel));
  return absl::OkStatus();
}

std::vector<const Operation *> ProgramPlanner::programOrder() const {
  std::vector<const Operation *> ops;
  for (const auto &op : function_.ops())
    ops.push_back(op.get());
  return ops;
}

std::vector<const Operation *> ProgramPlanner::scopeOrder() const {
  // The level of a value is the number of library ops on the longest path
  // from the parameters to it. Two memory-intensive ops of one level are
  // never connected through a library op, so one kernel may hold both.
  // A memory-intensive op then moves as late as its readers allow (a bias
  // broadcast joins the kernel that adds it, not the first one).
  const auto &ops = function_.ops();
  absl::flat_hash_map<const Value *, int> earliest;
  std::vector<int> level(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    int l = 0;
    for (const Value *operand : ops[i]->operands())
      if (auto it = earliest.find(operand); it != earliest.end())
        l = std::max(l, it->second);
    bool library = ops[i]->info().category == OpCategory::Library;
    earliest[ops[i]->result()] = library ? l + 1 : l;
    level[i] = l;
  }
  absl::flat_hash_map<const Operation *, size_t> position;
  for (size_t i = 0; i < ops.size(); ++i)
    position[ops[i].get()] = i;
  for (size_t i = ops.size(); i-- > 0;) {
    if (ops[i]->info().category == OpCategory::Library || returned_.contains(ops[i]->result()))
      continue;
    auto users = users_.find(ops[i]->result());
    if (users == users_.end() || users->second.empty())
      continue;
    int latest = std::numeric_limits<int>::max();
    for (const Operation *user : users->second)
      latest = std::min(latest, level[position.at(user)]);
    level[i] = std::max(level[i], latest);
  }
  // (level, library, program position): sorting keeps program order within
  // a level, library ops after the level's kernel.
  std::vector<std::pair<std::tuple<int, int, size_t>, const Operation *>> keyed;
  for (size_t i = 0; i < ops.size(); ++i) {
    bool library = ops[i]->info().category == OpCategory::Library;
    keyed.push_back({{level[i], library ? 1 : 0, i}, ops[i].get()});
  }
  std::sort(keyed.begin(), keyed.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<const Operation *> ordered;
  for (const auto &[key, op] : keyed)
    ordered.push_back(op);
  return ordered;
}

bool ProgramPlanner::isKernelOp(const Operation &op) const {
  if (op.info().category == OpCategory::Library)
    return false;
  if (op.kind() == OpKind::Constant)
    return isScalarConstant(op) &&
           (returned_.contains(op.result()) || materialize_.contains(op.result()));
  return true;
}

absl::Status ProgramPlanner::flushScope() {
  if (scope_.empty())
    return absl::OkStatus();
  // A reshape that only later steps read becomes a view of the kernel's
  // result instead of a second copy of it.
  absl::flat_hash_set<const Operation *> inScope(scope_.begin(), scope_.end());
  std::vector<const Operation *> scope, views;
  for (const Operation *op : scope_) {
    bool readLater = !returned_.contains(op->result());
    if (auto users = users_.find(op->result()); users != users_.end())
      for (const Operation *user : users->second)
        readLater = readLater && !inScope.contains(user);
    else
      readLater = false;
    bool view = op->kind() == OpKind::Reshape && (readLater || viewsResult(*op)) &&
                op->operand(0)->definingOp() && inScope.contains(op->operand(0)->definingOp());
    (view ? views : scope).push_back(op);
  }
  scope_.clear();
  if (!scope.empty()) {
    std::vector<std::string> summaries;
    for (const Operation *op : scope)
      summaries.push_back(opSummary(*op));
    if (absl::Status s = planScope(scope, std::move(summaries)); !s.ok())
      return s;
  }
  for (const Operation *op : views)
    planAlias(*op);
  return absl::OkStatus();
}

absl::Status ProgramPlanner::planDenseConstant(const Operation &op) {
  std::shared_ptr<const DenseElements> elements;
  const LiteralValue &literal = op.attr("value")->getLiteral();
  if (literal.elements && literal.elements->elementType() == op.type().elementType()) {
    elements = literal.elements; // weights: shared, not copied
  } else {
    absl::StatusOr<HostTensor> values = evaluateOp(op, {}, {});
    if (!values.ok())
      return values.status();
    elements = DenseElements::fromHostTensor(*values);
  }
  int index = addBuffer(HostBuffer{op.result()->name(), op.type(), HostBuffer::Kind::Constant});
  plan_.host.buffers[index].constant = std::move(elements);
  if (op.loc().origin)
    plan_.host.buffers[index].origin = *op.loc().origin;
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
    if (!isScalarConstant(op))
      return planDenseConstant(op);
    // A splat is cloned into each kernel that reads it; it gets a buffer of
    // its own only when the caller or a library op needs one.
    if (!returned && !materialize_.contains(result))
      return absl::OkStatus();
  }
  if (op.kind() == OpKind::Reshape && (!returned || viewsResult(op)) &&
      bufferOf_.contains(op.operand(0))) {
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
  plan_.target = target_;
  HostPlan &host = plan_.host;
  host.function = function_.name();
  host.constraints = function_.constraints();
  host.hostSymbols = function_.sharedHostSymbols();
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
    for (const Value *operand : op->operands())
      users_[operand].push_back(op.get());
  for (const FunctionResult &r : function_.results())
    returned_.insert(r.value);
  findViewedResults();

  for (const Operation *op : fusion_ ? scopeOrder() : programOrder()) {
    if (!fusion_) {
      if (absl::Status s = planOp(*op); !s.ok())
        return s;
      continue;
    }
    // A reshape of data already in memory stays a view; anything else a
    // kernel computes joins the scope; a library op ends the scope.
    bool alias = op->kind() == OpKind::Reshape &&
                 (!returned_.contains(op->result()) || viewsResult(*op)) &&
                 bufferOf_.contains(op->operand(0));
    if (!alias && isKernelOp(*op)) {
      scope_.push_back(op);
      continue;
    }
    if (op->info().category == OpCategory::Library)
      if (absl::Status s = flushScope(); !s.ok())
        return s;
    if (absl::Status s = planOp(*op); !s.ok())
      return s;
  }
  if (absl::Status s = flushScope(); !s.ok())
    return s;

  // Every output is a fresh buffer of its own: a parameter, a constant or a
  // value returned twice is copied.
  const std::vector<FunctionResult> &results = function_.results();
  host.outputs.assign(results.size(), -1);
  for (size_t r = 0; r < results.size(); ++r) {
    const Value &value = *results[r].value;
    auto it = bufferOf_.find(&value);
    // The result's own buffer, or a view of it (viewedResult_).
    const HostBuffer *owner = it != bufferOf_.end() ? &host.buffers[it->second] : nullptr;
    if (owner != nullptr && owner->kind == HostBuffer::Kind::Alias)
      owner = &host.buffers[owner->aliasOf];
    if (owner != nullptr && owner->kind == HostBuffer::Kind::Output &&
        owner->resultIndex == static_cast<int>(r)) {
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
      planExprs.push_back(v.blocksPerTask);
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
  shareIdenticalKernels();
  if (dataChecks_)
    collectChecks();
  return std::move(plan_);
}

void ProgramPlanner::collectChecks() {
  for (const KernelPlan &kernel : plan_.kernels) {
    if (!kernel.codeOf.empty() || !kernel.body)
      continue;
    std::vector<std::string> sharedBy;
    for (const KernelPlan &other : plan_.kernels)
      if (other.codeOf == kernel.name)
        sharedBy.push_back(other.name);
    int index = 0;
    for (const auto &op : kernel.body->ops()) {
      std::vector<HostCheck> checks = dimChecksOf(*op);
      if (std::optional<HostCheck::Kind> kind = dataCheckOf(*op)) {
        HostCheck check;
        check.kind = *kind;
        if (*kind == HostCheck::Kind::IndexOutOfRange) {
          check.axis = static_cast<int>(op->intAttrOr("dim", 0));
          check.bound = op->operand(0)->type().dim(check.axis);
          // Indices the graph clamps are in range unless the dim is empty:
          // a question of dims, asked on the host.
          if (isClampedIndex(*op->operand(1), check.bound)) {
            check.kind = HostCheck::Kind::ClampedIndexOfEmpty;
            check.elements = op->operand(1)->type().numElements();
          }
        }
        std::optional<int64_t> size = check.bound.constantValue();
        if (check.kind != HostCheck::Kind::ClampedIndexOfEmpty || !size || *size == 0)
          checks.push_back(std::move(check));
      }
      for (HostCheck &check : checks) {
        check.kernel = kernel.name;
        check.opIndex = index;
        check.op = opSummary(*op);
        check.sharedBy = sharedBy;
        plan_.host.checks.push_back(std::move(check));
      }
      ++index;
    }
  }
}

void ProgramPlanner::shareIdenticalKernels() {
  absl::flat_hash_map<std::string, const KernelPlan *> first;
  for (KernelPlan &kernel : plan_.kernels) {
    auto [it, inserted] = first.try_emplace(kernelCodeKey(kernel), &kernel);
    if (inserted)
      continue;
    const KernelPlan &original = *it->second;
    kernel.codeOf = original.name;
    const HostStep *originalStep = nullptr;
    for (const HostStep &step : plan_.host.steps)
      if (step.kind == HostStep::Kind::Launch && step.kernel == original.name)
        originalStep = &step;
    assert(originalStep && "every kernel has its launch");
    for (HostStep &step : plan_.host.steps)
      if (step.kind == HostStep::Kind::Launch && step.kernel == kernel.name)
        for (size_t v = 0; v < step.variants.size(); ++v)
          step.variants[v].symbol = originalStep->variants[v].symbol;
  }
}

} // namespace

absl::StatusOr<ProgramPlan> planProgram(const Function &function, const TargetDescription &target,
                                        const PlanOptions &options) {
  // Kernels index a broadcast operand as size 1 or as the full dim, never
  // "either": such a function is planned one speculated variant at a time.
  if (std::vector<ConstraintStore::Broadcast> open = function.constraints().broadcasts();
      !open.empty())
    return errorAt(function.loc(),
                   strCat("@", function.name(), " has dims that meet in a broadcast (",
                          open[0].result, " == broadcast(", open[0].a.str(), ", ", open[0].b.str(),
                          ")); compile it through the driver, which plans one variant per relation "
                          "(transforms/SpeculateBroadcasts.h)"));
  return ProgramPlanner(function, target, options).run();
}

} // namespace xs
