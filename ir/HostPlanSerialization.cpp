#include "ir/HostPlanSerialization.h"

#include "ir/ByteStream.h"
#include "ir/Diagnostics.h"
#include "ir/HostSymbols.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

namespace xs {
namespace {

// --- writing ---------------------------------------------------------------

void writeDim(const DimExpr &e, ByteWriter &out);

void writeAtom(const DimAtom &atom, ByteWriter &out) {
  out.boolean(atom.isSymbol());
  if (atom.isSymbol()) {
    out.string(atom.symbol);
    return;
  }
  writeDim(*atom.numerator, out);
  out.i64(atom.divisor);
}

void writeDim(const DimExpr &e, ByteWriter &out) {
  out.u64(e.terms().size());
  for (const DimTerm &term : e.terms()) {
    out.i64(term.coefficient);
    out.u64(term.factors.size());
    for (const DimAtom &atom : term.factors)
      writeAtom(atom, out);
  }
}

void writeDims(const std::vector<DimExpr> &dims, ByteWriter &out) {
  out.u64(dims.size());
  for (const DimExpr &d : dims)
    writeDim(d, out);
}

void writeType(const TensorType &type, ByteWriter &out) {
  out.string(elementTypeName(type.elementType()));
  writeDims(type.shape(), out);
}

void writeConstraints(const ConstraintStore &constraints, ByteWriter &out) {
  std::vector<std::string> symbols = constraints.symbolsInOrder();
  out.u64(symbols.size());
  for (const std::string &s : symbols) {
    out.string(s);
    out.boolean(constraints.isHostSymbol(s));
  }
  std::vector<Constraint> facts = constraints.facts();
  out.u64(facts.size());
  for (const Constraint &c : facts) {
    out.u64(static_cast<uint64_t>(c.kind));
    switch (c.kind) {
    case Constraint::Kind::Equal:
      writeDim(c.lhs, out);
      writeDim(c.rhs, out);
      break;
    case Constraint::Kind::Divisible:
      writeDim(c.expr, out);
      out.i64(c.divisor);
      break;
    case Constraint::Kind::Range:
      out.string(c.symbol);
      out.i64(c.range.lo);
      out.i64(c.range.hi);
      break;
    case Constraint::Kind::Broadcast:
      out.string(c.symbol);
      writeDim(c.lhs, out);
      writeDim(c.rhs, out);
      break;
    }
  }
}

void writeBuffer(const HostBuffer &b, ByteWriter &out) {
  out.string(b.name);
  writeType(b.type, out);
  out.u64(static_cast<uint64_t>(b.kind));
  out.i64(b.paramIndex);
  out.i64(b.resultIndex);
  out.i64(b.slot);
  out.i64(b.aliasOf);
  out.boolean(b.constant != nullptr);
  if (b.constant) {
    out.string(elementTypeName(b.constant->elementType()));
    out.i64(b.constant->size());
    out.align(DenseElements::kAlignment);
    out.raw(b.constant->data(), static_cast<size_t>(b.constant->byteSize()));
  }
  out.string(b.origin);
}

void writePredicates(const std::vector<DimPredicate> &predicates, ByteWriter &out) {
  out.u64(predicates.size());
  for (const DimPredicate &p : predicates) {
    writeDim(p.lhs, out);
    out.u64(static_cast<uint64_t>(p.op));
    writeDim(p.rhs, out);
  }
}

void writeVariant(const HostLaunchVariant &v, ByteWriter &out) {
  writePredicates(v.predicates, out);
  out.string(v.symbol);
  writeDim(v.grid, out);
  out.i64(v.phases);
  writeDim(v.blocksPerTask, out);
  out.u64(v.phaseBlockBufferBytes.size());
  for (const DimExpr &bytes : v.phaseBlockBufferBytes)
    writeDim(bytes, out);
  out.i64(v.lanes);
  out.boolean(v.cooperative);
  out.boolean(v.ownBlockGroups);
}

void writeStep(const HostStep &step, ByteWriter &out) {
  out.u64(static_cast<uint64_t>(step.kind));
  out.string(step.kernel);
  out.u64(step.variants.size());
  for (const HostLaunchVariant &v : step.variants)
    writeVariant(v, out);
  out.string(opInfo(step.libraryOp).mnemonic);
  out.u64(step.buffers.size());
  for (int b : step.buffers)
    out.i64(b);
  out.u64(step.ops.size());
  for (const std::string &op : step.ops)
    out.string(op);
  writeDim(step.minimumBytes, out);
}

void writeHostPlan(const HostPlan &plan, ByteWriter &out) {
  out.string(plan.function);
  out.u64(plan.symbols.size());
  for (const std::string &s : plan.symbols)
    out.string(s);
  writeConstraints(plan.constraints, out);
  out.boolean(plan.hostSymbols != nullptr);
  if (plan.hostSymbols) {
    out.u64(plan.hostSymbols->symbols.size());
    for (const std::string &s : plan.hostSymbols->symbols)
      out.string(s);
    out.string(printFunction(*plan.hostSymbols->computation));
  }
  out.u64(plan.paramTypes.size());
  for (const TensorType &t : plan.paramTypes)
    writeType(t, out);
  out.u64(plan.buffers.size());
  for (const HostBuffer &b : plan.buffers)
    writeBuffer(b, out);
  out.u64(plan.steps.size());
  for (const HostStep &s : plan.steps)
    writeStep(s, out);
  out.u64(plan.outputs.size());
  for (int o : plan.outputs)
    out.i64(o);
  out.i64(plan.numSlots);
  out.u64(plan.checks.size());
  for (const HostCheck &c : plan.checks) {
    out.u64(static_cast<uint64_t>(c.kind));
    out.string(c.kernel);
    out.i64(c.opIndex);
    out.string(c.op);
    writeDim(c.bound, out);
    out.i64(c.axis);
    out.i64(c.amount);
    writeDim(c.elements, out);
    out.u64(c.sharedBy.size());
    for (const std::string &k : c.sharedBy)
      out.string(k);
  }
}

// --- reading ---------------------------------------------------------------

absl::Status malformed(std::string_view what) {
  return absl::DataLossError(strCat("malformed program: ", what));
}

/// An enum stored as its integer, at most `last`.
template <typename Enum>
absl::StatusOr<Enum> readEnum(ByteReader &in, Enum last, std::string_view what) {
  XS_ASSIGN_OR_RETURN(uint64_t v, in.u64(what));
  if (v > static_cast<uint64_t>(last))
    return malformed(strCat(what, " ", v, " is out of range"));
  return static_cast<Enum>(v);
}

absl::StatusOr<int> readIndex(ByteReader &in, std::string_view what) {
  XS_ASSIGN_OR_RETURN(int64_t v, in.i64(what));
  if (v < -1 || v > INT32_MAX)
    return malformed(strCat(what, " ", v, " is out of range"));
  return static_cast<int>(v);
}

/// Dims nest through floor divisions; real ones are a few levels deep.
constexpr int kMaxDimDepth = 64;

absl::StatusOr<DimExpr> readDim(ByteReader &in, int depth = 0) {
  if (depth > kMaxDimDepth)
    return malformed("a dim nests too deeply");
  XS_ASSIGN_OR_RETURN(size_t terms, in.count("dim terms", 2));
  DimExpr sum;
  for (size_t t = 0; t < terms; ++t) {
    XS_ASSIGN_OR_RETURN(int64_t coefficient, in.i64("a dim coefficient"));
    XS_ASSIGN_OR_RETURN(size_t factors, in.count("dim factors", 2));
    DimExpr product(coefficient);
    for (size_t f = 0; f < factors; ++f) {
      XS_ASSIGN_OR_RETURN(bool isSymbol, in.boolean("a dim atom"));
      if (isSymbol) {
        XS_ASSIGN_OR_RETURN(std::string_view name, in.string("a dim symbol"));
        if (name.empty())
          return malformed("an empty dim symbol");
        product = product * DimExpr::symbol(name);
        continue;
      }
      XS_ASSIGN_OR_RETURN(DimExpr numerator, readDim(in, depth + 1));
      XS_ASSIGN_OR_RETURN(int64_t divisor, in.i64("a dim divisor"));
      if (divisor < 2)
        return malformed(strCat("dim divisor ", divisor));
      product = product * DimExpr::floorDiv(numerator, divisor);
    }
    sum = sum + product;
  }
  return sum;
}

absl::StatusOr<std::vector<DimExpr>> readDims(ByteReader &in) {
  XS_ASSIGN_OR_RETURN(size_t n, in.count("a shape"));
  std::vector<DimExpr> dims;
  for (size_t i = 0; i < n; ++i) {
    XS_ASSIGN_OR_RETURN(DimExpr d, readDim(in));
    dims.push_back(std::move(d));
  }
  return dims;
}

absl::StatusOr<ElementType> readElementType(ByteReader &in) {
  XS_ASSIGN_OR_RETURN(std::string_view name, in.string("an element type"));
  std::optional<ElementType> type = parseElementType(name);
  if (!type)
    return malformed(strCat("unknown element type '", name, "'"));
  return *type;
}

absl::StatusOr<TensorType> readType(ByteReader &in) {
  XS_ASSIGN_OR_RETURN(ElementType element, readElementType(in));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> shape, readDims(in));
  return TensorType(element, std::move(shape));
}

absl::Status readConstraints(ByteReader &in, ConstraintStore &constraints) {
  XS_ASSIGN_OR_RETURN(size_t symbols, in.count("the symbols", 2));
  for (size_t i = 0; i < symbols; ++i) {
    XS_ASSIGN_OR_RETURN(std::string_view name, in.string("a symbol"));
    XS_ASSIGN_OR_RETURN(bool host, in.boolean("a host-symbol flag"));
    if (host)
      constraints.noteHostSymbol(std::string(name));
    else
      constraints.noteSymbol(std::string(name));
  }
  XS_ASSIGN_OR_RETURN(size_t facts, in.count("the constraints", 2));
  for (size_t i = 0; i < facts; ++i) {
    XS_ASSIGN_OR_RETURN(Constraint::Kind kind,
                        readEnum(in, Constraint::Kind::Broadcast, "a constraint kind"));
    absl::Status added;
    switch (kind) {
    case Constraint::Kind::Equal: {
      XS_ASSIGN_OR_RETURN(DimExpr lhs, readDim(in));
      XS_ASSIGN_OR_RETURN(DimExpr rhs, readDim(in));
      added = constraints.addEqual(lhs, rhs);
      break;
    }
    case Constraint::Kind::Divisible: {
      XS_ASSIGN_OR_RETURN(DimExpr expr, readDim(in));
      XS_ASSIGN_OR_RETURN(int64_t divisor, in.i64("a divisor"));
      if (divisor < 1)
        return malformed(strCat("divisor ", divisor));
      added = constraints.addDivisible(expr, divisor);
      break;
    }
    case Constraint::Kind::Range: {
      XS_ASSIGN_OR_RETURN(std::string_view symbol, in.string("a range's symbol"));
      XS_ASSIGN_OR_RETURN(int64_t lo, in.i64("a range's low end"));
      XS_ASSIGN_OR_RETURN(int64_t hi, in.i64("a range's high end"));
      added = constraints.addRange(std::string(symbol), lo, hi);
      break;
    }
    case Constraint::Kind::Broadcast: {
      XS_ASSIGN_OR_RETURN(std::string_view symbol, in.string("a broadcast's result"));
      XS_ASSIGN_OR_RETURN(DimExpr a, readDim(in));
      XS_ASSIGN_OR_RETURN(DimExpr b, readDim(in));
      added = constraints.addBroadcast(std::string(symbol), a, b);
      break;
    }
    }
    if (!added.ok())
      return malformed(strCat("contradictory constraints: ", added.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const HostSymbols>> readHostSymbols(ByteReader &in) {
  auto hostSymbols = std::make_shared<HostSymbols>();
  XS_ASSIGN_OR_RETURN(size_t n, in.count("the host symbols"));
  for (size_t i = 0; i < n; ++i) {
    XS_ASSIGN_OR_RETURN(std::string_view s, in.string("a host symbol"));
    hostSymbols->symbols.emplace_back(s);
  }
  XS_ASSIGN_OR_RETURN(std::string_view text, in.string("the host-symbol computation"));
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "<host symbols>");
  if (!module.ok())
    return malformed(
        strCat("the host-symbol computation does not parse: ", module.status().message()));
  if ((*module)->functions().size() != 1)
    return malformed("the host-symbol computation is not one function");
  hostSymbols->computation = (*module)->releaseFunction(0);
  if (hostSymbols->computation->results().size() != hostSymbols->symbols.size())
    return malformed("the host-symbol computation does not return one value per symbol");
  return std::shared_ptr<const HostSymbols>(std::move(hostSymbols));
}

absl::StatusOr<HostBuffer> readBuffer(ByteReader &in, const std::shared_ptr<const void> &owner) {
  HostBuffer b;
  XS_ASSIGN_OR_RETURN(std::string_view name, in.string("a buffer name"));
  b.name = std::string(name);
  XS_ASSIGN_OR_RETURN(b.type, readType(in));
  XS_ASSIGN_OR_RETURN(b.kind, readEnum(in, HostBuffer::Kind::Alias, "a buffer kind"));
  XS_ASSIGN_OR_RETURN(b.paramIndex, readIndex(in, "a parameter index"));
  XS_ASSIGN_OR_RETURN(b.resultIndex, readIndex(in, "a result index"));
  XS_ASSIGN_OR_RETURN(b.slot, readIndex(in, "a slot"));
  XS_ASSIGN_OR_RETURN(b.aliasOf, readIndex(in, "an aliased buffer"));
  XS_ASSIGN_OR_RETURN(bool hasConstant, in.boolean("a constant flag"));
  if (hasConstant) {
    XS_ASSIGN_OR_RETURN(ElementType element, readElementType(in));
    XS_ASSIGN_OR_RETURN(int64_t count, in.i64("a constant's size"));
    int64_t elementBytes = elementByteSize(element);
    XS_RETURN_IF_ERROR(in.align(DenseElements::kAlignment, "a constant's padding"));
    if (count < 0 || static_cast<uint64_t>(count) > in.remaining() / elementBytes)
      return malformed(strCat("constant %", b.name, " of ", count, " elements"));
    XS_ASSIGN_OR_RETURN(std::string_view data,
                        in.raw(static_cast<size_t>(count * elementBytes), "a constant"));
    bool aligned = reinterpret_cast<uintptr_t>(data.data()) % DenseElements::kAlignment == 0;
    b.constant = owner && aligned ? DenseElements::viewOf(element, count, data.data(), owner)
                                  : DenseElements::copyOf(element, count, data.data());
  }
  XS_ASSIGN_OR_RETURN(std::string_view origin, in.string("a buffer's origin"));
  b.origin = std::string(origin);
  return b;
}

absl::StatusOr<std::vector<DimPredicate>> readPredicates(ByteReader &in) {
  std::vector<DimPredicate> predicates;
  XS_ASSIGN_OR_RETURN(size_t count, in.count("the predicates", 3));
  for (size_t i = 0; i < count; ++i) {
    DimPredicate p;
    XS_ASSIGN_OR_RETURN(p.lhs, readDim(in));
    XS_ASSIGN_OR_RETURN(p.op, readEnum(in, DimPredicate::Op::NE, "a predicate"));
    XS_ASSIGN_OR_RETURN(p.rhs, readDim(in));
    predicates.push_back(std::move(p));
  }
  return predicates;
}

absl::StatusOr<HostLaunchVariant> readVariant(ByteReader &in) {
  HostLaunchVariant v;
  XS_ASSIGN_OR_RETURN(v.predicates, readPredicates(in));
  XS_ASSIGN_OR_RETURN(std::string_view symbol, in.string("a kernel symbol"));
  v.symbol = std::string(symbol);
  XS_ASSIGN_OR_RETURN(v.grid, readDim(in));
  XS_ASSIGN_OR_RETURN(int64_t phases, in.i64("phases"));
  if (phases < 1 || phases > INT32_MAX)
    return malformed(strCat(phases, " phases"));
  v.phases = static_cast<int>(phases);
  XS_ASSIGN_OR_RETURN(v.blocksPerTask, readDim(in));
  XS_ASSIGN_OR_RETURN(uint64_t bufferPhases, in.u64("block-buffer phases"));
  if (bufferPhases != 0 && bufferPhases != static_cast<uint64_t>(phases))
    return malformed(strCat("block-buffer bytes of ", bufferPhases, " phases for ", phases));
  for (uint64_t p = 0; p < bufferPhases; ++p) {
    XS_ASSIGN_OR_RETURN(DimExpr bytes, readDim(in));
    v.phaseBlockBufferBytes.push_back(std::move(bytes));
  }
  XS_ASSIGN_OR_RETURN(v.lanes, in.i64("lanes"));
  XS_ASSIGN_OR_RETURN(v.cooperative, in.boolean("a cooperative flag"));
  XS_ASSIGN_OR_RETURN(v.ownBlockGroups, in.boolean("an own-block-groups flag"));
  return v;
}

absl::StatusOr<HostStep> readStep(ByteReader &in) {
  HostStep step;
  XS_ASSIGN_OR_RETURN(step.kind, readEnum(in, HostStep::Kind::Alias, "a step kind"));
  XS_ASSIGN_OR_RETURN(std::string_view kernel, in.string("a kernel name"));
  step.kernel = std::string(kernel);
  XS_ASSIGN_OR_RETURN(size_t variants, in.count("the launch variants", 8));
  for (size_t i = 0; i < variants; ++i) {
    XS_ASSIGN_OR_RETURN(HostLaunchVariant v, readVariant(in));
    step.variants.push_back(std::move(v));
  }
  XS_ASSIGN_OR_RETURN(std::string_view library, in.string("a library op"));
  std::optional<OpKind> op = lookupOpKind(library);
  if (!op)
    return malformed(strCat("unknown library op '", library, "'"));
  step.libraryOp = *op;
  XS_ASSIGN_OR_RETURN(size_t buffers, in.count("a step's buffers"));
  for (size_t i = 0; i < buffers; ++i) {
    XS_ASSIGN_OR_RETURN(int b, readIndex(in, "a step's buffer"));
    step.buffers.push_back(b);
  }
  XS_ASSIGN_OR_RETURN(size_t ops, in.count("a step's ops"));
  for (size_t i = 0; i < ops; ++i) {
    XS_ASSIGN_OR_RETURN(std::string_view name, in.string("an op name"));
    step.ops.emplace_back(name);
  }
  XS_ASSIGN_OR_RETURN(step.minimumBytes, readDim(in));
  return step;
}

absl::StatusOr<HostPlan> readHostPlan(ByteReader &in, const std::shared_ptr<const void> &owner) {
  HostPlan plan;
  XS_ASSIGN_OR_RETURN(std::string_view function, in.string("the function name"));
  plan.function = std::string(function);
  XS_ASSIGN_OR_RETURN(size_t symbols, in.count("the plan's symbols"));
  for (size_t i = 0; i < symbols; ++i) {
    XS_ASSIGN_OR_RETURN(std::string_view s, in.string("a plan symbol"));
    plan.symbols.emplace_back(s);
  }
  XS_RETURN_IF_ERROR(readConstraints(in, plan.constraints));
  XS_ASSIGN_OR_RETURN(bool hasHostSymbols, in.boolean("a host-symbols flag"));
  if (hasHostSymbols) {
    XS_ASSIGN_OR_RETURN(plan.hostSymbols, readHostSymbols(in));
  }
  XS_ASSIGN_OR_RETURN(size_t params, in.count("the parameter types", 2));
  for (size_t i = 0; i < params; ++i) {
    XS_ASSIGN_OR_RETURN(TensorType t, readType(in));
    plan.paramTypes.push_back(std::move(t));
  }
  XS_ASSIGN_OR_RETURN(size_t buffers, in.count("the buffers", 8));
  for (size_t i = 0; i < buffers; ++i) {
    XS_ASSIGN_OR_RETURN(HostBuffer b, readBuffer(in, owner));
    plan.buffers.push_back(std::move(b));
  }
  XS_ASSIGN_OR_RETURN(size_t steps, in.count("the steps", 6));
  for (size_t i = 0; i < steps; ++i) {
    XS_ASSIGN_OR_RETURN(HostStep s, readStep(in));
    plan.steps.push_back(std::move(s));
  }
  XS_ASSIGN_OR_RETURN(size_t outputs, in.count("the outputs"));
  for (size_t i = 0; i < outputs; ++i) {
    XS_ASSIGN_OR_RETURN(int o, readIndex(in, "an output buffer"));
    plan.outputs.push_back(o);
  }
  XS_ASSIGN_OR_RETURN(int64_t slots, in.i64("the slot count"));
  if (slots < 0 || slots > INT32_MAX)
    return malformed(strCat(slots, " slots"));
  plan.numSlots = static_cast<int>(slots);
  XS_ASSIGN_OR_RETURN(size_t checks, in.count("the checks", 4));
  for (size_t i = 0; i < checks; ++i) {
    HostCheck c;
    XS_ASSIGN_OR_RETURN(uint64_t kind, in.u64("a check's kind"));
    if (kind > static_cast<uint64_t>(HostCheck::Kind::ClampedIndexOfEmpty))
      return malformed(strCat("check kind ", kind));
    c.kind = static_cast<HostCheck::Kind>(kind);
    XS_ASSIGN_OR_RETURN(std::string_view kernel, in.string("a check's kernel"));
    c.kernel = std::string(kernel);
    XS_ASSIGN_OR_RETURN(int64_t opIndex, in.i64("a check's op"));
    if (opIndex < 0 || opIndex > INT32_MAX)
      return malformed(strCat("check op ", opIndex));
    c.opIndex = static_cast<int>(opIndex);
    XS_ASSIGN_OR_RETURN(std::string_view op, in.string("a check's op name"));
    c.op = std::string(op);
    XS_ASSIGN_OR_RETURN(c.bound, readDim(in));
    XS_ASSIGN_OR_RETURN(int64_t axis, in.i64("a check's axis"));
    if (axis < 0 || axis > INT32_MAX)
      return malformed(strCat("check axis ", axis));
    c.axis = static_cast<int>(axis);
    XS_ASSIGN_OR_RETURN(c.amount, in.i64("a check's amount"));
    XS_ASSIGN_OR_RETURN(c.elements, readDim(in));
    XS_ASSIGN_OR_RETURN(size_t shared, in.count("a check's kernels"));
    for (size_t k = 0; k < shared; ++k) {
      XS_ASSIGN_OR_RETURN(std::string_view name, in.string("a kernel name"));
      c.sharedBy.emplace_back(name);
    }
    plan.checks.push_back(std::move(c));
  }
  return plan;
}

} // namespace

void writeProgram(const CompiledProgram &program, ByteWriter &out) {
  writeHostPlan(program.host, out);
  out.string(program.objectFormat);
  out.u64(program.objects.size());
  for (const std::string &object : program.objects)
    out.string(object);
  out.i64(program.streamingStoreBytes);
  out.u64(program.speculations.size());
  for (const SpeculatedProgram &speculated : program.speculations) {
    writePredicates(speculated.assumptions, out);
    writeProgram(speculated.program, out);
  }
}

namespace {

absl::StatusOr<CompiledProgram>
readProgramAt(ByteReader &in, const std::shared_ptr<const void> &owner, bool speculated) {
  CompiledProgram program;
  XS_ASSIGN_OR_RETURN(program.host, readHostPlan(in, owner));
  XS_ASSIGN_OR_RETURN(std::string_view format, in.string("the object format"));
  program.objectFormat = std::string(format);
  XS_ASSIGN_OR_RETURN(size_t objects, in.count("the objects"));
  for (size_t i = 0; i < objects; ++i) {
    XS_ASSIGN_OR_RETURN(std::string_view object, in.string("an object"));
    program.objects.emplace_back(object);
  }
  XS_ASSIGN_OR_RETURN(program.streamingStoreBytes, in.i64("the streaming-store bound"));
  XS_ASSIGN_OR_RETURN(size_t speculations, in.count("the speculated programs"));
  if (speculated && speculations > 0)
    return malformed("a speculated program holds speculated programs of its own");
  for (size_t i = 0; i < speculations; ++i) {
    SpeculatedProgram variant;
    XS_ASSIGN_OR_RETURN(variant.assumptions, readPredicates(in));
    XS_ASSIGN_OR_RETURN(variant.program, readProgramAt(in, owner, true));
    program.speculations.push_back(std::move(variant));
  }
  return program;
}

} // namespace

absl::StatusOr<CompiledProgram> readProgram(ByteReader &in, std::shared_ptr<const void> owner) {
  return readProgramAt(in, owner, false);
}

std::string serializeProgram(const CompiledProgram &program) {
  ByteWriter out;
  writeProgram(program, out);
  return out.take();
}

absl::StatusOr<CompiledProgram> deserializeProgram(std::string_view bytes) {
  ByteReader in(bytes);
  XS_ASSIGN_OR_RETURN(CompiledProgram program, readProgram(in));
  if (!in.atEnd())
    return malformed(strCat(in.remaining(), " bytes follow the program"));
  return program;
}

} // namespace xs
