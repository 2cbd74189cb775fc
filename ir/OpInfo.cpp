#include "ir/OpInfo.h"

#include <cassert>
#include <vector>

namespace xs {

namespace {

struct AttrRow {
  OpKind op;
  AttrSpec spec;
};

constexpr AttrRow kAttrRows[] = {
#define XS_ATTR(Name, Attribute, Kind, Required)                                                   \
  {OpKind::Name, {Attribute, AttrKind::Kind, Required}},
#include "ir/Ops.def"
};

struct OpRow {
  OpKind kind;
  std::string_view mnemonic;
  OpCategory category;
  TypeRule rule;
  int minOperands, maxOperands;
  uint32_t flags;
};

constexpr OpRow kOpRows[] = {
#define XS_OP(Name, Mnemonic, Category, Rule, MinOperands, MaxOperands, Flags)                     \
  {OpKind::Name, Mnemonic, OpCategory::Category, TypeRule::Rule, MinOperands, MaxOperands, Flags},
#include "ir/Ops.def"
};

struct Tables {
  std::vector<std::vector<AttrSpec>> attrs; // per op, stable storage for the spans
  std::vector<OpInfo> infos;
};

const Tables &tables() {
  static const Tables t = [] {
    Tables t;
    t.attrs.resize(std::size(kOpRows));
    for (const AttrRow &row : kAttrRows)
      t.attrs[static_cast<size_t>(row.op)].push_back(row.spec);
    for (size_t i = 0; i < std::size(kOpRows); ++i) {
      const OpRow &r = kOpRows[i];
      assert(static_cast<size_t>(r.kind) == i && "Ops.def order and OpKind disagree");
      t.infos.push_back(OpInfo{r.kind, r.mnemonic, r.category, r.rule, r.minOperands, r.maxOperands,
                               r.flags, std::span<const AttrSpec>(t.attrs[i])});
    }
    return t;
  }();
  return t;
}

} // namespace

const AttrSpec *OpInfo::findAttr(std::string_view name) const {
  for (const AttrSpec &s : attrs)
    if (s.name == name)
      return &s;
  return nullptr;
}

const OpInfo &opInfo(OpKind kind) { return tables().infos[static_cast<size_t>(kind)]; }

std::optional<OpKind> lookupOpKind(std::string_view mnemonic) {
  for (const OpInfo &info : tables().infos)
    if (info.mnemonic == mnemonic)
      return info.kind;
  return std::nullopt;
}

std::span<const OpInfo> allOpInfos() { return tables().infos; }

std::string_view opCategoryName(OpCategory c) {
  switch (c) {
  case OpCategory::LightElementwise:
    return "light-elementwise";
  case OpCategory::ExpensiveElementwise:
    return "expensive-elementwise";
  case OpCategory::Source:
    return "source";
  case OpCategory::Broadcast:
    return "broadcast";
  case OpCategory::Reshape:
    return "reshape";
  case OpCategory::Transpose:
    return "transpose";
  case OpCategory::DataMovement:
    return "data-movement";
  case OpCategory::Gather:
    return "gather";
  case OpCategory::Reduce:
    return "reduce";
  case OpCategory::Scan:
    return "scan";
  case OpCategory::Composite:
    return "composite";
  case OpCategory::Library:
    return "library";
  }
  assert(false && "unknown category");
  return "?";
}

} // namespace xs
