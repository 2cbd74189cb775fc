#include "backends/common/BufferAliasing.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"

namespace xs {

void markArgumentBuffersDistinct(llvm::Function &function, llvm::ArrayRef<llvm::Value *> buffers,
                                 size_t readOnly) {
  if (buffers.empty())
    return;
  llvm::MDBuilder md(function.getContext());
  llvm::MDNode *domain = md.createAnonymousAliasScopeDomain(function.getName());
  std::vector<llvm::MDNode *> scopes;
  absl::flat_hash_map<const llvm::Value *, size_t> argumentOf;
  for (size_t i = 0; i < buffers.size(); ++i) {
    scopes.push_back(md.createAnonymousAliasScope(domain));
    // A target may hand out its pointers through casts (NVPTX: the global
    // address space and back); accesses are matched by what is under them.
    argumentOf.emplace(llvm::getUnderlyingObject(buffers[i], /*MaxLookup=*/0), i);
  }
  // Per argument: its scope, and every other argument's.
  std::vector<llvm::MDNode *> scopeOf, othersOf;
  for (size_t i = 0; i < buffers.size(); ++i) {
    std::vector<llvm::Metadata *> others;
    for (size_t j = 0; j < buffers.size(); ++j)
      if (j != i)
        others.push_back(scopes[j]);
    scopeOf.push_back(llvm::MDNode::get(function.getContext(), {scopes[i]}));
    othersOf.push_back(llvm::MDNode::get(function.getContext(), others));
  }
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block) {
      llvm::Value *address = nullptr;
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
        address = load->getPointerOperand();
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
        address = store->getPointerOperand();
      if (!address)
        continue;
      auto argument = argumentOf.find(llvm::getUnderlyingObject(address, /*MaxLookup=*/0));
      if (argument == argumentOf.end())
        continue;
      instruction.setMetadata(llvm::LLVMContext::MD_alias_scope, scopeOf[argument->second]);
      if (buffers.size() > 1)
        instruction.setMetadata(llvm::LLVMContext::MD_noalias, othersOf[argument->second]);
      if (argument->second < readOnly && llvm::isa<llvm::LoadInst>(instruction))
        instruction.setMetadata(llvm::LLVMContext::MD_invariant_load,
                                llvm::MDNode::get(function.getContext(), {}));
    }
}

} // namespace xs
