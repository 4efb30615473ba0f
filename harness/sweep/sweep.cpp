// `navbench sweep CONFIG`: every (map, convention, radius, representation) of a config as a unit,
// units run in parallel and written atomically, finished units skipped on a re-run.
#include "harness/sweep/sweep.hpp"
#include "harness/run/traces.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/files.hpp"
#include "datasets/dynamic.hpp"
#include "harness/results/results.hpp"
#include "harness/run/dynamic.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/run.hpp"
#include "harness/sweep/config.hpp"
#include "harness/sweep/units.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace navbench {
namespace {

// A folder belongs to one sweep config: resuming into it with another config is refused.
// Leftovers of a killed run (temporary and partial files) are removed.
void claim_output_folder(const fs::path& out, const SweepConfig& cfg, const std::string& hash) {
  fs::create_directories(out / "units");
  fs::create_directories(out / "optimum");
  const fs::path stamp = out / "sweep.json";
  if (fs::exists(stamp)) {
    json old;
    try {
      old = json::parse(base::read_file(stamp));
    } catch (...) {
    }
    if (old.value("config_hash", "") != hash)
      throw std::invalid_argument(out.string() + " holds results of a different sweep config; choose another --out");
  } else {
    base::write_atomic(stamp, json_text(json{{"config_hash", hash}, {"config", cfg.canonical}}, 2) + "\n");
  }
  for (const auto& e : fs::directory_iterator(out / "units"))
    if (e.path().string().find(".tmp") != std::string::npos || e.path().string().find(".part.") != std::string::npos)
      fs::remove(e.path());
}

// Every unit of the sweep, static ones first (in map, convention, radius, representation order),
// then the dynamic ones; the ids name the files.
struct UnitPlan {
  std::vector<Unit> units;
  std::vector<std::string> static_ids, dyn_ids;
  std::vector<Unit> skipped;  // the static units an entry's skip_maps leaves out: recorded, not run
  std::vector<std::string> skipped_ids;
};

UnitPlan plan_units(const SweepConfig& cfg, const std::vector<PreparedMap>& maps) {
  UnitPlan p;
  for (std::size_t mi = 0; mi < maps.size(); ++mi)
    for (const auto& conv : cfg.conventions)
      for (const Agent& agent : agent_passes(cfg.agents))
        for (std::size_t ri = 0; ri < cfg.reps.size(); ++ri) {
          const RepresentationSpec& r = cfg.reps[ri];
          Unit u{mi, conv, r, static_unit_id(maps[mi].map.collection, maps[mi].map.name, conv, r.text, agent.column(),
                                             weights_tag(maps[mi].selection.weights)),
                 -1, agent};
          // its entry's skip_maps: not run, its record (ID.unrun.csv) written by run_planned
          (runs_on(cfg.rep_skip[ri], maps[mi].map.name) ? p.units : p.skipped).push_back(std::move(u));
        }
  for (const auto& u : p.units) p.static_ids.push_back(u.id);
  for (const auto& u : p.skipped) p.skipped_ids.push_back(u.id);
  p.dyn_ids = dynamic_unit_ids(cfg.dynamic, cfg.conventions, cfg.reps);
  std::size_t k = 0;
  for (std::size_t d = 0; d < cfg.dynamic.size(); ++d)
    for (const auto& conv : cfg.conventions)
      for (const auto& r : cfg.reps) p.units.push_back({0, conv, r, p.dyn_ids[k++], long(d), Agent{}});
  return p;
}

// Execution order (the unit ids and shards stay as they are): the units of `jobs` maps at a time,
// interleaved, so each worker prepares a different map's queries and exact optimum instead of
// waiting on the lock of the one map being prepared (an exact optimum can take seconds); about
// 2 x jobs maps are held at once. Dynamic units run last, in order.
std::vector<const Unit*> execution_order(const std::vector<const Unit*>& todo, std::size_t jobs) {
  std::vector<std::vector<const Unit*>> groups;
  std::map<std::tuple<std::size_t, std::string, std::optional<double>>, std::size_t> group_of;
  std::vector<const Unit*> order, dyn;
  for (const Unit* u : todo) {
    if (u->dyn >= 0) {
      dyn.push_back(u);
      continue;
    }
    auto [it, fresh] = group_of.try_emplace({u->map, u->convention, u->agent.column()}, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(u);
  }
  for (std::size_t g0 = 0; g0 < groups.size(); g0 += jobs) {
    const std::size_t g1 = std::min(groups.size(), g0 + jobs);
    for (std::size_t i = 0, left = g1 - g0; left > 0; ++i)
      for (std::size_t g = g0; g < g1; ++g)
        if (i < groups[g].size()) {
          order.push_back(groups[g][i]);
          if (i + 1 == groups[g].size()) --left;
        }
  }
  order.insert(order.end(), dyn.begin(), dyn.end());
  return order;
}

// One dynamic unit: the scenario through one representation (run/dynamic.cpp) into
// units/ID.part.*, then renamed into place, ID.csv last (its presence marks the unit finished).
// Returns the number of rows.
std::size_t run_dynamic_unit(const SweepConfig& cfg, const Unit& u, const fs::path& out, const std::vector<std::string>& argv) {
  RunConfig rc;
  static_cast<RunDescription&>(rc) = cfg;
  rc.dynamic = {cfg.dynamic[std::size_t(u.dyn)]};
  rc.reps = {u.rep};
  rc.select.convention = u.convention;
  rc.unit.threads = 1;  // a dynamic scenario's queries depend on the updates before them
  rc.quiet = true;
  rc.entry_columns = sweep_groups(cfg).entry;  // every unit's build file as the merged one's
  rc.argv = argv;
  const fs::path dir = out / "units";
  rc.out = (dir / (u.id + ".part")).string();
  run_dynamic(rc);
  for (const char* ext : {".updates.csv", ".build.csv", ".paths.csv", ".unrun.csv"})
    if (fs::exists(rc.out + ext)) fs::rename(rc.out + ext, dir / (u.id + ext));
  fs::remove(rc.out + ".meta.json");
  const std::string rows = base::read_file(rc.out + ".csv");
  fs::rename(rc.out + ".csv", dir / (u.id + ".csv"));
  const std::size_t lines = std::size_t(std::count(rows.begin(), rows.end(), '\n'));
  return lines ? lines - 1 : 0;
}

// Per (map, convention, agent): the map and its AgentMap (queries and the exact optimum), prepared
// once under a lock, shared by that map's units (read-only, safe to share), and the optimum saved
// so a resume reuses it.
struct SharedMap {
  std::mutex m;
  std::unique_ptr<PreparedMap> pm;
  std::unique_ptr<AgentMap> am;
  std::size_t pending = 0;
};

// A previous (interrupted) run's saved optimum into `queries`; false when there is none.
bool read_saved_optimum(const fs::path& opt, std::vector<QueryInput>& queries) {
  if (!fs::exists(opt)) return false;
  std::istringstream in(base::read_file(opt));
  std::string line;
  std::getline(in, line);
  std::size_t qi = 0;
  while (std::getline(in, line) && qi < queries.size()) {
    // scen_index,optimal[,optimal_cost]: the weighted maps' reference cost too (docs/terrain.md)
    const std::size_t a = line.find(','), b = line.find(',', a + 1);
    const std::string v = line.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
    if (!v.empty()) queries[qi].optimal = std::stod(v);
    if (b != std::string::npos && b + 1 < line.size()) queries[qi].optimal_cost = std::stod(line.substr(b + 1));
    ++qi;
  }
  return true;
}

void prepare_shared(SharedMap& sh, const PreparedMap& read, const Unit& u, const fs::path& out, int threads) {
  // The map and scenario were read and checked once, before any unit: copy, don't re-read.
  sh.pm = std::make_unique<PreparedMap>(read);
  sh.pm->selection.convention = u.convention;
  const fs::path opt = out / "optimum" / (optimum_id(read.map.collection, read.map.name, u.convention, u.agent.column(),
                                                     weights_tag(read.selection.weights)) +
                             (read.selection.squeeze ? "__pinch-allow" : "") + ".csv");
  bool saved = false;
  // The weighted maps' reference optimum: as many threads as a unit's queries.
  sh.am = std::make_unique<AgentMap>(*sh.pm, u.agent, OracleOptions{.optimum = true, .threads = threads,
                                     .saved = [&](std::vector<QueryInput>& q) { return saved = read_saved_optimum(opt, q); }});
  if (saved) return;
  const bool costs = sh.pm->map.weighted();
  std::string text = costs ? "scen_index,optimal,optimal_cost\n" : "scen_index,optimal\n";
  for (const auto& q : sh.am->queries())
    text += std::to_string(q.scen_index) + "," + (q.optimal ? exact_text(*q.optimal) : "") +
            (costs ? "," + (q.optimal_cost ? exact_text(*q.optimal_cost) : std::string()) : std::string()) + "\n";
  base::write_atomic(opt, text);
}

// One static unit on its shared map: rows into units/ID.*, ID.csv last. Returns the number of rows.
std::size_t run_static_unit(const SweepConfig& cfg, const Unit& u, const AgentMap& am, const fs::path& out) {
  const ColumnGroups groups = sweep_groups(cfg);
  std::string csv = result_header(groups) + "\n", paths = paths_header(groups) + "\n";
  std::size_t nrows = 0;
  UnitOptions unit = cfg.unit;  // its traces (docs/traces.md) under units/traces/, a fresh index per run of the unit
  if (!u.rep.searches.empty()) unit.searches = u.rep.searches;  // the entry's own (docs/command-line.md#sweep-config)
  unit.trace_prefix = (out / "units" / u.id).string();
  if (unit.trace) fs::remove(trace_index(unit.trace_prefix));
  std::string unrun = unrun_header(groups) + "\n";  // why it has no rows, when its build refused the map
  auto b = run_unit(
      am, u.rep, unit,
      [&](const ResultRow& r) {
        csv += format_row(r, groups) + "\n";
        if (cfg.unit.paths)
          if (auto p = format_path_row(r, groups); !p.empty()) paths += p + "\n";
        ++nrows;
      },
      [&](const UnrunRow& r) { unrun += format_unrun_row(r, groups) + "\n"; });
  const fs::path dir = out / "units";
  base::write_atomic(dir / (u.id + ".build.csv"), build_header(groups) + "\n" + (b ? format_build_row(*b, groups) + "\n" : ""));
  base::write_atomic(dir / (u.id + ".unrun.csv"), unrun);
  if (cfg.unit.paths) base::write_atomic(dir / (u.id + ".paths.csv"), paths);
  base::write_atomic(dir / (u.id + ".csv"), csv);  // last: its presence marks the unit finished
  return nrows;
}

// Which unit a worker runs next. A map's queries and exact optimum are prepared by the first
// worker to take one of its units (an exact optimum, or a weighted map's reference, can take
// seconds); until they are ready no other worker takes a unit of that map, but the next unit in
// `order` that it can start (another map's, a dynamic scenario's). So no worker waits on another's
// preparation while there is other work, and the order is kept otherwise. Waits only when every
// unit left belongs to a map being prepared.
class UnitQueue {
 public:
  using Key = std::tuple<std::size_t, std::string, std::optional<double>>;
  static Key key(const Unit& u) { return {u.map, u.convention, u.agent.column()}; }

  explicit UnitQueue(const std::vector<const Unit*>& order) : order_(order), taken_(order.size(), 0) {}

  // The next unit, and whether the caller is to prepare its map; nullptr when none is left (or stop()).
  std::pair<const Unit*, bool> next() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      if (stopped_) return {nullptr, false};
      while (first_ < order_.size() && taken_[first_]) ++first_;
      if (first_ == order_.size()) return {nullptr, false};
      for (std::size_t i = first_; i < order_.size(); ++i) {
        if (taken_[i]) continue;
        const Unit& u = *order_[i];
        if (u.dyn >= 0) return take(i, false);
        auto [it, fresh] = state_.try_emplace(key(u), State::unprepared);
        if (it->second == State::preparing) continue;
        const bool prepare = it->second == State::unprepared;
        if (prepare) it->second = State::preparing;
        return take(i, prepare);
      }
      ready_.wait(lock);  // every unit left waits on a map being prepared
    }
  }
  // The map of `u` is prepared (or failed: then stop() follows).
  void prepared(const Unit& u) {
    {
      std::lock_guard<std::mutex> lock(m_);
      state_[key(u)] = State::ready;
    }
    ready_.notify_all();
  }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stopped_ = true;
    }
    ready_.notify_all();
  }

 private:
  enum class State { unprepared, preparing, ready };
  std::pair<const Unit*, bool> take(std::size_t i, bool prepare) {
    taken_[i] = 1;
    return {order_[i], prepare};
  }
  std::mutex m_;
  std::condition_variable ready_;
  const std::vector<const Unit*>& order_;
  std::vector<char> taken_;
  std::size_t first_ = 0;
  std::map<Key, State> state_;
  bool stopped_ = false;
};

