// ONNX Einsum, written with the IR's primitives, operands taken left to right:
// labels an operand alone carries and nothing after it needs are summed first
// (reduce_sum); two operands that share a summed label become one batched
// `dot` (each transposed to [batch, free, summed] or [batch, summed, free] and
// reshaped to matrices); without a shared summed label the product is
// element-wise (broadcasts and a `mul`), so it stitches with its neighbours.

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "frontend/onnx/OpImporters.h"
#include "ir/Diagnostics.h"

namespace xs {

namespace {

/// A subscript label: a letter's character code, or kEllipsis + i for the
/// i-th of the dims "..." stands for, counted from the right (ellipsis dims
/// broadcast as numpy's trailing dims do).
using Label = int;
constexpr Label kEllipsis = 1000;

struct Equation {
  std::vector<std::vector<Label>> inputs;
  std::vector<Label> output;
};

/// The labels of one term; "..." stands for `rank` minus the letters' count
/// dims, and in the output (rank -1) for the most dims it stood for in an
/// input (`ellipsisRank`, which input terms raise). Fails on characters
/// other than letters and one "...", and on a count of letters that does
/// not fit the operand's rank.
absl::StatusOr<std::vector<Label>> parseTerm(ImportContext &c, const std::string &term,
                                             int64_t rank, int64_t *ellipsisRank) {
  std::vector<Label> labels;
  int64_t letters = 0;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    char ch = term[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      ++letters;
      continue;
    }
    if (term.compare(i, 3, "...") == 0 && !ellipsis) {
      ellipsis = true;
      i += 2;
      continue;
    }
    return c.error(strCat("Einsum's equation has '", std::string(1, ch), "' in term '", term,
                          "': subscripts are letters and at most one '...'"));
  }
  int64_t spanned = ellipsis ? rank - letters : 0;
  if (rank >= 0 && (spanned < 0 || (!ellipsis && letters != rank)))
    return c.error(strCat("Einsum's term '", term, "' has ", letters,
                          " subscripts for an operand of rank ", rank));
  if (ellipsisRank)
    *ellipsisRank = std::max(*ellipsisRank, spanned);
  for (size_t i = 0; i < term.size(); ++i) {
    if (term[i] == '.') {
      int64_t n = rank >= 0 ? spanned : *ellipsisRank;
      for (int64_t k = n - 1; k >= 0; --k)
        labels.push_back(kEllipsis + static_cast<Label>(k));
      i += 2;
      continue;
    }
    labels.push_back(static_cast<Label>(term[i]));
  }
  return labels;
}

absl::StatusOr<Equation> parseEquation(ImportContext &c, const std::vector<Value *> &operands) {
  std::string text;
  for (char ch : c.stringAttr("equation", ""))
    if (ch != ' ')
      text += ch;
  size_t arrow = text.find("->");
  std::string lhs = text.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(
        lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (terms.size() != operands.size())
    return c.error(strCat("Einsum's equation '", text, "' has ", terms.size(), " terms for ",
                          operands.size(), " inputs"));
  Equation eq;
  int64_t ellipsisRank = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    XS_ASSIGN_OR_RETURN(std::vector<Label> labels,
                        parseTerm(c, terms[i], operands[i]->type().rank(), &ellipsisRank));
    std::vector<Label> sorted = labels;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return c.unsupported(
          strCat("Einsum with a subscript repeated within term '", terms[i], "' (a diagonal)"));
    eq.inputs.push_back(std::move(labels));
  }
  if (arrow != std::string::npos) {
    XS_ASSIGN_OR_RETURN(eq.output, parseTerm(c, text.substr(arrow + 2), -1, &ellipsisRank));
    return eq;
  }
  // Implicit output: the ellipsis dims, then the letters used once, sorted.
  std::map<Label, int> uses;
  for (const std::vector<Label> &labels : eq.inputs)
    for (Label l : labels)
      ++uses[l];
  for (int64_t k = ellipsisRank - 1; k >= 0; --k)
    eq.output.push_back(kEllipsis + static_cast<Label>(k));
  for (const auto &[label, count] : uses)
    if (label < kEllipsis && count == 1)
      eq.output.push_back(label);
  return eq;
}

/// Where `l` is in `labels` (labels.size() when it is not).
size_t position(const std::vector<Label> &labels, Label l) {
  return static_cast<size_t>(std::find(labels.begin(), labels.end(), l) - labels.begin());
}

bool contains(const std::vector<Label> &labels, Label l) {
  return position(labels, l) < labels.size();
}

/// An operand with its labels, one per dim.
struct Term {
  Value *value;
  std::vector<Label> labels;
};

/// Sums the dims whose labels `keep` rejects.
absl::StatusOr<Term> sumOut(ImportContext &c, Term t, const std::function<bool(Label)> &keep) {
  std::vector<int64_t> dims;
  std::vector<Label> kept;
  for (size_t d = 0; d < t.labels.size(); ++d) {
    if (keep(t.labels[d]))
      kept.push_back(t.labels[d]);
    else
      dims.push_back(static_cast<int64_t>(d));
  }
  if (dims.empty())
    return t;
  XS_ASSIGN_OR_RETURN(Value * sum,
                      c.create(OpKind::ReduceSum, {t.value}, {{"dims", Attribute::intList(dims)}}));
  return Term{sum, kept};
}

/// The operand with its dims in the order of `order` (every label of the
/// term, and only those).
absl::StatusOr<Value *> permute(ImportContext &c, const Term &t, const std::vector<Label> &order) {
  std::vector<int64_t> perm;
  bool identity = true;
  for (Label l : order) {
    int64_t d = static_cast<int64_t>(position(t.labels, l));
    identity = identity && d == static_cast<int64_t>(perm.size());
    perm.push_back(d);
  }
  if (identity)
    return t.value;
  return c.create(OpKind::Transpose, {t.value}, {{"perm", Attribute::intList(perm)}});
}

/// The dims of `t` for `labels`, in that order.
std::vector<DimExpr> dimsOf(const Term &t, const std::vector<Label> &labels) {
  std::vector<DimExpr> dims;
  for (Label l : labels)
    dims.push_back(t.value->type().dim(static_cast<int64_t>(position(t.labels, l))));
  return dims;
}

/// The operand laid out for `labels`: its dims where it has the label, 1
/// where it does not (numpy broadcasting then fills them).
absl::StatusOr<Value *> alignTo(ImportContext &c, const Term &t, const std::vector<Label> &labels) {
  std::vector<Label> present;
  for (Label l : labels)
    if (contains(t.labels, l))
      present.push_back(l);
  XS_ASSIGN_OR_RETURN(Value * v, permute(c, t, present));
  std::vector<DimExpr> shape;
  for (Label l : labels)
    shape.push_back(contains(t.labels, l) ? dimsOf(t, {l})[0] : DimExpr(1));
  return c.reshape(v, shape);
}

/// The product of two terms summed over their shared labels that `keep`
/// (the labels a later operand or the result needs) does not hold. Its labels:
/// the shared ones kept, then a's own, then b's own.
absl::StatusOr<Term> contract(ImportContext &c, const Term &a, const Term &b,
                              const std::vector<Label> &keep) {
  std::vector<Label> batch, left, summed, right;
  for (Label l : a.labels) {
    if (contains(b.labels, l))
      (contains(keep, l) ? batch : summed).push_back(l);
    else
      left.push_back(l);
  }
  for (Label l : b.labels)
    if (!contains(a.labels, l))
      right.push_back(l);
  auto concat = [](std::vector<Label> x, const std::vector<Label> &y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };

  if (summed.empty()) {
    // No shared summed label: an element-wise product of broadcasts.
    std::vector<Label> labels = concat(concat(batch, left), right);
    XS_ASSIGN_OR_RETURN(Value * x, alignTo(c, a, labels));
    XS_ASSIGN_OR_RETURN(Value * z, alignTo(c, b, labels));
    XS_ASSIGN_OR_RETURN(Value * y, c.binary(OpKind::Mul, x, z));
    return Term{y, labels};
  }

  // A batched matrix product: [batch, M, K] x [batch, K, N].
  XS_ASSIGN_OR_RETURN(Value * x, permute(c, a, concat(concat(batch, left), summed)));
  XS_ASSIGN_OR_RETURN(Value * z, permute(c, b, concat(concat(batch, summed), right)));
  TensorType batchA(x->type().elementType(), dimsOf(a, batch));
  TensorType batchB(z->type().elementType(), dimsOf(b, batch));
  XS_ASSIGN_OR_RETURN(std::vector<DimExpr> batchDims, c.broadcastShape({batchA, batchB}));
  std::vector<DimExpr> shapeA = batchDims, shapeB = batchDims;
  shapeA.push_back(dimProduct(dimsOf(a, left)));
  shapeA.push_back(dimProduct(dimsOf(a, summed)));
  shapeB.push_back(dimProduct(dimsOf(b, summed)));
  shapeB.push_back(dimProduct(dimsOf(b, right)));
  auto toMatrices = [&](Value *v, const std::vector<DimExpr> &batchOwn,
                        const std::vector<DimExpr> &target) -> absl::StatusOr<Value *> {
    std::vector<DimExpr> own = batchOwn;
    own.insert(own.end(), target.end() - 2, target.end());
    XS_ASSIGN_OR_RETURN(Value * m, c.reshape(v, own));
    return c.broadcastTo(m, target);
  };
  XS_ASSIGN_OR_RETURN(x, toMatrices(x, batchA.shape(), shapeA));
  XS_ASSIGN_OR_RETURN(z, toMatrices(z, batchB.shape(), shapeB));
  XS_ASSIGN_OR_RETURN(Value * product, c.create(OpKind::Dot, {x, z}));
  // [batch, M, N] back to one dim per label.
  std::vector<DimExpr> unflat = batchDims;
  for (const DimExpr &d : dimsOf(a, left))
    unflat.push_back(d);
  for (const DimExpr &d : dimsOf(b, right))
    unflat.push_back(d);
  XS_ASSIGN_OR_RETURN(Value * y, c.reshape(product, unflat));
  return Term{y, concat(concat(batch, left), right)};
}

absl::Status importEinsum(ImportContext &c) {
  XS_ASSIGN_OR_RETURN(std::vector<Value *> operands, c.inputs());
  XS_ASSIGN_OR_RETURN(Equation eq, parseEquation(c, operands));
  for (Label l : eq.output) {
    bool found = false;
    for (const std::vector<Label> &labels : eq.inputs)
      found = found || contains(labels, l);
    if (!found)
      return c.error("Einsum's output has a subscript no input has");
  }
  std::vector<Term> terms;
  for (size_t i = 0; i < operands.size(); ++i)
    terms.push_back(Term{operands[i], eq.inputs[i]});

  // Left to right, as numpy's einsum without optimize: each step keeps the
  // labels the result or a later operand needs.
  auto neededAfter = [&](size_t i) {
    std::vector<Label> keep = eq.output;
    for (size_t j = i + 1; j < terms.size(); ++j)
      keep.insert(keep.end(), terms[j].labels.begin(), terms[j].labels.end());
    return keep;
  };
  // Labels only one operand carries and nothing after needs are summed there.
  auto sumOwn = [&](const Term &t, size_t i) {
    std::vector<Label> keep = neededAfter(i);
    for (size_t j = 0; j < terms.size(); ++j)
      if (j != i)
        keep.insert(keep.end(), terms[j].labels.begin(), terms[j].labels.end());
    return sumOut(c, t, [&](Label l) { return contains(keep, l); });
  };
  XS_ASSIGN_OR_RETURN(Term acc, sumOwn(terms[0], 0));
  for (size_t i = 1; i < terms.size(); ++i) {
    XS_ASSIGN_OR_RETURN(Term next, sumOwn(terms[i], i));
    // contract sums the shared labels nothing after needs; the others it
    // keeps are needed, or sumOwn would have summed them.
    XS_ASSIGN_OR_RETURN(acc, contract(c, acc, next, neededAfter(i)));
  }
  XS_ASSIGN_OR_RETURN(Value * y, permute(c, acc, eq.output));
  c.setOutput(0, y);
  return absl::OkStatus();
}

} // namespace

void addEinsumImporter(ImporterTable &table) { table["Einsum"] = {importEinsum, 12}; }

} // namespace xs
