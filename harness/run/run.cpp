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

#include <nlohmann/json.hpp>

#include "harness/results/results.hpp"
#include "harness/run/dynamic.hpp"
#include "harness/run/checkopt.hpp"
#include "harness/run/metadata.hpp"
#include "harness/run/parallel.hpp"
#include "harness/run/timed_build.hpp"
#include "search/outside_planner.hpp"
#include "base/timing.hpp"
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

namespace {

// The rows of a representation that was not built, every query of every pass: not_applicable
// (`why`) where it assumes what the map does not give, error where its build died (SPEC §10).
void rows_not_built(const AgentMap& am, const RepresentationSpec& spec, const UnitOptions& opt, Status status,
                    const std::string& why, const std::function<void(const ResultRow&)>& sink) {
  const MapContext mc = map_context(am.map(), am.prepared().selection.convention);
  for (SearchMode sm : opt.searches)
    for (const auto& h : opt.heuristics) {
      const QueryContext ctx{.map = mc, .space = am.space(), .cost = am.cost(), .rep_text = spec.text, .heuristic = h,
                             .smoothings = opt.smoothings, .search = sm};
      for (const auto& qi : am.queries())
        for (auto& r : rows_for_every_smoothing(identity_row(ctx, qi), opt.smoothings, status, why)) sink(r);
    }
}

// One pass over a unit's queries with --batch N: per block of N queries, every repetition times
// the block's queries back to back (start_query), then judges them (finish_query); with reps > 1
// each stage's time becomes the median of the repetitions. The rows are the unbatched run's,
// timing columns aside.
void batched(const AgentMap& am, const RepresentationSpec& spec, const UnitOptions& opt, AnyRepresentation& rep, SearchMode sm,
             const Heuristic& h, const std::function<void(const ResultRow&)>& sink) {
  const MapContext mc = map_context(am.map(), am.prepared().selection.convention);
  QueryContext ctx{.map = mc, .space = am.space(), .cost = am.cost(), .rep_text = spec.text, .heuristic = h,
                   .smoothings = opt.smoothings, .rep = &rep, .search = sm, .caps = spec.caps(), .keep_paths = opt.paths};
  const auto& queries = am.queries();
  const int reps = std::max(1, opt.repetitions);
  const std::size_t n = std::size_t(opt.batch);
  std::vector<PendingQuery> pending;
  std::vector<std::vector<std::vector<ResultRow>>> rounds(static_cast<std::size_t>(reps));  // per repetition, per query: its rows
  for (std::size_t begin = 0; begin < queries.size(); begin += n) {
    const std::size_t end = std::min(queries.size(), begin + n);
    for (int r = 0; r < reps; ++r) {
      QueryContext rc = ctx;
      rc.keep_paths = r == 0 && opt.paths;
      pending.clear();
      for (std::size_t i = begin; i < end; ++i) pending.push_back(start_query(rc, queries[i]));
      rounds[std::size_t(r)].clear();
      for (auto& p : pending) rounds[std::size_t(r)].push_back(finish_query(rc, std::move(p)));
    }
    for (std::size_t i = 0; i < end - begin; ++i) {
      auto& rows = rounds[0][i];
      if (reps > 1) {
        std::vector<std::vector<ResultRow>> again;
        for (int r = 1; r < reps; ++r) again.push_back(std::move(rounds[std::size_t(r)][i]));
        median_times(rows, again);
      }
      for (auto& row : rows) sink(row);
    }
  }
}

// --threads N: the queries of one (map, representation) in parallel over the one read-only build,
// each thread with its own search workspace. Blocks of queries are answered in parallel, then their
// rows go to the sink in query order, so the output equals a single-threaded run's (timing columns
// aside) and memory stays bounded by one block. Threads take the queries one at a time, except for
// a planner from outside: each thread then answers a contiguous share of the block, told to its
// entry process ahead (docs/outside-planners.md#4-what-is-measured-and-how), as one thread's are.
// answer(query, search, heuristic, workspace) -> the query's rows.
template <class Answer>
void answer_threaded(AnyRepresentation& rep, const std::vector<QueryInput>& queries,
                     const std::vector<std::pair<SearchMode, const Heuristic*>>& passes, std::size_t threads, int reps,
                     const Answer& answer, const std::function<void(const ResultRow&)>& sink) {
  std::vector<std::unique_ptr<SearchWorkspace>> ws;
  for (std::size_t t = 0; t < threads; ++t) ws.push_back(rep.new_workspace());
  auto* ahead = dynamic_cast<AnswersAhead*>(&rep);
  const std::size_t block = 256 * threads;
  std::vector<std::vector<ResultRow>> out;
  for (const auto& pass : passes)  // (no structured binding: the worker lambda captures them)
    for (std::size_t begin = 0; begin < queries.size(); begin += block) {
      const SearchMode sm = pass.first;
      const Heuristic* h = pass.second;
      const std::size_t end = std::min(queries.size(), begin + block);
      out.assign(end - begin, {});
      if (ahead) {
        const std::size_t share = (end - begin + threads - 1) / threads;
        parallel_for(0, threads, threads, [&](std::size_t part, std::size_t) {
          const std::size_t from = std::min(end, begin + part * share), to = std::min(end, from + share);
          if (from == to) return;  // more threads than queries: no entry process started for none
          ahead->expect_queries(asked(queries, from, to, reps), ws[part].get());
          for (std::size_t i = from; i < to; ++i) out[i - begin] = answer(queries[i], sm, *h, ws[part].get());
        });
      } else {
        parallel_for(begin, end, threads,
                     [&](std::size_t i, std::size_t t) { out[i - begin] = answer(queries[i], sm, *h, ws[t].get()); });
      }
      for (auto& rows : out)
        for (auto& r : rows) sink(r);
    }
}

}  // namespace

