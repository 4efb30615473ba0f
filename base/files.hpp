// Whole files: written atomically (a reader never sees half of one, an interrupted writer leaves
// the old file) and read in one go. Shared by the sweep's results and the GPPC host's stamps.
#pragma once
#include <filesystem>
#include <string>

namespace navbench::base {

// Writes `text` to `path` atomically: a temporary file in the same folder, fsync'd, then renamed.
// Throws std::runtime_error when it cannot be written.
void write_atomic(const std::filesystem::path& path, const std::string& text);
// The whole file (empty when it cannot be read).
std::string read_file(const std::filesystem::path& p);

}  // namespace navbench::base
