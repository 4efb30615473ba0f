#include "harness/run/description.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "datasets/terrain.hpp"
#include "geometry/radius_validity.hpp"
#include "smoothing/smoothing.hpp"

namespace navbench {

const OptionNames kCommandLineNames{"", "run", "--radius", "--dynamic", "--threads", "--rebuild-baseline", "--rep NAME[,NAME...]",
                                    "--smoothing", "--convention", "--search", "--terrain", "--costs",
                                    "--map", "--limit", "--queries", "--seed", "--trace", "--trace-cap"};
const OptionNames kSweepConfigNames{"sweep config: ", "sweep config", "'radii'", "'dynamic'", "--threads", "'rebuild_baseline'", "\"representations\"",
                                    "'smoothing'", "'conventions'", "'searches'", "a map entry's 'terrain'",
                                    "a map entry's 'costs'", "'maps'", "'queries'", "'queries'", "'seed'", "'trace'", "'trace_cap_mb'"};

namespace {
// The searches by name: the one list to_string, parse_search_list, the error and --search's help
// (search_names) read. detour: Recast's own query (docs/recast.md), on representations that have one.
constexpr std::pair<const char*, SearchMode> kSearches[] = {
    {"astar", SearchMode::astar}, {"theta", SearchMode::theta}, {"lazy-theta", SearchMode::lazy_theta}, {"detour", SearchMode::detour}};
}  // namespace

const char* to_string(SearchMode m) {
  for (const auto& [name, mode] : kSearches)
    if (mode == m) return name;
  return "astar";
}

std::string search_names() {
  std::string out;
  for (const auto& [name, mode] : kSearches) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

std::vector<SearchMode> parse_search_list(const std::string& value) {
  std::vector<SearchMode> out;
  for (const std::string& s : base::split_list(value)) {
    const auto* it = std::find_if(std::begin(kSearches), std::end(kSearches), [&](const auto& k) { return s == k.first; });
    if (it == std::end(kSearches)) throw std::invalid_argument("unknown search '" + s + "' (" + search_names() + ")");
    out.push_back(it->second);
  }
  return out;
}

// --pinch allow (SPEC §11): every representation that declares the rule (a `pinch` parameter:
// grid4/grid8 on the corner lattice, visgraph) and does not name it builds with pinch=allow, when
// its declaration allows that combination (the centre lattice's moves never pass a pinch point: it
// runs as it is). The others run as they are: a path valid without squeezing is valid with it.
void follow_squeeze(std::vector<RepresentationSpec>& reps) {
  for (RepresentationSpec& r : reps) {
    const auto& decl = r.entry->params;
    if (std::none_of(decl.begin(), decl.end(), [](const ParamDecl& p) { return std::string_view(p.name) == "pinch"; })) continue;
    const auto kv = base::split_list(r.params);
    if (std::any_of(kv.begin(), kv.end(), [](const std::string& s) { return s.starts_with("pinch="); })) continue;
    // A declared clash of pinch=allow with another key's default (grid's lattice=center) keeps the
    // representation as it is; one with a given value is caught by parse_rep_option below.
    auto given = [&](const char* key) {
      return std::any_of(kv.begin(), kv.end(), [&](const std::string& s) { return s.starts_with(std::string(key) + "="); });
    };
    auto fallback = [&](const char* key) {
      for (const ParamDecl& p : decl)
        if (std::string_view(p.name) == key) return p.fallback;
      return -1.0;
    };
    bool clashes = false;
    for (const ParamClash& c : r.entry->clashes) {
      if (std::string_view(c.a) == "pinch" && c.a_value == 1 && !given(c.b))
        clashes |= fallback(c.b) >= c.b_lo && fallback(c.b) <= c.b_hi;
      if (std::string_view(c.b) == "pinch" && c.b_lo <= 1 && 1 <= c.b_hi && !given(c.a)) clashes |= fallback(c.a) == c.a_value;
    }
    if (clashes) continue;
    const std::string params = r.params.empty() ? "pinch=allow" : r.params + ",pinch=allow";
    try {
      const auto allowed = parse_rep_option(r.name() + ":" + params);  // the declared clashes
      if (allowed.size() == 1) r.params = allowed.front().params;
    } catch (const std::invalid_argument&) {
    }
  }
}

namespace {

// The rules of changing maps (docs/changing-maps.md#running-a-changing-map): a run of changing maps
// follows --rep, --search, --smoothing, --heuristic, --convention, --repetitions, --paths,
// --checkopt, --no-optimum and --quiet; every other option is refused here (--batch with check_run's
// rule for it), never ignored.
void check_dynamic(const RunDescription& d, const OptionNames& n, bool has_maps) {
  if (d.dynamic.empty()) return;
  auto refuse = [&](const char* option) { throw std::invalid_argument(n.prefix + std::string(option) + " is not supported with " + n.dynamic); };
  if (!d.agents.empty()) refuse(n.radii);
  // A scenario's queries depend on the updates before them; a trace would need the map state of its epoch.
  if (d.unit.threads > 1) refuse(n.threads);
  if (d.unit.trace > 0) refuse(n.trace);
  if (d.unit.trace_cap > 0) refuse(n.trace_cap);
  if (has_maps) return;
  // The query selection chooses among a static map's queries (and reads its images): a changing
  // map runs every query of its scenario, so without maps these options would choose nothing.
  const QuerySelection& s = d.select;
  const QuerySelection unset;
  const OccupancyOptions& o = s.read.occupancy;
  const std::pair<bool, const char*> given[] = {
      {s.limit >= 0 || s.every > 1, n.limit}, {s.queries >= 0, n.queries}, {s.seed != unset.seed, n.seed},
      {!s.scen.empty(), "--scen"}, {!s.save_queries.empty(), "--save-queries"},  // these four: command line only
      {o.unknown_free != unset.read.occupancy.unknown_free, "--unknown"}, {o.wmax != unset.read.occupancy.wmax, "--wmax"},
      {o.occupied_thresh != unset.read.occupancy.occupied_thresh || o.free_thresh != unset.read.occupancy.free_thresh,
       "--occupied-thresh/--free-thresh"}};
  for (const auto& [set, option] : given)
    if (set)
      throw std::invalid_argument(n.prefix + std::string(option) + " needs " + n.maps + " (" + n.dynamic +
                                  " runs every query of its scenarios)");
}

}  // namespace

void check_run(RunDescription& d, const OptionNames& n, bool has_maps) {
  auto fail = [&](const std::string& what) { throw std::invalid_argument(n.prefix + what); };
  for (const Agent& a : d.agents)
    if (!std::isfinite(a.R()) || a.R() < 0) fail(std::string(n.radii) + " needs numbers >= 0");
  if (d.rebuild_baseline && d.dynamic.empty()) fail(std::string(n.rebuild_baseline) + " needs " + n.dynamic);
  check_dynamic(d, n, has_maps);
  if (d.unit.batch > 1 && (d.unit.threads > 1 || !d.dynamic.empty())) fail("--batch times one thread's queries over maps: not with --threads or --dynamic");
  if (d.reps.empty()) throw std::invalid_argument(std::string(n.who) + " needs " + n.reps);
  if (d.select.convention != "center" && d.select.convention != "corner")
    fail(std::string(n.convention) + " must be center or corner, got '" + d.select.convention + "'");
  for (const RepresentationSpec& r : d.reps) {  // SPEC 11: the corner lattice's query points are corners
    const auto kv = base::split_list(r.params);
    const bool corner = std::find(kv.begin(), kv.end(), "lattice=corner") != kv.end();
    if (corner && d.select.convention != "corner") fail(r.text + " needs the corner convention (" + n.convention + " corner)");
    if (!corner && std::find(kv.begin(), kv.end(), "pinch=allow") != kv.end())
      fail(r.text + ": pinch=allow needs lattice=corner (centre moves never pass a pinch point)");
  }
  if (d.select.squeeze && !d.dynamic.empty()) fail("the squeeze rule allow is not supported with " + std::string(n.dynamic));
  if (d.select.squeeze) follow_squeeze(d.reps);
  if (d.unit.smoothings.empty()) fail(std::string(n.smoothing) + " needs at least one name");
  if (d.unit.searches.empty()) fail(std::string(n.searches) + " needs at least one name");
  if (d.unit.heuristics.empty()) d.unit.heuristics.push_back(parse_heuristic("euclidean"));
  check_weights(d.select, d, n);
}

void check_weights(const QuerySelection& sel, const RunDescription& d, const OptionNames& n, bool on_dynamic) {
  const MapWeights& w = sel.weights;
  if (!w.any()) return;
  auto fail = [&](const std::string& what) { throw std::invalid_argument(n.prefix + what); };
  const std::string which = w.terrain ? n.terrain : n.costs;
  if (w.terrain && !w.costs.empty()) fail(std::string(n.terrain) + " and " + n.costs + " exclude each other");
  if (sel.convention != "center") fail(which + " needs the center convention (weights belong to cells)");
  for (const Agent& a : d.agents)
    if (a.disc()) fail(which + " with " + n.radii + " > 0 is not supported (agents with a radius on weighted maps)");
  if (on_dynamic && !d.dynamic.empty()) fail(which + " is not supported with " + n.dynamic);
}

void MapWeights::set_terrain(const std::string& text) {
  if (text.empty()) terrain.reset();
  else terrain = parse_terrain(text);
}

std::string smoothing_names() {
  std::string out;
  for (const auto& sm : smoothers()) out += (out.empty() ? "" : ", ") + std::string(sm.name);
  return out;
}

std::vector<std::string> parse_smoothing_list(const std::string& value) {
  std::vector<std::string> out;
  for (const std::string& s : base::split_list(value)) {
    bool known = false;
    for (auto& sm : smoothers()) known |= sm.name == s;
    if (!known) throw std::invalid_argument("unknown smoothing '" + s + "' (" + smoothing_names() + ")");
    out.push_back(s);
  }
  if (out.empty()) throw std::invalid_argument("--smoothing needs at least one name");
  return out;
}

nlohmann::json config_json(const RunConfig& c) {
  nlohmann::json j;
  j["maps"] = c.maps;
  if (!c.dynamic.empty()) {
    j["dynamic"] = c.dynamic;
    j["rebuild_baseline"] = c.rebuild_baseline;
  }
  j["scen"] = c.select.scen;
  std::vector<std::string> reps, heur;
  for (auto& r : c.reps) reps.push_back(r.text);
  for (auto& h : c.unit.heuristics) heur.push_back(h.text);
  j["representations"] = reps;
  j["heuristics"] = heur;
  j["smoothing"] = c.unit.smoothings;
  std::vector<std::string> searches;
  for (SearchMode m : c.unit.searches) searches.push_back(to_string(m));
  j["searches"] = searches;
  j["repetitions"] = c.unit.repetitions;
  j["batch"] = c.unit.batch;
  j["threads"] = c.unit.threads;
  j["convention"] = c.select.convention;
  j["pinch"] = c.select.squeeze ? "allow" : "forbid";
  j["limit"] = c.select.limit;
  j["queries"] = c.select.queries;
  j["seed"] = c.select.seed;
  if (!c.agents.empty()) {
    std::vector<double> radii;
    for (const Agent& a : c.agents) radii.push_back(a.R());
    j["radii"] = radii;
  }
  if (c.select.weights.terrain) j["terrain"] = c.select.weights.terrain->text;
  if (!c.select.weights.costs.empty()) j["costs"] = c.select.weights.costs;
  return j;
}

}  // namespace navbench
