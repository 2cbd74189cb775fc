#ifndef XSTITCH_TESTS_UNIT_PTXASUTIL_H
#define XSTITCH_TESTS_UNIT_PTXASUTIL_H

// Assembling emitted PTX with the CUDA toolkit's ptxas in tests, where CMake
// found one (XSTITCH_PTXAS); tests skip that step, saying so, where not.

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace xs::test {

/// ptxas's path, or empty when the toolkit is absent.
inline std::string ptxasPath() {
  std::string path = XSTITCH_PTXAS;
  if (path.empty() || path.find("NOTFOUND") != std::string::npos || !std::filesystem::exists(path))
    return "";
  return path;
}

struct PtxasResult {
  int status = -1;
  std::string output; // the command and what ptxas printed
};

/// Runs `ptxas -arch=ARCH` on `ptx` (ptxasPath() must be non-empty).
inline PtxasResult assembleWithPtxas(const std::string &ptx, const std::string &arch,
                                     const std::string &name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("xstitch-ptx-" + std::to_string(::getpid()) + "-" + name + "-" + arch);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "kernel.ptx") << ptx;
  std::string command = ptxasPath() + " -arch=" + arch + " " + (dir / "kernel.ptx").string() +
                        " -o " + (dir / "kernel.cubin").string() + " 2>&1";
  PtxasResult result;
  result.output = command + "\n";
  if (FILE *pipe = popen(command.c_str(), "r")) {
    char chunk[256];
    while (fgets(chunk, sizeof(chunk), pipe))
      result.output += chunk;
    result.status = pclose(pipe);
  }
  std::filesystem::remove_all(dir);
  return result;
}

} // namespace xs::test

#endif // XSTITCH_TESTS_UNIT_PTXASUTIL_H
