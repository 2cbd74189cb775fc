#include "runtime/cpu/ObjectLoader.h"

#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

namespace xs {
namespace {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::string errorMessage(llvm::Error error) { return llvm::toString(std::move(error)); }

} // namespace

LoadedObject::LoadedObject(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}

LoadedObject::~LoadedObject() = default;

absl::StatusOr<std::unique_ptr<LoadedObject>>
LoadedObject::load(const std::vector<std::string> &objects, const std::vector<std::string> &kernels,
                   const std::vector<HostSymbol> &hostSymbols) {
  initializeNativeTarget();
  std::string what = strCat("the object code of kernels ", absl::StrJoin(kernels, ", "));
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return absl::InternalError(
        strCat("cannot create a JIT to load ", what, ": ", errorMessage(jit.takeError())));
  // Link failures come back from lookup() as errors; ORC would also print
  // them to stderr through its default reporter.
  (*jit)->getExecutionSession().setErrorReporter(
      [](llvm::Error error) { llvm::consumeError(std::move(error)); });
  if (!hostSymbols.empty()) {
    llvm::orc::SymbolMap symbols;
    for (const HostSymbol &symbol : hostSymbols)
      symbols[(*jit)->mangleAndIntern(symbol.name)] = {
          llvm::orc::ExecutorAddr::fromPtr(symbol.address), llvm::JITSymbolFlags::Exported};
    if (llvm::Error error =
            (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols))))
      return absl::InternalError(
          strCat("cannot define the host symbols of ", what, ": ", errorMessage(std::move(error))));
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    std::unique_ptr<llvm::MemoryBuffer> buffer =
        llvm::MemoryBuffer::getMemBufferCopy(objects[i], strCat("xstitch-kernels-", i, ".o"));
    if (llvm::Error error = (*jit)->addObjectFile(std::move(buffer)))
      return absl::InternalError(
          strCat("cannot load ", what, ": ", errorMessage(std::move(error))));
  }
  return std::unique_ptr<LoadedObject>(new LoadedObject(std::move(*jit)));
}

absl::StatusOr<CpuKernelFn> LoadedObject::lookup(const std::string &kernel,
                                                 const std::string &symbol) {
  llvm::Expected<llvm::orc::ExecutorAddr> address = jit_->lookup(symbol);
  if (!address)
    return absl::InternalError(strCat("kernel ", kernel, ": cannot load its code (symbol ", symbol,
                                      "): ", errorMessage(address.takeError())));
  if (!*address)
    return absl::InternalError(
        strCat("kernel ", kernel, ": symbol ", symbol, " resolved to a null address"));
  return address->toPtr<CpuKernelFn>();
}

} // namespace xs
