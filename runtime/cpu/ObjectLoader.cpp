#include "runtime/cpu/ObjectLoader.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_join.h"
#include "ir/Diagnostics.h"

namespace xs {
namespace {

constexpr size_t kPage = 4096;

size_t alignUp(size_t x, size_t a) { return (x + a - 1) / a * a; }

/// `jmp *0(%rip)` followed by the target's address: a call to a function
/// further than 2 GiB from the mapping lands here.
constexpr unsigned char kStubCode[6] = {0xff, 0x25, 0, 0, 0, 0};
constexpr size_t kStubBytes = 16;

/// Where each part of the mapping goes: code, read-only data (with the
/// GOT), writable data.
enum Region : int { kText, kConstants, kData, kRegions };

/// One object, as read from its bytes.
struct ObjectView {
  std::string_view bytes;
  const Elf64_Ehdr *header = nullptr;
  std::vector<Elf64_Shdr> sections;
  const Elf64_Sym *symbols = nullptr;
  size_t numSymbols = 0;
  std::string_view symbolNames;
  /// Per section: the region and offset it is placed at (allocated ones).
  std::vector<int> region;
  std::vector<size_t> offset;
  /// Per symbol: its address once the mapping exists (0 until resolved).
  std::vector<uint64_t> address;
  absl::flat_hash_map<uint32_t, size_t> gotSlot;  // symbol -> index in the GOT
  absl::flat_hash_map<uint32_t, size_t> stubSlot; // symbol -> index in the stubs
};

class Linker {
public:
  Linker(const std::vector<std::string> &kernels, const std::vector<HostSymbol> &hostSymbols)
      : what_(strCat("the object code of kernels ", absl::StrJoin(kernels, ", "))) {
    for (const HostSymbol &s : hostSymbols)
      hostSymbols_[s.name] = s.address;
  }

  absl::Status read(std::string_view bytes, size_t index);
  absl::Status layOut();
  absl::Status place(void *mapping);
  absl::Status relocate();
  size_t mappingBytes() const { return total_; }
  absl::Status protect(void *mapping) const;
  absl::flat_hash_map<std::string, void *> takeExports() { return std::move(exports_); }

private:
  absl::Status error(std::string_view message) const {
    return absl::InternalError(strCat("cannot load ", what_, ": ", message));
  }
  std::string_view name(const ObjectView &o, const Elf64_Sym &s) const {
    if (s.st_name >= o.symbolNames.size())
      return {};
    std::string_view rest = o.symbolNames.substr(s.st_name);
    return rest.substr(0, rest.find('\0'));
  }
  absl::StatusOr<uint64_t> resolveUndefined(std::string_view symbol, bool weak) const;
  absl::Status relocateSection(ObjectView &o, const Elf64_Shdr &rela);

  std::string what_;
  absl::flat_hash_map<std::string, void *> hostSymbols_;
  std::vector<ObjectView> objects_;
  size_t regionBytes_[kRegions] = {0, 0, 0};
  size_t regionStart_[kRegions] = {0, 0, 0};
  size_t total_ = 0;
  size_t gotSlots_ = 0, stubSlots_ = 0;
  size_t gotOffset_ = 0, stubOffset_ = 0; // in kConstants / kText
  char *base_ = nullptr;
  absl::flat_hash_map<std::string, void *> exports_;
  absl::flat_hash_map<std::string, bool> exportIsWeak_;
};

absl::Status Linker::read(std::string_view bytes, size_t index) {
  ObjectView o;
  o.bytes = bytes;
  std::string which = strCat("object ", index);
  if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0)
    return error(strCat(which, " is not an ELF object"));
  o.header = reinterpret_cast<const Elf64_Ehdr *>(bytes.data());
  const Elf64_Ehdr &h = *o.header;
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
      h.e_machine != EM_X86_64)
    return error(strCat(which, " is not for x86-64"));
  if (h.e_type != ET_REL)
    return error(strCat(which, " is not a relocatable object"));
  if (h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shoff > bytes.size() ||
      h.e_shnum > (bytes.size() - h.e_shoff) / sizeof(Elf64_Shdr))
    return error(strCat(which, " has malformed section headers"));
  o.sections.resize(h.e_shnum);
  std::memcpy(o.sections.data(), bytes.data() + h.e_shoff, h.e_shnum * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr &s : o.sections)
    if (s.sh_type != SHT_NOBITS &&
        (s.sh_offset > bytes.size() || s.sh_size > bytes.size() - s.sh_offset))
      return error(strCat(which, " has a section beyond its end"));
  for (const Elf64_Shdr &s : o.sections) {
    if (s.sh_type != SHT_SYMTAB)
      continue;
    if (o.symbols || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= o.sections.size() ||
        s.sh_offset % alignof(Elf64_Sym) != 0)
      return error(strCat(which, " has a malformed symbol table"));
    o.symbols = reinterpret_cast<const Elf64_Sym *>(bytes.data() + s.sh_offset);
    o.numSymbols = s.sh_size / sizeof(Elf64_Sym);
    const Elf64_Shdr &names = o.sections[s.sh_link];
    o.symbolNames = bytes.substr(names.sh_offset, names.sh_size);
  }
  o.region.assign(o.sections.size(), -1);
  o.offset.assign(o.sections.size(), 0);
  o.address.assign(o.numSymbols, 0);
  objects_.push_back(std::move(o));
  return absl::OkStatus();
}

