// navbench reproduce gppc2023-classic | gppc2023-anyangle (docs/reproduce.md): the GPPC 2023
// entries' published statistics beside the same statistics measured here.
#pragma once
#include <string>
#include <vector>

namespace navbench {

struct GppcOptions {
  std::string config;                     // the entries (and optionally maps, limit): docs/reproduce.md
  std::string published;                  // the folder of published-statistics.csv
  std::vector<std::string> default_maps;  // when the config names none
  long limit = -1;                        // --limit: queries per map (overrides the config's)
  std::string out;
};

// Runs the config's entries and navbench's own representations of `track` (classic, anyangle);
// prints the Markdown table, writes table.md, index.html, meta.json and run/ under o.out.
int reproduce_gppc(const std::string& track, const GppcOptions& o, const std::vector<std::string>& argv);
// A reproduction's Markdown (paragraphs and pipe tables) as one HTML page.
void write_reproduce_html(const std::string& file, const std::string& title, const std::string& md);

}  // namespace navbench
