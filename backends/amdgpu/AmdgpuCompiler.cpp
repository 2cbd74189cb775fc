#include "backends/amdgpu/AmdgpuCompiler.h"

#include <csignal>
#include <cstdlib>
#include <mutex>

#include "backends/amdgpu/AmdgpuTarget.h"
#include "backends/amdgpu/AmdgpuTargetDescription.h"
#include "backends/common/GpuCodegen.h"
#include "ir/Diagnostics.h"
#include "lld/Common/Driver.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

namespace xs {

namespace {

void initializeAmdgpuOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

/// A file of the link that is removed when the link is done.
class ScratchFile {
public:
  static absl::StatusOr<ScratchFile> create(const char *suffix) {
    llvm::SmallString<128> path;
    if (std::error_code error = llvm::sys::fs::createTemporaryFile("xstitch-hsaco", suffix, path))
      return absl::InternalError(
          strCat("cannot create a temporary file for the HSACO link: ", error.message()));
    return ScratchFile(std::string(path));
  }
  ScratchFile(ScratchFile &&other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  ScratchFile(const ScratchFile &) = delete;
  ~ScratchFile() {
    if (!path_.empty())
      llvm::sys::fs::remove(path_);
  }
  const std::string &path() const { return path_; }

private:
  explicit ScratchFile(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

} // namespace

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>>
createAmdgpuTargetMachine(const AmdgpuCompileOptions &options) {
  XS_RETURN_IF_ERROR(amdgpuPreset(options.arch).status());
  initializeAmdgpuOnce();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kAmdgpuTriple, error);
  if (!target)
    return absl::InternalError(strCat("the AMDGPU target is unavailable in LLVM: ", error));
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kAmdgpuTriple, options.arch, "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      options.optLevel >= 2 ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::None));
  if (!machine)
    return absl::InternalError(strCat("cannot create an AMDGPU target machine for ", options.arch));
  return machine;
}

namespace {

absl::StatusOr<std::string> compileAmdgpu(llvm::Module &module, const AmdgpuCompileOptions &options,
                                          llvm::CodeGenFileType type) {
  XS_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                      createAmdgpuTargetMachine(options));
  module.setTargetTriple(kAmdgpuTriple);
  module.setDataLayout(machine->createDataLayout());
  XS_RETURN_IF_ERROR(optimizeGpuModule(module, *machine, options.optLevel, "the AMDGPU module"));
  return generateMachineCode(module, *machine, type, "the AMDGPU module");
}

} // namespace

absl::StatusOr<std::string> compileToAmdgcn(llvm::Module &module,
                                            const AmdgpuCompileOptions &options) {
  return compileAmdgpu(module, options, llvm::CodeGenFileType::AssemblyFile);
}

absl::StatusOr<std::string> compileToAmdgpuObject(llvm::Module &module,
                                                  const AmdgpuCompileOptions &options) {
  return compileAmdgpu(module, options, llvm::CodeGenFileType::ObjectFile);
}

namespace {

/// Gives the calling thread back the alternate signal stack it had: lld's
/// output file registers LLVM's signal handlers, which put a larger
/// alternate stack of LLVM's own on the linking thread. A library leaves
/// the thread as it found it (a sanitizer runtime, whose stack that was,
/// frees it at the thread's exit).
class AlternateSignalStackScope {
public:
  AlternateSignalStackScope() { saved_ = sigaltstack(nullptr, &before_) == 0; }
  ~AlternateSignalStackScope() {
    stack_t now{};
    if (!saved_ || sigaltstack(nullptr, &now) != 0 || (now.ss_flags & SS_ONSTACK) ||
        now.ss_sp == before_.ss_sp)
      return;
    if (sigaltstack(&before_, nullptr) == 0 && now.ss_sp != nullptr)
      std::free(now.ss_sp); // LLVM's, from malloc
  }
  AlternateSignalStackScope(const AlternateSignalStackScope &) = delete;
  AlternateSignalStackScope &operator=(const AlternateSignalStackScope &) = delete;

private:
  stack_t before_{};
  bool saved_ = false;
};

} // namespace

absl::StatusOr<std::string> linkHsaco(const std::string &object) {
  XS_ASSIGN_OR_RETURN(ScratchFile input, ScratchFile::create("o"));
  XS_ASSIGN_OR_RETURN(ScratchFile output, ScratchFile::create("hsaco"));
  {
    std::error_code error;
    llvm::raw_fd_ostream file(input.path(), error);
    if (error)
      return absl::InternalError(
          strCat("cannot write ", input.path(), " for the HSACO link: ", error.message()));
    file << object;
    file.close();
    if (file.has_error())
      return absl::InternalError(strCat("cannot write ", input.path(), " for the HSACO link"));
  }
  std::string messages;
  {
    // lld keeps its state in globals: one link at a time per process, and
    // none after a link that left them unusable.
    static std::mutex linkMutex;
    static bool linkerUnusable = false;
    std::lock_guard<std::mutex> lock(linkMutex);
    if (linkerUnusable)
      return absl::InternalError(
          "lld cannot link again in this process after an earlier link crashed; restart it");
    llvm::raw_string_ostream out(messages), err(messages);
    AlternateSignalStackScope signalStack;
    const char *args[] = {
        "ld.lld", "-shared", "--no-undefined", input.path().c_str(), "-o", output.path().c_str()};
    lld::Result result = lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
    linkerUnusable = !result.canRunAgain;
    if (result.retCode != 0)
      return absl::InternalError(strCat("lld could not link the HSA code object: ", messages));
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> linked = llvm::MemoryBuffer::getFile(
      output.path(), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!linked)
    return absl::InternalError(strCat("cannot read the linked HSA code object ", output.path(),
                                      ": ", linked.getError().message()));
  return (*linked)->getBuffer().str();
}

} // namespace xs
