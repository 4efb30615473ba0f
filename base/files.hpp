// Whole files: written atomically (a reader never sees half of one, an interrupted writer leaves
// the old file) and read in one go. Shared by the sweep's results and the GPPC host's stamps.
// FileSource: where a reader finds the files one file names (a ROS map's YAML names its image):
// the disk, or a set of files held in memory (the fuzz targets, tests/fuzz/).
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace navbench::base {

// Writes `text` to `path` atomically: a temporary file in the same folder, fsync'd, then renamed.
// Throws std::runtime_error when it cannot be written.
void write_atomic(const std::filesystem::path& path, const std::string& text);
// The whole file (empty when it cannot be read).
std::string read_file(const std::filesystem::path& p);

// Files by path: what a reader asks of the file system, and nothing more.
class FileSource {
 public:
  enum class Kind { missing, regular, other };  // other: a folder, a device, ...
  virtual ~FileSource() = default;
  virtual Kind kind(const std::string& path) const = 0;
  // The file's bytes; nullopt when it cannot be opened or read.
  virtual std::optional<std::string> read(const std::string& path) const = 0;
};

// The file system.
const FileSource& disk_files();

// Files held in memory, by path as given (a path that is a folder of some file's: Kind::other).
class MemoryFiles : public FileSource {
 public:
  std::map<std::string, std::string> files;
  Kind kind(const std::string& path) const override;
  std::optional<std::string> read(const std::string& path) const override;
};

}  // namespace navbench::base
