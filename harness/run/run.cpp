#include "harness/run/run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness/results/results.hpp"
#include "harness/run/dynamic.hpp"
#include "harness/run/checkopt.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/parallel.hpp"
#include "geometry/steiner_reference.hpp"
#include "search/workspace.hpp"

namespace fs = std::filesystem;

namespace navbench {

// Peak resident memory of this process so far (Linux VmHWM: reset by exec, unlike getrusage's
// ru_maxrss, which keeps the forking parent's size); 0 where /proc is not there.
static std::size_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::size_t(std::strtoull(line.c_str() + 6, nullptr, 10)) * 1024;
  return 0;
}

std::unique_ptr<AnyRepresentation> build_for_agent(PreparedMap& pm, const RepresentationSpec& spec, Params& params) {
  pm.build_queries();
  const RepresentationEntry& e = *spec.entry;
  if (!pm.disc()) return e.build(pm.map, params);
  // A build per (map, representation, R): the exact disc structure where the entry has one, else
  // a build on the map shrunk by R (geometry/erosion.hpp) or, with erode=none, on the map itself.
  if (e.caps.radius == RadiusSupport::tangent_graph) return e.build_disc(pm.map, pm.R());
  if (spec.erosion() == Erode::none) return e.build(pm.map, params);
  return e.build(pm.build_map(spec.erosion()), params);
}

std::optional<BuildRow> run_unit(PreparedMap& pm, const RepresentationSpec& spec, const UnitOptions& opt,
                                 const std::function<void(const ResultRow&)>& sink) {
  pm.build_queries();
  if (pm.map.weighted() && !spec.caps().weights) {
    // docs/terrain.md: a representation that assumes one cost everywhere answers not_applicable on
    // a weighted map, every query of every pass, and is not built (no build row).
    const MapContext ctx = map_context(pm.map, pm.selection.convention);
    const RadiusContext rc = pm.radius_context();
    for (SearchMode sm : opt.searches)
      for (const auto& h : opt.heuristics)
        for (const auto& qi : pm.queries)
          for (auto& r : rows_for_every_smoothing(identity_row(ctx, qi, spec.text, h, sm, pm.radius ? &rc : nullptr), opt.smoothings,
                                                  Status::not_applicable, no_terrain_message(spec.text)))
            sink(r);
    return std::nullopt;
  }
  const bool exact_disc = pm.disc() && spec.caps().radius == RadiusSupport::tangent_graph;
  Params params = Params::parse(spec.params);
  std::unique_ptr<AnyRepresentation> rep;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (exact_disc && (!params.empty() || spec.erode))
      throw std::invalid_argument(spec.name() + " at R > 0 (the tangent graph) takes no parameters, got '" + spec.text + "'");
    rep = build_for_agent(pm, spec, params);
  } catch (const UnsupportedMap& u) {
    std::cerr << "navbench: skipping " << spec.text << " on " << pm.map.name << ": " << u.what() << '\n';
    return std::nullopt;
  }
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  rep->prepare();  // search memory, untimed (search/any_representation.hpp)
  BuildRow b = make_build_row(pm.map.name, spec, spec.build_params(params, pm.disc()), *rep, build_ms);
  b.radius = pm.radius;
  if (pm.map.weighted()) {
    b.terrain = pm.map.terrain;
    // docs/terrain.md: the rows' optimal_cost comes from the Steiner-point reference of density m
    // (not a parameter of the representation: it comes last, after the sorted ones).
    if (pm.optimum_done) b.params += (b.params.empty() ? "" : ",") + std::string("reference_m=") + std::to_string(kDefaultSteinerM);
  }
  const int reps = std::max(1, opt.repetitions);
  const RadiusContext radius_ctx = pm.radius_context();
  const RadiusContext* rad = pm.radius ? &radius_ctx : nullptr;
  const MapContext ctx = map_context(pm.map, pm.selection.convention);
  // One query's rows; with reps > 1 each stage's time is the median of the repetitions.
  auto answer = [&](const QueryInput& qi, SearchMode sm, const Heuristic& h, SearchWorkspace* ws) {
    auto rows = run_query(ctx, qi, *rep, spec.text, h, opt.smoothings, *pm.free, opt.paths, ws, rad, sm, spec.caps());
    if (reps > 1) {
      std::vector<std::vector<std::array<double, 3>>> times(rows.size());
      for (std::size_t k = 0; k < rows.size(); ++k) times[k].push_back({rows[k].locate_us, rows[k].search_us, rows[k].smooth_us});
      for (int r = 1; r < reps; ++r) {
        auto again = run_query(ctx, qi, *rep, spec.text, h, opt.smoothings, *pm.free, false, ws, rad, sm, spec.caps());
        for (std::size_t k = 0; k < rows.size(); ++k) times[k].push_back({again[k].locate_us, again[k].search_us, again[k].smooth_us});
      }
      for (std::size_t k = 0; k < rows.size(); ++k) {
        double* fields[3] = {&rows[k].locate_us, &rows[k].search_us, &rows[k].smooth_us};
        for (int f = 0; f < 3; ++f) {
          std::vector<double> v;
          for (auto& t : times[k]) v.push_back(t[std::size_t(f)]);
          std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
          *fields[f] = v[v.size() / 2];
        }
      }
    }
    return rows;
  };
  // The unit's passes over its queries: each search with each heuristic.
  std::vector<std::pair<SearchMode, const Heuristic*>> passes;
  for (SearchMode sm : opt.searches)
    for (const auto& h : opt.heuristics) passes.emplace_back(sm, &h);
  const std::size_t threads = std::size_t(std::max(1, opt.threads));
  if (threads == 1) {
    for (const auto& [sm, h] : passes)
      for (const auto& qi : pm.queries)
        for (auto& r : answer(qi, sm, *h, nullptr)) sink(r);
    return b;
  }
  // --threads N: the queries of this (map, representation) in parallel over the one read-only
  // build, each thread with its own search workspace. Blocks of queries are answered in parallel,
  // then their rows go to the sink in query order, so the output equals a single-threaded run's
  // (timing columns aside) and memory stays bounded by one block.
  std::vector<std::unique_ptr<SearchWorkspace>> ws;
  for (std::size_t t = 0; t < threads; ++t) ws.push_back(rep->new_workspace());
  const std::size_t block = 256 * threads;
  std::vector<std::vector<ResultRow>> out;
  for (const auto& pass : passes)  // (no structured binding: the worker lambda captures them)
    for (std::size_t begin = 0; begin < pm.queries.size(); begin += block) {
      const SearchMode sm = pass.first;
      const Heuristic* h = pass.second;
      const std::size_t end = std::min(pm.queries.size(), begin + block);
      out.assign(end - begin, {});
      parallel_for(begin, end, threads,
                   [&](std::size_t i, std::size_t t) { out[i - begin] = answer(pm.queries[i], sm, *h, ws[t].get()); });
      for (auto& rows : out)
        for (auto& r : rows) sink(r);
    }
  return b;
}