// A unit's failure, thrown again with the unit's id in front and its kind kept: a refusal for the
// input (InputError, invalid_argument) exits with 2 like any other, everything else with 1.
[[noreturn]] void rethrow_for_unit(std::exception_ptr e, const std::string& unit) {
  try {
    std::rethrow_exception(e);
  } catch (const base::InputError& x) {
    throw base::InputError(unit + ": " + x.what());
  } catch (const std::invalid_argument& x) {
    throw std::invalid_argument(unit + ": " + x.what());
  } catch (const std::exception& x) {
    throw std::runtime_error(unit + ": " + x.what());
  }
}

// Runs `todo` on `jobs` threads; the first failure stops the others and is thrown.
void run_units(const SweepConfig& cfg, const std::vector<const Unit*>& todo, const std::vector<PreparedMap>& maps,
               const fs::path& out, const SweepArgs& o, const std::vector<std::string>& argv) {
  std::map<UnitQueue::Key, SharedMap> shared;
  for (const Unit* u : todo)
    if (u->dyn < 0) ++shared[UnitQueue::key(*u)].pending;
  Progress progress;
  progress.total = todo.size();
  progress.quiet = o.quiet;
  UnitQueue queue(todo);
  std::mutex err_m;
  std::exception_ptr first_error;
  std::string failed_unit;
  auto worker = [&] {
    for (;;) {
      const auto [unit, prepare] = queue.next();
      if (!unit) return;
      const Unit& u = *unit;
      try {
        const auto t0 = base::Clock::now();
        std::size_t nrows = 0;
        if (u.dyn >= 0) {
          nrows = run_dynamic_unit(cfg, u, out, argv);
        } else {
          SharedMap& sh = shared.at(UnitQueue::key(u));
          const AgentMap* am = nullptr;
          {
            std::lock_guard<std::mutex> lock(sh.m);
            if (prepare) prepare_shared(sh, maps[u.map], u, out, cfg.unit.threads);
            am = sh.am.get();
          }
          if (prepare) queue.prepared(u);
          nrows = run_static_unit(cfg, u, *am, out);
          std::lock_guard<std::mutex> lock(sh.m);
          if (--sh.pending == 0) sh.am.reset(), sh.pm.reset();  // free the map once its last unit is done
        }
        progress.unit_done(u.id, nrows, base::s_since(t0));
      } catch (const std::exception&) {
        {
          std::lock_guard<std::mutex> lock(err_m);
          if (!first_error) first_error = std::current_exception(), failed_unit = u.id;
        }
        queue.stop();
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::min<std::size_t>(o.jobs, std::max<std::size_t>(todo.size(), 1)); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (first_error) rethrow_for_unit(first_error, failed_unit);
}

// When every unit is there, the merged result set; otherwise a note that other shards hold the rest.
void finish(const SweepConfig& cfg, const UnitPlan& plan, const fs::path& out, const SweepArgs& o) {
  std::size_t missing = 0;
  for (const auto& u : plan.units) missing += !fs::exists(out / "units" / (u.id + ".csv"));
  if (missing == 0) {
    if (!plan.static_ids.empty())
      write_merged(out, {out / "units"}, plan.static_ids, cfg.unit.paths, sweep_groups(cfg), plan.skipped_ids);
    if (!plan.dyn_ids.empty())
      write_merged(out / "dynamic", {out / "units"}, plan.dyn_ids, cfg.unit.paths, {.epoch = true, .entry = sweep_groups(cfg).entry});
    if (!o.quiet)
      std::cerr << "navbench: sweep complete: " << (plan.static_ids.empty() ? "" : (out / "results.csv").string())
                << (plan.static_ids.empty() || plan.dyn_ids.empty() ? "" : ", ")
                << (plan.dyn_ids.empty() ? "" : (out / "dynamic" / "results.csv").string()) << '\n';
  } else if (!o.quiet) {
    std::cerr << "navbench: shard " << o.shard_k << "/" << o.shard_n << " done; " << missing
              << " units belong to other shards: combine with `navbench merge`\n";
  }
}

// The units of this shard still to run, the run's metadata, the units, then the merged results
// when every unit is there.
void run_planned(const SweepConfig& cfg, const std::vector<PreparedMap>& maps, const fs::path& out, const std::string& hash,
                 const SweepArgs& o, const std::vector<std::string>& argv) {
  const UnitPlan plan = plan_units(cfg, maps);
  // --shard K/N: units K-1, K-1+N, ... — deterministic, so N machines cover the sweep exactly once.
  std::vector<const Unit*> todo;
  for (std::size_t i = 0; i < plan.units.size(); ++i)
    if (long(i % std::size_t(o.shard_n)) == o.shard_k - 1 && !fs::exists(out / "units" / (plan.units[i].id + ".csv")))
      todo.push_back(&plan.units[i]);
  todo = execution_order(todo, o.jobs);
  // The units skip_maps leaves out, recorded as such (docs/results.md#maps-not-run) by every shard:
  // the merged results say why those maps have no rows of the representation.
  const ColumnGroups groups = sweep_groups(cfg);
  for (const Unit& u : plan.skipped) {
    const fs::path f = out / "units" / (u.id + ".unrun.csv");
    if (fs::exists(f)) continue;
    const PreparedMap& pm = maps[u.map];
    base::write_atomic(f, unrun_header(groups) + "\n" +
                              format_unrun_row(unrun_row(pm.map, u.convention, u.agent, u.rep, "skip_maps",
                                                         "the sweep config's skip_maps of " + u.rep.text + " names " + pm.map.name),
                                               groups) + "\n");
  }

  json meta = run_metadata(argv, cfg.select.seed, cfg.canonical);
  meta["config_hash"] = hash;
  meta["shard"] = std::to_string(o.shard_k) + "/" + std::to_string(o.shard_n);
  meta["jobs"] = o.jobs;
  std::vector<const Map*> read;  // maps from occupancy images: resolution, origin, how read (docs/maps.md)
  for (const auto& pm : maps) read.push_back(&pm.map);
  if (const json frames = map_frames_json(read); !frames.empty()) meta["map_frames"] = frames;
  base::write_atomic(out / "results.meta.json", json_text(meta, 2) + "\n");

  run_units(cfg, todo, maps, out, o, argv);
  finish(cfg, plan, out, o);
}

// What a sweep refused for its input had written into a folder it made: all of it, or, in a folder
// that was there before (without a sweep in it), the sweep's own entries.
void remove_sweep_files(const fs::path& out, bool existed) {
  std::error_code ec;
  if (!existed) {
    fs::remove_all(out, ec);
    return;
  }
  for (const char* f : {"sweep.json", "results.meta.json", "results.csv", "results.build.csv", "results.paths.csv", "results.unrun.csv", "units",
                        "optimum", "dynamic"})
    fs::remove_all(out / f, ec);
}

}  // namespace

int sweep_command(const SweepArgs& o, const std::vector<std::string>& argv) {
  SweepConfig cfg = read_config(o.config_path);
  cfg.unit.threads = o.threads;  // not part of the config: the rows are the same for any count (dynamic units use 1)
  const fs::path out = o.out.empty() ? fs::path(cfg.output) : fs::path(o.out);
  const std::string hash = config_hash(json_text(cfg.canonical));

  // Every map, scenario and dynamic scenario is read and checked before any unit runs, and before
  // the output folder is made: a refused input leaves nothing behind.
  std::vector<PreparedMap> maps;
  for (std::size_t i = 0; i < cfg.maps.size(); ++i) maps.push_back(prepare_map(cfg.maps[i], cfg.map_select[i]));
  for (const auto& pm : maps)  // a ROS map in scale mode is weighted: no radius (docs/terrain.md)
    if (pm.map.weighted() && std::any_of(cfg.agents.begin(), cfg.agents.end(), [](const Agent& a) { return a.disc(); }))
      throw std::invalid_argument(pm.map.path + ": a weighted map takes no radius > 0 (docs/terrain.md)");
  for (const auto& d : cfg.dynamic) (void)load_dynamic_scenario(d);
  const bool existed = fs::exists(out), fresh = !fs::exists(out / "sweep.json");
  claim_output_folder(out, cfg, hash);
  // A unit refused for its input (a map without free space to draw queries from, ...) removes the
  // folder's files when this command made the folder; a resumed sweep keeps the units it had.
  try {
    run_planned(cfg, maps, out, hash, o, argv);
  } catch (const base::InputError&) {
    if (fresh) remove_sweep_files(out, existed);
    throw;
  } catch (const std::invalid_argument&) {
    if (fresh) remove_sweep_files(out, existed);
    throw;
  }
  return 0;
}

}  // namespace navbench
