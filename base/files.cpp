#include "base/files.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace navbench::base {

namespace fs = std::filesystem;

void write_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error(tmp.string() + ": cannot write");
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
    std::fclose(f);
    if (!ok) throw std::runtime_error(tmp.string() + ": write failed (disk full?)");
  }
  fs::rename(tmp, path);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace navbench::base

namespace navbench::base {

namespace {

class DiskFiles : public FileSource {
 public:
  Kind kind(const std::string& path) const override {
    std::error_code ec;
    if (!fs::exists(path, ec)) return Kind::missing;
    return fs::is_regular_file(path, ec) ? Kind::regular : Kind::other;
  }
  std::optional<std::string> read(const std::string& path) const override {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return ss.str();
  }
};

}  // namespace

const FileSource& disk_files() {
  static const DiskFiles disk;
  return disk;
}

FileSource::Kind MemoryFiles::kind(const std::string& path) const {
  if (files.count(path)) return Kind::regular;
  const std::string dir = path.ends_with('/') ? path : path + "/";
  for (const auto& [name, bytes] : files)
    if (name.starts_with(dir) || (path == "." && name.find('/') == std::string::npos)) return Kind::other;
  return Kind::missing;
}

std::optional<std::string> MemoryFiles::read(const std::string& path) const {
  const auto it = files.find(path);
  if (it == files.end()) return std::nullopt;
  return it->second;
}

}  // namespace navbench::base
