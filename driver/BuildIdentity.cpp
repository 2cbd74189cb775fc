#include "driver/BuildIdentity.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstring>

#include "absl/strings/str_format.h"
#include "llvm/Config/llvm-config.h"

#ifndef XSTITCH_VERSION
#error "XSTITCH_VERSION must be defined by the build (driver/CMakeLists.txt)"
#endif

namespace xs {
namespace {

struct Search {
  const void *address = nullptr;
  std::string buildId;
};

/// The GNU build id of the loaded object whose segments hold
/// `search->address`.
int findBuildId(dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<Search *>(data);
  auto address = reinterpret_cast<ElfW(Addr)>(search->address);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    ElfW(Addr) start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && address >= start && address < start + ph.p_memsz)
      contains = true;
  }
  if (!contains)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE)
      continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof(ElfW(Nhdr));
      const auto *desc =
          reinterpret_cast<const unsigned char *>(name + ((note->n_namesz + 3) & ~3u));
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0)
        for (ElfW(Word) k = 0; k < note->n_descsz; ++k)
          search->buildId += absl::StrFormat("%02x", desc[k]);
      p = reinterpret_cast<const char *>(desc) + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

std::string buildOfThisBinary() {
  Search search;
  search.address = reinterpret_cast<const void *>(&compilerIdentity);
  dl_iterate_phdr(findBuildId, &search);
  if (!search.buildId.empty())
    return search.buildId;
  // No build id: the file's size and modification time stand in for it.
  Dl_info info;
  struct stat st;
  if (dladdr(search.address, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0)
    return absl::StrFormat("%d bytes, modified %d.%09d", st.st_size, st.st_mtim.tv_sec,
                           st.st_mtim.tv_nsec);
  return "unknown";
}

} // namespace

const std::string &compilerIdentity() {
  static const std::string *identity = new std::string(absl::StrFormat(
      "xstitch %s (build %s; LLVM %s)", XSTITCH_VERSION, buildOfThisBinary(), LLVM_VERSION_STRING));
  return *identity;
}

} // namespace xs