absl::Status Linker::layOut() {
  for (ObjectView &o : objects_) {
    for (size_t i = 0; i < o.sections.size(); ++i) {
      const Elf64_Shdr &s = o.sections[i];
      if (!(s.sh_flags & SHF_ALLOC) || s.sh_size == 0)
        continue;
      if (s.sh_flags & SHF_TLS)
        return error("thread-local data is not supported");
      size_t align = std::max<size_t>(s.sh_addralign, 1);
      if (align > kPage || (align & (align - 1)))
        return error(strCat("section alignment ", align));
      int r = (s.sh_flags & SHF_EXECINSTR) ? kText : (s.sh_flags & SHF_WRITE) ? kData : kConstants;
      o.region[i] = r;
      o.offset[i] = alignUp(regionBytes_[r], align);
      regionBytes_[r] = o.offset[i] + s.sh_size;
    }
    // GOT slots and stubs, one per symbol that needs them.
    for (const Elf64_Shdr &s : o.sections) {
      if (s.sh_type != SHT_RELA)
        continue;
      if (s.sh_entsize != sizeof(Elf64_Rela) || s.sh_info >= o.sections.size() ||
          s.sh_offset % alignof(Elf64_Rela) != 0)
        return error("a malformed relocation section");
      if (o.region[s.sh_info] < 0)
        continue; // relocates debug information
      const auto *rela = reinterpret_cast<const Elf64_Rela *>(o.bytes.data() + s.sh_offset);
      for (size_t k = 0; k < s.sh_size / sizeof(Elf64_Rela); ++k) {
        uint32_t type = ELF64_R_TYPE(rela[k].r_info), sym = ELF64_R_SYM(rela[k].r_info);
        if (sym >= o.numSymbols)
          return error("a relocation names a symbol that does not exist");
        if (type == R_X86_64_GOTPCREL || type == R_X86_64_GOTPCRELX ||
            type == R_X86_64_REX_GOTPCRELX)
          o.gotSlot.try_emplace(sym, gotSlots_++);
        else if (type == R_X86_64_PLT32 && o.symbols[sym].st_shndx == SHN_UNDEF)
          o.stubSlot.try_emplace(sym, stubSlots_++);
      }
    }
  }
  stubOffset_ = alignUp(regionBytes_[kText], kStubBytes);
  regionBytes_[kText] = stubOffset_ + stubSlots_ * kStubBytes;
  gotOffset_ = alignUp(regionBytes_[kConstants], 8);
  regionBytes_[kConstants] = gotOffset_ + gotSlots_ * 8;
  for (int r = 0; r < kRegions; ++r) {
    regionStart_[r] = total_;
    total_ += alignUp(regionBytes_[r], kPage);
  }
  if (total_ > (size_t{1} << 31))
    return error("the code is larger than 2 GiB");
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Linker::resolveUndefined(std::string_view symbol, bool weak) const {
  std::string key(symbol);
  if (auto it = exports_.find(key); it != exports_.end())
    return reinterpret_cast<uint64_t>(it->second);
  if (auto it = hostSymbols_.find(key); it != hostSymbols_.end())
    return reinterpret_cast<uint64_t>(it->second);
  if (void *address = dlsym(RTLD_DEFAULT, key.c_str()))
    return reinterpret_cast<uint64_t>(address);
  if (weak)
    return uint64_t{0};
  return error(strCat("undefined symbol '", symbol, "'"));
}

absl::Status Linker::place(void *mapping) {
  base_ = static_cast<char *>(mapping);
  for (ObjectView &o : objects_)
    for (size_t i = 0; i < o.sections.size(); ++i) {
      if (o.region[i] < 0)
        continue;
      const Elf64_Shdr &s = o.sections[i];
      char *at = base_ + regionStart_[o.region[i]] + o.offset[i];
      if (s.sh_type == SHT_NOBITS)
        std::memset(at, 0, s.sh_size);
      else
        std::memcpy(at, o.bytes.data() + s.sh_offset, s.sh_size);
    }
  // Definitions first (every object's), so that references between objects
  // resolve whatever their order.
  for (ObjectView &o : objects_)
    for (size_t k = 1; k < o.numSymbols; ++k) {
      const Elf64_Sym &sym = o.symbols[k];
      uint16_t section = sym.st_shndx;
      if (section == SHN_UNDEF)
        continue;
      if (section == SHN_COMMON)
        return error(strCat("common symbol '", name(o, sym), "' is not supported"));
      if (section == SHN_ABS) {
        o.address[k] = sym.st_value;
      } else if (section < o.sections.size() && o.region[section] >= 0) {
        o.address[k] = reinterpret_cast<uint64_t>(base_ + regionStart_[o.region[section]] +
                                                  o.offset[section]) +
                       sym.st_value;
      } else {
        continue; // a symbol of a section that is not loaded
      }
      unsigned char binding = ELF64_ST_BIND(sym.st_info);
      if (binding != STB_GLOBAL && binding != STB_WEAK)
        continue;
      std::string symbolName(name(o, sym));
      bool weak = binding == STB_WEAK;
      auto [it, inserted] =
          exports_.try_emplace(symbolName, reinterpret_cast<void *>(o.address[k]));
      if (inserted) {
        exportIsWeak_[symbolName] = weak;
      } else if (exportIsWeak_[symbolName] && !weak) {
        it->second = reinterpret_cast<void *>(o.address[k]);
        exportIsWeak_[symbolName] = false;
      } else if (!exportIsWeak_[symbolName] && !weak) {
        return error(strCat("symbol '", symbolName, "' is defined twice"));
      }
    }
  for (ObjectView &o : objects_)
    for (size_t k = 1; k < o.numSymbols; ++k) {
      const Elf64_Sym &sym = o.symbols[k];
      if (sym.st_shndx != SHN_UNDEF)
        continue;
      XS_ASSIGN_OR_RETURN(o.address[k],
                          resolveUndefined(name(o, sym), ELF64_ST_BIND(sym.st_info) == STB_WEAK));
    }
  return absl::OkStatus();
}

absl::Status Linker::relocateSection(ObjectView &o, const Elf64_Shdr &relaSection) {
  const Elf64_Shdr &target = o.sections[relaSection.sh_info];
  char *section =
      base_ + regionStart_[o.region[relaSection.sh_info]] + o.offset[relaSection.sh_info];
  const auto *rela = reinterpret_cast<const Elf64_Rela *>(o.bytes.data() + relaSection.sh_offset);
  char *got = base_ + regionStart_[kConstants] + gotOffset_;
  char *stubs = base_ + regionStart_[kText] + stubOffset_;
  for (size_t k = 0; k < relaSection.sh_size / sizeof(Elf64_Rela); ++k) {
    const Elf64_Rela &r = rela[k];
    uint32_t type = ELF64_R_TYPE(r.r_info), sym = ELF64_R_SYM(r.r_info);
    size_t width = (type == R_X86_64_64 || type == R_X86_64_PC64) ? 8 : 4;
    if (type == R_X86_64_NONE)
      continue;
    if (r.r_offset > target.sh_size || width > target.sh_size - r.r_offset)
      return error("a relocation lies outside its section");
    char *place = section + r.r_offset;
    const uint64_t p = reinterpret_cast<uint64_t>(place);
    uint64_t s = o.address[sym];
    const int64_t a = r.r_addend;
    auto store32 = [&](int64_t value, bool isSigned) -> absl::Status {
      bool fits = isSigned ? value >= INT32_MIN && value <= INT32_MAX
                           : value >= 0 && value <= static_cast<int64_t>(UINT32_MAX);
      if (!fits)
        return error(strCat("relocation ", type, " to '", name(o, o.symbols[sym]),
                            "' does not fit in 32 bits (is the code position-independent?)"));
      uint32_t v = static_cast<uint32_t>(value);
      std::memcpy(place, &v, 4);
      return absl::OkStatus();
    };
    switch (type) {
    case R_X86_64_64: {
      uint64_t v = s + static_cast<uint64_t>(a);
      std::memcpy(place, &v, 8);
      break;
    }
    case R_X86_64_PC64: {
      uint64_t v = s + static_cast<uint64_t>(a) - p;
      std::memcpy(place, &v, 8);
      break;
    }
    case R_X86_64_PLT32:
    case R_X86_64_PC32: {
      int64_t value = static_cast<int64_t>(s + static_cast<uint64_t>(a) - p);
      if (type == R_X86_64_PLT32 && (value < INT32_MIN || value > INT32_MAX)) {
        auto stub = o.stubSlot.find(sym);
        if (stub == o.stubSlot.end())
          return error(strCat("call to '", name(o, o.symbols[sym]), "' out of reach"));
        char *at = stubs + stub->second * kStubBytes;
        std::memcpy(at, kStubCode, sizeof kStubCode);
        std::memcpy(at + sizeof kStubCode, &s, 8);
        value = static_cast<int64_t>(reinterpret_cast<uint64_t>(at) + static_cast<uint64_t>(a) - p);
      }
      XS_RETURN_IF_ERROR(store32(value, /*isSigned=*/true));
      break;
    }
    case R_X86_64_GOTPCREL:
    case R_X86_64_GOTPCRELX:
    case R_X86_64_REX_GOTPCRELX: {
      char *slot = got + o.gotSlot.at(sym) * 8;
      std::memcpy(slot, &s, 8);
      XS_RETURN_IF_ERROR(store32(
          static_cast<int64_t>(reinterpret_cast<uint64_t>(slot) + static_cast<uint64_t>(a) - p),
          /*isSigned=*/true));
      break;
    }
    case R_X86_64_32:
      XS_RETURN_IF_ERROR(store32(static_cast<int64_t>(s + static_cast<uint64_t>(a)), false));
      break;
    case R_X86_64_32S:
      XS_RETURN_IF_ERROR(store32(static_cast<int64_t>(s + static_cast<uint64_t>(a)), true));
      break;
    default:
      return error(strCat("relocation type ", type, " is not supported"));
    }
  }
  return absl::OkStatus();
}

absl::Status Linker::relocate() {
  for (ObjectView &o : objects_)
    for (const Elf64_Shdr &s : o.sections) {
      if (s.sh_type == SHT_REL)
        return error("REL relocations are not supported (x86-64 objects use RELA)");
      if (s.sh_type == SHT_RELA && o.region[s.sh_info] >= 0)
        XS_RETURN_IF_ERROR(relocateSection(o, s));
    }
  return absl::OkStatus();
}

absl::Status Linker::protect(void *mapping) const {
  char *base = static_cast<char *>(mapping);
  const int protections[kRegions] = {PROT_READ | PROT_EXEC, PROT_READ, PROT_READ | PROT_WRITE};
  for (int r = 0; r < kRegions; ++r) {
    size_t bytes = alignUp(regionBytes_[r], kPage);
    if (bytes && mprotect(base + regionStart_[r], bytes, protections[r]) != 0)
      return error(strCat("mprotect failed: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

} // namespace

LoadedObject::~LoadedObject() {
  if (mapping_)
    munmap(mapping_, mappingBytes_);
}

absl::StatusOr<std::unique_ptr<LoadedObject>>
LoadedObject::load(const std::vector<std::string> &objects, const std::vector<std::string> &kernels,
                   const std::vector<HostSymbol> &hostSymbols) {
  Linker linker(kernels, hostSymbols);
  for (size_t i = 0; i < objects.size(); ++i)
    XS_RETURN_IF_ERROR(linker.read(objects[i], i));
  XS_RETURN_IF_ERROR(linker.layOut());
  std::unique_ptr<LoadedObject> loaded(new LoadedObject());
  if (linker.mappingBytes() > 0) {
    void *mapping = mmap(nullptr, linker.mappingBytes(), PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED)
      return absl::ResourceExhaustedError(
          strCat("cannot map ", linker.mappingBytes(), " bytes of kernel code"));
    loaded->mapping_ = mapping;
    loaded->mappingBytes_ = linker.mappingBytes();
    XS_RETURN_IF_ERROR(linker.place(mapping));
    XS_RETURN_IF_ERROR(linker.relocate());
    XS_RETURN_IF_ERROR(linker.protect(mapping));
  }
  loaded->exports_ = linker.takeExports();
  return loaded;
}

absl::StatusOr<CpuKernelFn> LoadedObject::lookup(const std::string &kernel,
                                                 const std::string &symbol) const {
  auto it = exports_.find(symbol);
  if (it == exports_.end())
    return absl::InternalError(strCat("kernel ", kernel, ": its code defines no symbol ", symbol));
  if (!it->second)
    return absl::InternalError(
        strCat("kernel ", kernel, ": symbol ", symbol, " resolved to a null address"));
  return reinterpret_cast<CpuKernelFn>(it->second);
}

} // namespace xs
