#ifndef XSTITCH_TESTS_UNIT_ELFIMAGE_H
#define XSTITCH_TESTS_UNIT_ELFIMAGE_H

// What recording HIP libraries need of an ELF64 image: hipModuleLoadData
// takes a code object without its size, as the real library does.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace xs::testing {

/// The size of an ELF64 image from its header: the section headers come
/// last in what lld writes (e_shoff + e_shentsize * e_shnum).
inline size_t elfImageSize(const char *image) {
  uint64_t sectionHeaders = 0;
  uint16_t entrySize = 0, entries = 0;
  std::memcpy(&sectionHeaders, image + 0x28, 8);
  std::memcpy(&entrySize, image + 0x3A, 2);
  std::memcpy(&entries, image + 0x3C, 2);
  return sectionHeaders + size_t{entrySize} * entries;
}

} // namespace xs::testing

#endif // XSTITCH_TESTS_UNIT_ELFIMAGE_H