UnrunRow unrun_row(const Map& m, const std::string& convention, const Agent& agent, const RepresentationSpec& spec,
                   const std::string& reason, const std::string& message) {
  return {.map = m.name, .collection = m.collection, .representation = spec.text, .convention = convention,
          .reason = reason, .message = message, .radius = agent.column(), .terrain = m.terrain};
}

std::optional<BuildRow> run_unit(const AgentMap& am, const RepresentationSpec& spec, const UnitOptions& opt,
                                 const std::function<void(const ResultRow&)>& sink,
                                 const std::function<void(const UnrunRow&)>& unrun) {
  if (auto why = am.cost().not_applicable(spec.caps(), spec.text)) {
    // docs/terrain.md: a representation that assumes one cost everywhere answers not_applicable on
    // a weighted map, every query of every pass, and is not built (no build row).
    rows_not_built(am, spec, opt, Status::not_applicable, *why, sink);
    return std::nullopt;
  }
  TimedBuild built = build_timed(am.space(), spec);
  if (!built.rep && built.failed) {  // an entry's preprocessing died: every query an error row, no build row
    std::cerr << "navbench: " << spec.text << " failed on " << am.map().name << ": " << built.unsupported << '\n';
    rows_not_built(am, spec, opt, Status::error, built.unsupported, sink);
    return std::nullopt;
  }
  if (!built.rep) {
    std::cerr << "navbench: skipping " << spec.text << " on " << am.map().name << ": " << built.unsupported << '\n';
    if (unrun)
      unrun(unrun_row(am.map(), am.prepared().selection.convention, am.agent(), spec, built.capped ? "cap" : "kind", built.unsupported));
    return std::nullopt;
  }
  am.cost().fill_build(built.row, am.has_optimum());
  AnyRepresentation& rep = *built.rep;
  const int reps = std::max(1, opt.repetitions);
  const MapContext mc = map_context(am.map(), am.prepared().selection.convention);
  // --trace N (harness/run/traces.hpp): the queries traced, by their position in am.queries().
  UnitTraces traces(opt, am.queries().size());
  // One query's rows; with reps > 1 each stage's time is the median of the repetitions.
  auto answer = [&](const QueryInput& qi, SearchMode sm, const Heuristic& h, SearchWorkspace* ws) {
    QueryContext ctx{.map = mc, .space = am.space(), .cost = am.cost(), .rep_text = spec.text, .heuristic = h,
                     .smoothings = opt.smoothings, .rep = &rep, .search = sm, .caps = spec.caps(), .keep_paths = opt.paths, .ws = ws};
    std::unique_ptr<TraceWriter> trace;
    std::filesystem::path trace_file;
    const TraceInfo info{am.map().name, spec.text, h.text, to_string(sm), qi.scen_index, qi.start, qi.goal,
                         am.agent().column()};
    if (traces.traced(std::size_t(&qi - am.queries().data()))) {
      trace_file = traces.dir / trace_file_name(info);
      trace = std::make_unique<TraceWriter>(trace_file, rep, info, traces.cap);
    }
    ctx.trace = trace.get();
    auto rows = run_query(ctx, qi);
    ctx.trace = nullptr;  // the repetitions below are not traced
    if (trace) {
      traces.finish(*trace, info, trace_file, rows.front());
      // Its trace was written inside the timed search: the rows say so (the column `traced`), and
      // the report leaves them out of every timing statistic (docs/traces.md#traced-rows).
      for (auto& r : rows) r.traced = true;
    }
    repeat_for_medians(ctx, qi, reps, rows);
    return rows;
  };
  // The unit's passes over its queries: each search with each heuristic.
  std::vector<std::pair<SearchMode, const Heuristic*>> passes;
  for (SearchMode sm : opt.searches)
    for (const auto& h : opt.heuristics) passes.emplace_back(sm, &h);
  const auto& queries = am.queries();
  const std::size_t threads = std::size_t(std::max(1, opt.threads));
  if (threads == 1) {
    auto* ahead = dynamic_cast<AnswersAhead*>(&rep);
    for (const auto& [sm, h] : passes) {
      // a planner from outside answers them ahead, in batches, its repetitions among them
      if (ahead) ahead->expect_queries(asked(queries, 0, queries.size(), reps), nullptr);
      // --batch N: navbench's own representations time N queries back to back, then judge them, as
      // the entry's process answers the batch sent ahead (like for like, SPEC §14); traced queries
      // and an entry's (batched by its own representation) go one by one.
      if (opt.batch > 1 && !ahead && opt.trace == 0) {
        batched(am, spec, opt, rep, sm, *h, sink);
        continue;
      }
      for (const auto& qi : queries)
        for (auto& r : answer(qi, sm, *h, nullptr)) sink(r);
    }
    record_outside(built.row, rep);  // the entry's peak memory after its queries
    return built.row;
  }
  answer_threaded(rep, queries, passes, threads, reps, answer, sink);
  record_outside(built.row, rep);  // every thread's entry process still runs: their peak memory
  return built.row;
}

