// The self-description of a run (as OMPL's benchmark logs): host, CPU, compiler, flags, git
// commit, date, seed, config, and the column schema of its files.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace navbench {

nlohmann::json run_metadata(const std::vector<std::string>& argv, std::uint64_t seed, const nlohmann::json& config);

struct RunConfig;
// PREFIX.meta.json of a `navbench run` (its folder made when missing).
void write_run_metadata(const RunConfig& cfg);

}  // namespace navbench
