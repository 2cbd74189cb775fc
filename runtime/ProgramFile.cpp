#include "runtime/ProgramFile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "ir/ByteStream.h"
#include "ir/DenseElements.h"
#include "ir/Diagnostics.h"
#include "ir/HostPlanSerialization.h"

namespace xs {
namespace {

constexpr char kMagic[8] = {'X', 'S', 'T', 'I', 'T', 'C', 'H', '\0'};
constexpr size_t kPreambleBytes = 64; // magic, version, size, checksum, zeros

void putLittle(std::string &out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t getLittle(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<uint64_t>(static_cast<uint8_t>(in[at + i])) << (8 * i);
  return v;
}

void writeHeader(const ProgramFileHeader &h, ByteWriter &out) {
  for (const std::string *field :
       {&h.kind, &h.producer, &h.device, &h.cpu, &h.features, &h.key, &h.source})
    out.string(*field);
  for (const std::vector<std::string> *names : {&h.inputNames, &h.outputNames}) {
    out.u64(names->size());
    for (const std::string &name : *names)
      out.string(name);
  }
  out.boolean(h.flushDenormals);
}

absl::StatusOr<ProgramFileHeader> readHeader(ByteReader &in) {
  ProgramFileHeader h;
  for (std::string *field :
       {&h.kind, &h.producer, &h.device, &h.cpu, &h.features, &h.key, &h.source}) {
    XS_ASSIGN_OR_RETURN(std::string_view text, in.string("the file's header"));
    *field = std::string(text);
  }
  for (std::vector<std::string> *names : {&h.inputNames, &h.outputNames}) {
    XS_ASSIGN_OR_RETURN(size_t n, in.count("the input and output names"));
    for (size_t i = 0; i < n; ++i) {
      XS_ASSIGN_OR_RETURN(std::string_view name, in.string("an input or output name"));
      names->emplace_back(name);
    }
  }
  XS_ASSIGN_OR_RETURN(h.flushDenormals, in.boolean("the float mode"));
  return h;
}

/// The checked payload of a program file.
absl::StatusOr<std::string_view> payloadOf(std::string_view bytes, std::string_view name) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return absl::InvalidArgumentError(
        strCat(name, ": not an xstitch program file (a bundle written by xstitch-compile)"));
  if (bytes.size() < kPreambleBytes)
    return absl::DataLossError(strCat(name, ": truncated (", bytes.size(), " bytes)"));
  uint32_t version = static_cast<uint32_t>(getLittle(bytes, 8, 4));
  if (version != kProgramFileVersion)
    return absl::InvalidArgumentError(strCat(name, ": format version ", version,
                                             "; this xstitch reads version ", kProgramFileVersion,
                                             " (compile it again with this xstitch-compile)"));
  uint64_t size = getLittle(bytes, 12, 8), checksum = getLittle(bytes, 20, 8);
  if (size != bytes.size() - kPreambleBytes)
    return absl::DataLossError(strCat(name, ": truncated or padded (",
                                      bytes.size() - kPreambleBytes,
                                      " bytes of payload, the file says ", size, ")"));
  std::string_view payload = bytes.substr(kPreambleBytes);
  if (hashBytes64(payload.data(), payload.size()) != checksum)
    return absl::DataLossError(strCat(name, ": corrupt (its checksum does not match)"));
  return payload;
}

} // namespace

std::string encodeProgramFile(const ProgramFile &file) {
  // One buffer, written once: weights are most of it.
  size_t estimate = kPreambleBytes + (size_t{1} << 20);
  for (const HostBuffer &b : file.program.host.buffers)
    if (b.constant)
      estimate += static_cast<size_t>(b.constant->byteSize()) + DenseElements::kAlignment;
  for (const std::string &object : file.program.objects)
    estimate += object.size() + 16;
  ByteWriter out;
  out.reserve(estimate);
  out.raw(std::string(kPreambleBytes, '\0').data(), kPreambleBytes);
  writeHeader(file.header, out);
  writeProgram(file.program, out);
  std::string_view payload = std::string_view(out.bytes()).substr(kPreambleBytes);
  std::string preamble(kMagic, sizeof kMagic);
  putLittle(preamble, kProgramFileVersion, 4);
  putLittle(preamble, payload.size(), 8);
  putLittle(preamble, hashBytes64(payload.data(), payload.size()), 8);
  out.overwrite(0, preamble.data(), preamble.size());
  return out.take();
}

absl::StatusOr<ProgramFile> decodeProgramFile(std::string_view bytes, std::string_view name,
                                              std::shared_ptr<const void> owner) {
  XS_ASSIGN_OR_RETURN(std::string_view payload, payloadOf(bytes, name));
  ByteReader in(payload);
  ProgramFile file;
  absl::StatusOr<ProgramFileHeader> header = readHeader(in);
  if (!header.ok())
    return absl::DataLossError(strCat(name, ": ", header.status().message()));
  file.header = *std::move(header);
  absl::StatusOr<CompiledProgram> program = readProgram(in, std::move(owner));
  if (!program.ok())
    return absl::DataLossError(strCat(name, ": ", program.status().message()));
  if (!in.atEnd())
    return absl::DataLossError(strCat(name, ": ", in.remaining(), " bytes follow the program"));
  file.program = *std::move(program);
  return file;
}

absl::StatusOr<FileBytes> mapWholeFile(const std::string &path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT
               ? absl::NotFoundError(strCat(path, ": no such file"))
               : absl::PermissionDeniedError(strCat(path, ": cannot open: ", std::strerror(errno)));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int saved = errno;
    close(fd);
    return absl::PermissionDeniedError(strCat(path, ": cannot stat: ", std::strerror(saved)));
  }
  FileBytes file;
  size_t size = static_cast<size_t>(st.st_size);
  if (size > 0) {
    void *mapping = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (mapping == MAP_FAILED) {
      int saved = errno;
      close(fd);
      return absl::PermissionDeniedError(strCat(path, ": cannot map: ", std::strerror(saved)));
    }
    file.bytes = std::string_view(static_cast<const char *>(mapping), size);
    file.owner = std::shared_ptr<const void>(
        mapping, [size](const void *p) { munmap(const_cast<void *>(p), size); });
  }
  close(fd);
  return file;
}

absl::Status writeFileAtomically(const std::string &path, std::string_view bytes) {
  static std::atomic<uint64_t> counter{0};
  std::string temporary = strCat(path, ".tmp.", getpid(), ".", counter.fetch_add(1));
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return absl::PermissionDeniedError(
        strCat(temporary, ": cannot create: ", std::strerror(errno)));
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int saved = errno;
      close(fd);
      unlink(temporary.c_str());
      return absl::ResourceExhaustedError(
          strCat(temporary, ": cannot write: ", std::strerror(saved)));
    }
    written += static_cast<size_t>(n);
  }
  if (close(fd) != 0 || rename(temporary.c_str(), path.c_str()) != 0) {
    int saved = errno;
    unlink(temporary.c_str());
    return absl::PermissionDeniedError(strCat(path, ": cannot write: ", std::strerror(saved)));
  }
  return absl::OkStatus();
}

} // namespace xs
