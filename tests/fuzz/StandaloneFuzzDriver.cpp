// A small stand-in for libFuzzer where the compiler has none (g++): replays
// every file of the given corpus folders through LLVMFuzzerTestOneInput, then
// mutates them at random (bit flips, insertions of bytes and grammar tokens,
// deletions, duplications, splices of two inputs) until the time is up.
// It understands the libFuzzer flags the ctest passes:
//   -max_total_time=SECONDS -runs=N -max_len=BYTES -seed=N -artifact_prefix=PATH
// (-timeout and other flags are accepted and ignored). When an input crashes,
// a signal handler writes it to <artifact_prefix>crash-input before dying.

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

using Input = std::vector<uint8_t>;

// The input being run, for the crash handler (which may only use
// async-signal-safe calls, so everything it needs is prepared up front).
const Input *gCurrent = nullptr;
char gCrashPath[4096] = "crash-input";

void onCrash(int signo) {
  int fd = ::open(gCrashPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0 && gCurrent) {
    ssize_t ignored = ::write(fd, gCurrent->data(), gCurrent->size());
    (void)ignored;
    ::close(fd);
  }
  const char msg[] = "StandaloneFuzzDriver: crash; input written to the artifact path\n";
  ssize_t ignored = ::write(2, msg, sizeof(msg) - 1);
  (void)ignored;
  std::signal(signo, SIG_DFL);
  std::raise(signo);
}

// Tokens that reach deeper into the grammar than random bytes do.
const char *const kTokens[] = {"func",
                               "@f",
                               "%x",
                               "%0",
                               "(",
                               ")",
                               "[",
                               "]",
                               "{",
                               "}",
                               ",",
                               ":",
                               "=",
                               "==",
                               "->",
                               "<=",
                               ">=",
                               "%",
                               "-",
                               "+",
                               "*",
                               "/",
                               "where",
                               "return",
                               "f32[N]",
                               "i64[]",
                               "dense<",
                               ">",
                               "nan",
                               "inf",
                               "0",
                               "1",
                               "-1",
                               "9223372036854775807",
                               "9223372036854775808",
                               "1.5e-5",
                               "add",
                               "reshape",
                               "constant",
                               "broadcast",
                               "dims",
                               "value",
                               "S*B",
                               "(S + 1)/2",
                               "\n",
                               "//",
                               "layer_norm",
                               "slice",
                               "start",
                               "limit",
                               "perm",
                               "dir = lt",
                               "to = f16"};

class Mutator {
public:
  Mutator(uint64_t seed, size_t maxLen) : rng_(seed), maxLen_(maxLen) {}

  Input mutate(const std::vector<Input> &pool) {
    Input in = pool[pick(pool.size())];
    int rounds = 1 + static_cast<int>(pick(4));
    for (int i = 0; i < rounds; ++i)
      mutateOnce(in, pool);
    if (in.size() > maxLen_)
      in.resize(maxLen_);
    return in;
  }

private:
  size_t pick(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
  }

  void mutateOnce(Input &in, const std::vector<Input> &pool) {
    size_t pos = pick(in.size() + 1);
    switch (pick(7)) {
    case 0: // flip a bit
      if (!in.empty())
        in[pick(in.size())] ^= static_cast<uint8_t>(1u << pick(8));
      break;
    case 1: // insert a random byte
      in.insert(in.begin() + static_cast<std::ptrdiff_t>(pos), static_cast<uint8_t>(pick(256)));
      break;
    case 2: { // insert a grammar token
      const char *t = kTokens[pick(std::size(kTokens))];
      in.insert(in.begin() + static_cast<std::ptrdiff_t>(pos), t, t + std::strlen(t));
      break;
    }
    case 3: { // delete a range
      if (in.empty())
        break;
      size_t start = pick(in.size());
      size_t len = 1 + pick(std::min<size_t>(32, in.size() - start));
      in.erase(in.begin() + static_cast<std::ptrdiff_t>(start),
               in.begin() + static_cast<std::ptrdiff_t>(start + len));
      break;
    }
    case 4: { // duplicate a chunk
      if (in.empty())
        break;
      size_t start = pick(in.size());
      size_t len = 1 + pick(std::min<size_t>(64, in.size() - start));
      Input chunk(in.begin() + static_cast<std::ptrdiff_t>(start),
                  in.begin() + static_cast<std::ptrdiff_t>(start + len));
      in.insert(in.begin() + static_cast<std::ptrdiff_t>(pos), chunk.begin(), chunk.end());
      break;
    }
    case 5: { // splice: a prefix of this input and a suffix of another
      const Input &other = pool[pick(pool.size())];
      size_t cut = pick(other.size() + 1);
      in.resize(pos);
      in.insert(in.end(), other.begin() + static_cast<std::ptrdiff_t>(cut), other.end());
      break;
    }
    default: // overwrite with a printable character
      if (!in.empty())
        in[pick(in.size())] = static_cast<uint8_t>(32 + pick(95));
      break;
    }
  }

  std::mt19937_64 rng_;
  size_t maxLen_;
};

bool readFlag(const std::string &arg, const char *name, std::string &value) {
  std::string prefix = std::string("-") + name + "=";
  if (arg.rfind(prefix, 0) != 0)
    return false;
  value = arg.substr(prefix.size());
  return true;
}

void run(const Input &in) {
  gCurrent = &in;
  LLVMFuzzerTestOneInput(in.data(), in.size());
  gCurrent = nullptr;
}

} // namespace

int main(int argc, char **argv) {
  double seconds = 30;
  size_t maxLen = 4096;
  uint64_t seed = 1;
  uint64_t maxRuns = UINT64_MAX; // mutated inputs; -runs
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (readFlag(arg, "max_total_time", value))
      seconds = std::atof(value.c_str());
    else if (readFlag(arg, "max_len", value))
      maxLen = static_cast<size_t>(std::atoll(value.c_str()));
    else if (readFlag(arg, "runs", value))
      maxRuns = static_cast<uint64_t>(std::atoll(value.c_str()));
    else if (readFlag(arg, "seed", value))
      seed = static_cast<uint64_t>(std::atoll(value.c_str()));
    else if (readFlag(arg, "artifact_prefix", value))
      std::snprintf(gCrashPath, sizeof(gCrashPath), "%scrash-input", value.c_str());
    else if (arg.rfind("-", 0) != 0)
      dirs.push_back(arg);
  }
  for (int signo : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
    std::signal(signo, onCrash);

  std::vector<Input> pool;
  for (const std::string &dir : dirs) {
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
      if (!entry.is_regular_file())
        continue;
      std::ifstream file(entry.path(), std::ios::binary);
      Input in((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      if (in.size() > maxLen)
        in.resize(maxLen);
      pool.push_back(std::move(in));
    }
  }
  if (pool.empty())
    pool.push_back(Input());
  for (const Input &in : pool)
    run(in);
  std::fprintf(stderr, "StandaloneFuzzDriver: replayed %zu inputs\n", pool.size());

  Mutator mutator(seed, maxLen);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  uint64_t runs = 0;
  while (runs < maxRuns && std::chrono::steady_clock::now() < deadline) {
    Input in = mutator.mutate(pool);
    run(in);
    ++runs;
  }
  std::fprintf(stderr, "StandaloneFuzzDriver: %llu mutated inputs, no crash\n",
               static_cast<unsigned long long>(runs));
  return 0;
}
