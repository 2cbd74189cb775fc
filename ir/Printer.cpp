#include "ir/Printer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/HostSymbols.h"

namespace xs {

namespace {

std::string valueRef(const Value *v) { return v ? strCat("%", v->name()) : std::string("%<null>"); }

std::string signature(const Function &function, const PrintOptions &options) {
  std::string out = strCat("func @", function.name(), "(");
  std::vector<std::string> params;
  for (const auto &p : function.params())
    params.push_back(strCat("%", p->name(), ": ", p->type().str()));
  absl::StrAppend(&out, absl::StrJoin(params, ", "), ") -> (");
  std::vector<std::string> results;
  for (const FunctionResult &r : function.results())
    results.push_back(r.declaredType.known() ? strCat(r.name, ": ", r.declaredType.str()) : r.name);
  absl::StrAppend(&out, absl::StrJoin(results, ", "), ")");
  if (const HostSymbols *hostSymbols = function.hostSymbols()) {
    absl::StrAppend(&out, "\n    host_symbols ", absl::StrJoin(hostSymbols->symbols, ", "), " {\n");
    for (const auto &op : hostSymbols->computation->ops())
      absl::StrAppend(&out, "      ", printOp(*op, options), "\n");
    std::vector<std::string> values;
    for (const FunctionResult &r : hostSymbols->computation->results())
      values.push_back(valueRef(r.value));
    absl::StrAppend(&out, "      return ", absl::StrJoin(values, ", "), "\n    }");
  }
  std::vector<Constraint> facts = function.constraints().facts();
  if (!facts.empty()) {
    std::vector<std::string> texts;
    for (const Constraint &c : facts)
      texts.push_back(c.str());
    absl::StrAppend(&out, function.hostSymbols() ? "\n    where " : " where ",
                    absl::StrJoin(texts, ", "));
  }
  return out;
}

} // namespace

std::string printOp(const Operation &op, const PrintOptions &options) {
  std::string out = strCat(valueRef(op.result()), " = ", op.mnemonic());
  std::vector<std::string> operands;
  for (const Value *v : op.operands())
    operands.push_back(valueRef(v));
  if (!operands.empty())
    absl::StrAppend(&out, " ", absl::StrJoin(operands, ", "));
  if (!op.attrs().empty()) {
    // AttrDict is a std::map, so this is already sorted by name.
    std::vector<std::string> attrs;
    for (const auto &[name, value] : op.attrs())
      attrs.push_back(strCat(
          name, " = ", value.str(options.elideLiteralsAbove, options.summarizeLiteralsAbove)));
    absl::StrAppend(&out, " {", absl::StrJoin(attrs, ", "), "}");
  }
  if (op.type().known())
    absl::StrAppend(&out, " : ", op.type().str());
  return out;
}

std::string printFunction(const Function &function, const PrintOptions &options) {
  std::string out = strCat(signature(function, options), " {\n");
  for (const auto &op : function.ops())
    absl::StrAppend(&out, "  ", printOp(*op, options), "\n");
  std::vector<std::string> values;
  for (const FunctionResult &r : function.results())
    values.push_back(valueRef(r.value));
  absl::StrAppend(&out, "  return");
  if (!values.empty())
    absl::StrAppend(&out, " ", absl::StrJoin(values, ", "));
  absl::StrAppend(&out, "\n}\n");
  return out;
}

std::string printModule(const Module &module, const PrintOptions &options) {
  std::vector<std::string> functions;
  for (const auto &f : module.functions())
    functions.push_back(printFunction(*f, options));
  return absl::StrJoin(functions, "\n");
}

} // namespace xs