namespace {

// The run's note on one (map, agent): its query count, radius and tangent graph.
void note_agent_map(const AgentMap& am) {
  std::cerr << "navbench: " << am.map().name << " (" << am.map().collection << "): " << am.queries().size() << " queries";
  if (am.agent().column()) std::cerr << ", radius " << format_number(am.agent().R());
  if (const TangentGraph* t = am.tangent()) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " (tangent graph: %zu circles, %zu vertices, %zu edges, built in %.1f ms)", t->circle_count(),
                  t->vertex_count(), t->edge_count(), am.tangent_build_ms());
    std::cerr << buf;
  }
  std::cerr << '\n';
}

// Throughput of a unit's query phase (build excluded, row writing included), e.g. for --threads.
void note_throughput(const RunConfig& cfg, const AgentMap& am, const RepresentationSpec& spec, const BuildRow& b, base::Clock::time_point t0) {
  const double s = base::us_since(t0) / 1e6 - b.build_ms / 1e3;
  const std::size_t n = am.queries().size() * cfg.unit.heuristics.size();
  if (cfg.quiet || s <= 0) return;
  char buf[200];
  std::snprintf(buf, sizeof buf, "navbench: %s %s: %zu queries in %.6f s (%.0f queries/s, %d thread%s, peak RSS %.1f MiB)\n",
                am.map().name.c_str(), spec.text.c_str(), n, s, double(n) / s, cfg.unit.threads, cfg.unit.threads == 1 ? "" : "s",
                double(peak_rss_bytes()) / (1 << 20));
  std::cerr << buf;
}

}  // namespace

