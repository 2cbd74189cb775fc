#ifndef XSTITCH_TESTS_UNIT_SOURCEDIR_H
#define XSTITCH_TESTS_UNIT_SOURCEDIR_H

// Where the tests find the examples and test files: the source tree the build
// came from, or $XSTITCH_SOURCE_DIR where the tests run from a package on
// another machine (scripts/package-gpu.sh ships the files next to them).

#include <cstdlib>
#include <string>

namespace xs {

inline std::string testSourceDir() {
  const char *dir = std::getenv("XSTITCH_SOURCE_DIR");
  return dir != nullptr && *dir ? std::string(dir) : std::string(XSTITCH_SOURCE_DIR);
}

} // namespace xs

#endif // XSTITCH_TESTS_UNIT_SOURCEDIR_H