int run(const RunConfig& cfg) {
  if (!cfg.dynamic.empty()) return run_dynamic(cfg);
  const auto files = expand_map_paths(cfg.maps);
  if (!cfg.select.scen.empty() && files.size() != 1) throw std::invalid_argument("--scen needs exactly one map");
  // Every input file is read and checked before the first query runs: a bad file fails the run
  // at once with one line, not after an hour of results.
  std::vector<PreparedMap> maps;
  for (const auto& f : files) maps.push_back(prepare_map(f, cfg.select));

  write_run_metadata(cfg);
  ResultWriter writer(cfg.out, cfg.unit.paths, {.radius = !cfg.radii.empty(), .terrain = cfg.select.weights.any()});
  OptimalityCheck check(cfg.checkopt, cfg.unit.heuristics, cfg.unit.smoothings.front());
  for (auto& pm : maps)
  for (const auto& radius : radius_passes(cfg.radii)) {
    pm.release();
    pm.radius = radius;
    pm.threads = cfg.unit.threads;
    if (cfg.optimum) pm.compute_optimum();
    pm.build_queries();  // (with --no-optimum too: the count below is the real one)
    if (!cfg.quiet) {
      std::cerr << "navbench: " << pm.map.name << " (" << pm.map.collection << "): " << pm.queries.size() << " queries";
      if (pm.radius) std::cerr << ", radius " << format_number(*pm.radius);
      if (pm.tangent) {
        char buf[160];
        std::snprintf(buf, sizeof buf, " (tangent graph: %zu circles, %zu vertices, %zu edges, built in %.1f ms)",
                      pm.tangent->circle_count(), pm.tangent->vertex_count(), pm.tangent->edge_count(), pm.tangent_build_ms);
        std::cerr << buf;
      }
      std::cerr << '\n';
    }
    for (const auto& spec : cfg.reps) {
      auto sink = [&](const ResultRow& r) {
        if (check.applies(spec, r) && r.octile_optimal && r.raw_length) {
          const ScenarioLine& l = pm.scen.lines[std::size_t(r.scen_index)];
          check.record(std::abs(*r.raw_length - *r.octile_optimal) <= printed_tolerance(l),
                       pm.map.name + " query " + std::to_string(r.scen_index) + ": " + spec.text, format_number(*r.raw_length),
                       format_number(l.optimal));
        }
        writer.write(r);
      };
      const auto t0 = std::chrono::steady_clock::now();
      if (auto b = run_unit(pm, spec, cfg.unit, sink)) {
        writer.write(*b);
        // Throughput of the query phase (build excluded, row writing included), e.g. for --threads.
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - b->build_ms / 1e3;
        const std::size_t n = pm.queries.size() * cfg.unit.heuristics.size();
        if (!cfg.quiet && s > 0) {
          char buf[200];
          std::snprintf(buf, sizeof buf, "navbench: %s %s: %zu queries in %.6f s (%.0f queries/s, %d thread%s, peak RSS %.1f MiB)\n",
                        pm.map.name.c_str(), spec.text.c_str(), n, s, double(n) / s, cfg.unit.threads,
                        cfg.unit.threads == 1 ? "" : "s", double(peak_rss_bytes()) / (1 << 20));
          std::cerr << buf;
        }
      }
      writer.flush();
    }
    pm.release();
  }
  writer.flush();
  return check.finish();
}


}  // namespace navbench

namespace navbench {

int run_command(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  auto cfg = parse_run_args(args);
  if (!cfg) return 0;  // --help
  cfg->argv = argv;
  return run(*cfg);
}

}  // namespace navbench