namespace {

// The run's queries on its prepared maps, into its result files.
int answer_maps(const RunConfig& cfg, const std::vector<PreparedMap>& maps, bool weighted, const nlohmann::json& frames) {
  write_run_metadata(cfg, &frames);
  ResultWriter writer(cfg.out, cfg.unit.paths,
                      {.radius = !cfg.agents.empty(), .terrain = weighted, .pinch = cfg.select.squeeze,
                       .entry = cfg.entry_columns || any_outside_planner(cfg.reps), .traced = cfg.unit.trace > 0});
  OptimalityCheck check(cfg.checkopt, cfg.unit.heuristics, cfg.unit.smoothings.front());
  UnitOptions unit = cfg.unit;  // traces go under traces/ beside PREFIX.csv (a fresh index each run)
  unit.trace_prefix = cfg.out;
  if (unit.trace) std::filesystem::remove(trace_index(cfg.out));
  for (const auto& pm : maps)
    for (const Agent& agent : agent_passes(cfg.agents)) {
      const AgentMap am(pm, agent, {.optimum = cfg.optimum, .threads = cfg.unit.threads, .saved = {}});
      if (!cfg.quiet) note_agent_map(am);
      for (const auto& spec : cfg.reps) {
        auto sink = [&](const ResultRow& r) {
          if (check.applies(spec, r) && r.octile_optimal && r.raw_length) {
            const ScenarioLine& l = am.scenario().lines[std::size_t(r.scen_index)];
            check.record(std::abs(*r.raw_length - *r.octile_optimal) <= printed_tolerance(l),
                         pm.map.name + " query " + std::to_string(r.scen_index) + ": " + spec.text, format_number(*r.raw_length),
                         format_number(l.optimal));
          }
          writer.write(r);
        };
        const auto t0 = base::Clock::now();
        if (auto b = run_unit(am, spec, unit, sink, [&](const UnrunRow& u) { writer.write(u); })) {
          writer.write(*b);
          note_throughput(cfg, am, spec, *b, t0);
        }
        writer.flush();
      }
    }
  writer.flush();
  return check.finish();
}

}  // namespace

int run(const RunConfig& cfg) {
  if (!cfg.dynamic.empty()) return run_dynamic(cfg);
  const auto files = expand_map_paths(cfg.maps);
  if (!cfg.select.scen.empty() && files.size() != 1) throw std::invalid_argument("--scen needs exactly one map");
  // Every input file is read and checked before the first query runs: a bad file fails the run
  // at once with one line, not after an hour of results.
  std::vector<PreparedMap> maps;
  for (const auto& f : files) maps.push_back(prepare_map(f, cfg.select));

  std::vector<const Map*> read;
  bool weighted = cfg.select.weights.any();
  for (const auto& pm : maps) {
    read.push_back(&pm.map);
    weighted |= pm.map.weighted();  // a ROS map in scale mode carries its own costs (docs/maps.md)
    if (pm.map.weighted() && std::any_of(cfg.agents.begin(), cfg.agents.end(), [](const Agent& a) { return a.disc(); }))
      throw std::invalid_argument(pm.map.path + ": a weighted map takes no --radius > 0 (docs/terrain.md)");
  }
  const nlohmann::json frames = map_frames_json(read);
  // Nothing is written before this point. From here on a refusal for the input (a map without free
  // space to draw queries from, ...) removes what the run wrote (docs/results.md#result-files).
  std::vector<std::string> outputs = result_files(cfg.out);
  if (cfg.unit.trace) outputs.insert(outputs.begin(), trace_index(cfg.out).string());
  return removing_on_refusal(outputs, [&] { return answer_maps(cfg, maps, weighted, frames); });
}

}  // namespace navbench
