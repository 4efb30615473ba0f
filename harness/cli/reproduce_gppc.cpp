// navbench reproduce gppc2023-classic | gppc2023-anyangle (docs/reproduce.md): the published
// "Evaluation Statistics" of the GPPC 2023 entries (../shared/datasets/published/gppc2023/
// published-statistics.csv, transcribed from gppc-dev/algorithm-archive; its SOURCES.md) beside the
// same statistics measured here. The entries named by a config run as planners from outside
// (SPEC §10, docs/outside-planners.md) through `navbench run`, beside navbench's own
// representations of the track, on the maps' scenario queries. The competition's 256,000 queries
// are not public, so the totals differ by construction; the ratios between entries and their
// order are what compare.
#include "harness/cli/reproduce_gppc.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/run/metadata.hpp"
#include "harness/run/run.hpp"

// Not an anonymous namespace: the harness builds as one unity source with reproduce.cpp.
namespace navbench::gppc_reproduce {

namespace fs = std::filesystem;

// One CSV file read by column name (the results files of docs/results.md; quoted fields).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return int(i);
    return -1;
  }
  std::string at(std::size_t row, int col) const { return col < 0 || std::size_t(col) >= rows[row].size() ? "" : rows[row][col]; }
};

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else if (c != '\r') out.back() += c;
  }
  return out;
}

Table read_table(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file + ": cannot read");
  Table t;
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(file + ": empty");
  t.header = csv_fields(line);
  while (std::getline(in, line))
    if (!line.empty()) t.rows.push_back(csv_fields(line));
  return t;
}

double num(const std::string& s) { return s.empty() ? NAN : std::stod(s); }

// "228MB", "1GB", "0kB" -> bytes (the READMEs' units, powers of 1024 as the competition's scripts wrote them).
double bytes_of(const std::string& s) {
  std::size_t used = 0;
  const double v = std::stod(s, &used);
  const std::string unit = s.substr(used);
  const double k = unit == "kB" || unit == "KB" ? 1024.0 : unit == "MB" ? 1024.0 * 1024 : unit == "GB" ? 1024.0 * 1024 * 1024 : 1.0;
  return v * k;
}

std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "n/a";
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(digits);
  o << v;
  return o.str();
}

std::string human_bytes(double b) {
  if (std::isnan(b)) return "n/a";
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, ++u;
  return fixed(b, b < 10 && u > 0 ? 1 : 0) + units[u];
}

// The competition's column set for one entry, measured or published. Memory like for like (SPEC
// §14): `storage` is bytes at rest beside bytes at rest (an entry's files, navbench's structure,
// summed over the maps; published: preprocess_storage), `peak` resident memory beside resident
// memory (the largest over the maps of the process that answered the map's queries; published:
// max_ram); never one added to the other.
struct Stats {
  std::string entry, source;  // source: "measured" / "published"
  double queries = 0, solved = 0, optimal = 0, total_query_s = 0, preprocess_s = 0;
  double storage = NAN, peak = NAN, mean_length = NAN, mean_subopt = NAN;
  std::string peak_missing;  // why `peak` is not measured on some map ("" when it is on every one)
  double mean_query_ms() const { return queries > 0 ? total_query_s * 1000 / queries : NAN; }
};

// Where two or more maps lack a peak, their reasons one after the other.
void add_missing_peak(Stats& s, const std::string& why) { s.peak_missing += (s.peak_missing.empty() ? "" : "; ") + why; }

// A figure's cell: the number, or "not measured (why)" where a map lacks it.
std::string peak_cell(const Stats& s, const std::string& number) {
  return s.peak_missing.empty() ? number : "not measured (" + s.peak_missing + ")";
}

struct Entry {
  std::string spec;       // the --rep text
  std::string row_name;   // the rows' `representation`
  std::string published;  // the published entry it is compared with ("" for none)
};

struct Config {
  std::vector<Entry> entries;
  std::vector<std::string> maps;
  long limit = -1;
};

// The published row an entry's name= stands for: the same name, or with the archive's year prefix
// ("SGCH-JPD" is "2019-SGCH-JPD"); case does not matter.
std::string published_name(const std::string& name, const std::vector<Stats>& published) {
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const Stats& p : published)
    if (lower(p.entry) == lower(name)) return p.entry;
  for (const Stats& p : published) {
    const std::string e = lower(p.entry);
    if (e.size() > name.size() + 1 && std::isdigit(static_cast<unsigned char>(e[0])) && e.substr(e.size() - name.size()) == lower(name) &&
        e[e.size() - name.size() - 1] == '-')
      return p.entry;
  }
  return "";
}

// The config (docs/reproduce.md): one item a line, `#` comments: `gppc:path=P,track=T[,name=N]`
// (an entry of this track), `map PATH` (replaces the default maps), `limit N` (queries per map).
Config read_config(const std::string& file, const std::string& track, const std::vector<Stats>& published) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file + ": cannot read the config");
  Config c;
  std::string line;
  for (long n = 1; std::getline(in, line); ++n) {
    const std::string where = file + ":" + std::to_string(n) + ": ";
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream f(line);
    std::string word, rest;
    if (!(f >> word)) continue;
    if (word == "map" && (f >> rest)) c.maps.push_back(rest);
    else if (word == "limit" && (f >> rest)) c.limit = std::stol(rest);
    else if (names_outside_planner(word)) {
      if (word.find("track=" + track) == std::string::npos) throw std::invalid_argument(where + word + " is not a track=" + track + " entry");
      Entry e{word, parse_rep_option(word).front().text, ""};  // the entry's keys checked (docs/outside-planners.md)
      std::string given = "";
      for (const std::string& kv : base::split_list(word.substr(word.find(':') + 1)))
        if (kv.starts_with("name=")) given = kv.substr(5);
      e.published = given.empty() ? "" : published_name(given, published);
      c.entries.push_back(e);
    } else {
      throw std::invalid_argument(where + "expected 'gppc:path=...,track=" + track + ",name=...', 'map PATH' or 'limit N', got '" + word + "'");
    }
    if (f >> rest) throw std::invalid_argument(where + "one item a line, got '" + rest + "' after it");
  }
  if (c.entries.empty()) throw std::invalid_argument(file + ": names no entry (gppc:path=...,track=" + track + ",name=...)");
  if (c.limit == 0 || c.limit < -1) throw std::invalid_argument(file + ": limit needs a positive number");
  return c;
}

std::vector<Stats> read_published(const std::string& file, const std::string& track) {
  const Table t = read_table(file);
  const int tr = t.column("track"), en = t.column("entry"), so = t.column("queries_solved"), op = t.column("optimally_solved"),
            qt = t.column("sum_query_time_s"), pt = t.column("sum_preprocess_time_s"), st = t.column("preprocess_storage"),
            ram = t.column("max_ram"), len = t.column("avg_path_length"), sub = t.column("avg_subopt");
  if (std::min({tr, en, so, op, qt, pt, st, ram, len, sub}) < 0) throw std::invalid_argument(file + ": not the published-statistics columns");
  std::vector<Stats> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (t.at(i, tr) != track) continue;
    Stats s;
    s.entry = t.at(i, en);
    s.source = "published";
    s.queries = num(t.at(i, so));  // every entry answered all 256,000
    s.solved = num(t.at(i, so));
    s.optimal = num(t.at(i, op));
    s.total_query_s = num(t.at(i, qt));
    s.preprocess_s = num(t.at(i, pt));
    s.storage = bytes_of(t.at(i, st));
    s.peak = bytes_of(t.at(i, ram));
    s.mean_length = num(t.at(i, len));
    s.mean_subopt = t.at(i, sub) == "-" ? 1.0 : num(t.at(i, sub));  // "-": optimal on every query
    out.push_back(s);
  }
  return out;
}

// The measured statistics per representation from a run's PREFIX.csv and PREFIX.build.csv. Solved:
// an ok row whose path is valid; optimally solved: its length equals the reference (the scenario's
// octile optimum in the classic track, within its printed precision; the exact Euclidean optimum in
// the any-angle track, within 1e-4). Build columns by name: preprocess_ms, stored_bytes and
// peak_rss_bytes where the host writes them (an entry), else build_ms and memory_bytes, the
// structure's bytes, as the storage (navbench's own; their peak is own_peak_rss's).
std::map<std::string, Stats> measure(const std::string& prefix, bool classic) {
  const Table r = read_table(prefix + ".csv"), b = read_table(prefix + ".build.csv");
  const int rep = r.column("representation"), st = r.column("status"), va = r.column("valid"), len = r.column("length"),
            ref = r.column(classic ? "octile_optimal" : "optimal"), lo = r.column("locate_us"), se = r.column("search_us");
  // Moving AI scenarios print the octile optimum with 3 decimals (%g, den520d) up to 8, the %g ones
  // up to 1 % of a unit past half a unit (datasets/movingai.cpp printed_tolerance): one unit of the
  // third decimal, far below the 2 - sqrt(2) by which a longer 8-connected path differs.
  const double tol = classic ? 1e-3 : 1e-4;
  std::map<std::string, Stats> out;
  std::map<std::string, double> subopt_sum;
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    Stats& s = out[r.at(i, rep)];
    s.entry = r.at(i, rep);
    s.source = "measured";
    s.queries += 1;
    s.total_query_s += (num(r.at(i, lo)) + num(r.at(i, se))) / 1e6;
    if (r.at(i, st) != "ok" || r.at(i, va) != "1") continue;
    s.solved += 1;
    const double L = num(r.at(i, len)), R = num(r.at(i, ref));
    s.mean_length = (std::isnan(s.mean_length) ? 0 : s.mean_length) + L;
    if (!std::isnan(R) && R > 0) {
      s.optimal += std::abs(L - R) <= tol;
      subopt_sum[s.entry] += L / R;
    }
  }
  for (auto& [name, s] : out) {
    if (s.solved > 0) s.mean_length /= s.solved, s.mean_subopt = subopt_sum[name] / s.solved;
  }
  const int brep = b.column("representation"), pre = b.column("preprocess_ms"), bms = b.column("build_ms"),
            stored = b.column("stored_bytes"), rss = b.column("peak_rss_bytes"), mem = b.column("memory_bytes");
  for (std::size_t i = 0; i < b.rows.size(); ++i) {
    auto it = out.find(b.at(i, brep));
    if (it == out.end()) continue;
    Stats& s = it->second;
    const std::string p = b.at(i, pre);
    s.preprocess_s += (p.empty() ? num(b.at(i, bms)) : num(p)) / 1000;
    const std::string bytes = stored >= 0 && !b.at(i, stored).empty() ? b.at(i, stored) : b.at(i, mem);
    s.storage = (std::isnan(s.storage) ? 0 : s.storage) + num(bytes);
    if (rss >= 0 && !b.at(i, rss).empty()) s.peak = std::isnan(s.peak) ? num(b.at(i, rss)) : std::max(s.peak, num(b.at(i, rss)));
    else if (names_outside_planner(s.entry)) add_missing_peak(s, "no peak_rss_bytes in the build row of " + b.at(i, b.column("map")));
  }
  return out;
}

// The peak resident memory of a `navbench run` process holding navbench's representation `rep`
// alone on `map` (the track's convention, the same queries, no exact optimum): the figure beside
// an entry's processes' peak_rss_bytes (SPEC §14), as scripts/thread-scaling takes it. The child
// prints its VmHWM in its note on the unit (run.cpp, note_throughput; 0.1 MiB), read back from its
// stderr, kept in PREFIX.err. It also holds navbench's map, scenario and validity test, as an
// entry's process holds its copy of the map; its queries are batched as the run's. NAN with the
// reason in `why` when the child could not start, failed or printed no note.
double own_peak_rss(const std::string& map, const std::string& rep, const std::string& convention, long limit, int batch,
                    const std::string& prefix, std::string& why) {
  std::vector<std::string> args = {fs::read_symlink("/proc/self/exe").string(), "run", "--map", map, "--rep", rep,
                                   "--convention", convention, "--no-optimum", "--batch", std::to_string(batch), "--out", prefix};
  if (limit > 0) args.insert(args.end(), {"--limit", std::to_string(limit)});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string err = prefix + ".err";
  const int out = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (out < 0 || null < 0) {  // the one that opened is closed too
    if (out >= 0) ::close(out);
    if (null >= 0) ::close(null);
    why = (out < 0 ? err : std::string("/dev/null")) + ": cannot write";
    return NAN;
  }
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    ::dup2(null, 1);
    ::dup2(out, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out);
  ::close(null);
  int status = 0;
  const std::string on = fs::path(map).stem().string() + ": ";
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) {
    why = on + "its navbench run could not start";
    return NAN;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    why = on + "its navbench run " + (WIFEXITED(status) ? "exited " + std::to_string(WEXITSTATUS(status)) : "was killed by signal " + std::to_string(WTERMSIG(status))) +
          " (" + err + ")";
    return NAN;
  }
  std::ifstream in(err);
  std::string line;
  double mib = NAN;
  while (std::getline(in, line))
    if (const auto k = line.rfind("peak RSS "); k != std::string::npos) mib = std::strtod(line.c_str() + k + 9, nullptr);
  if (std::isnan(mib)) why = on + "its navbench run printed no peak RSS (" + err + ")";
  return mib * 1024 * 1024;
}

std::string stats_row(const std::string& label, const Stats& s) {
  return "| " + label + " | " + s.source + " | " + fixed(s.solved, 0) + " / " + fixed(s.queries, 0) + " | " + fixed(s.optimal, 0) + " | " +
         fixed(s.total_query_s, 3) + " | " + fixed(s.mean_query_ms(), 4) + " | " + fixed(s.preprocess_s, 3) + " | " +
         human_bytes(s.storage) + " | " + peak_cell(s, human_bytes(s.peak)) + " | " + fixed(s.mean_length, 4) + " | " + fixed(s.mean_subopt, 6) + " |\n";
}

// Ranks by mean query time (1 = fastest) among the given names.
std::map<std::string, int> ranks(const std::vector<std::pair<std::string, double>>& times) {
  std::vector<std::pair<std::string, double>> v = times;
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::map<std::string, int> out;
  for (std::size_t i = 0; i < v.size(); ++i) out[v[i].first] = int(i) + 1;
  return out;
}

void html(const std::string& file, const std::string& title, const std::string& md);

int run(const std::string& track, const GppcOptions& o, const std::vector<std::string>& argv) {
  const bool classic = track == "classic";
  const std::vector<Stats> published = read_published(o.published + "/published-statistics.csv", track);
  Config cfg = read_config(o.config, track, published);
  if (cfg.maps.empty()) cfg.maps = o.default_maps;
  if (o.limit > 0) cfg.limit = o.limit;
  // navbench's own representations of the track (docs/reproduce.md).
  const std::vector<std::string> own = classic ? std::vector<std::string>{"subgoal", "grid8"} : std::vector<std::string>{"visgraph"};
  RunConfig rc;
  rc.maps = cfg.maps;
  for (const Entry& e : cfg.entries) rc.reps.push_back(parse_rep_option(e.spec).front());
  for (const std::string& r : own) rc.reps.push_back(parse_rep_option(r).front());
  rc.select.convention = classic ? "center" : "corner";  // the track's query points (SPEC §10)
  rc.select.limit = cfg.limit;
  // Both sides batched alike: navbench's own queries timed 256 at a time back to back and judged
  // after the block, as the entries' host sends them theirs (harness/gppc/planner.cpp,
  // kAhead; docs/outside-planners.md).
  rc.unit.batch = 256;
  rc.optimum = !classic;  // the classic track's reference is the scenario's octile optimum
  rc.quiet = true;
  rc.argv = argv;
  fs::create_directories(o.out + "/run");
  rc.out = o.out + "/run/results";
  check_run(rc, kCommandLineNames, !rc.maps.empty());
  navbench::run(rc);
  std::map<std::string, Stats> got = measure(rc.out, classic);
  for (const std::string& r : own) {  // each of ours alone in a process per map: its peak resident memory
    auto it = got.find(parse_rep_option(r).front().text);
    if (it == got.end()) continue;
    for (const std::string& m : cfg.maps) {
      std::string why;
      const double peak = own_peak_rss(m, r, rc.select.convention, cfg.limit, rc.unit.batch,
                                       o.out + "/run/memory-" + r + "-" + fs::path(m).stem().string(), why);
      if (!std::isnan(peak)) it->second.peak = std::isnan(it->second.peak) ? peak : std::max(it->second.peak, peak);
      else add_missing_peak(it->second, why);
    }
  }
  for (const auto& [name, s] : got)
    if (!s.peak_missing.empty()) std::cerr << "navbench: reproduce: " << name << "'s peak RSS not measured: " << s.peak_missing << '\n';

  std::ostringstream md;
  md << "GPPC 2023, " << track << " track. Measured: navbench " << (classic ? "center" : "corner") << " convention, squeeze rule forbid (the "
     << "competition's), on " << cfg.maps.size() << " map(s) (";
  for (std::size_t i = 0; i < cfg.maps.size(); ++i) md << (i ? ", " : "") << fs::path(cfg.maps[i]).stem().string();
  md << (cfg.limit > 0 ? "; " + std::to_string(cfg.limit) + " queries each, spread over the scenario" : "; every scenario query")
     << "). Published: the entries' READMEs, 256,000 queries on the competition's maps (not public). The query sets differ: "
        "compare ratios and ranks, not totals. Query time: the entry's GetPath calls (navbench's own: locate + search), both "
        "sides batched alike (the entry is sent 256 queries at a time and answers them back to back; navbench's own are timed "
        "256 at a time back to back, then judged: --batch 256); "
        "preprocessing: preprocess_ms where the build row has it, else build_ms. Memory like for like, never one part added to "
        "the other: stored / structure is bytes at rest, summed over the maps (an entry's stored_bytes, the files its "
        "PreprocessMap wrote; navbench's own: memory_bytes, the structure's bytes; published: preprocess_storage); peak RSS is "
        "peak resident memory, the largest over the maps (an entry's peak_rss_bytes, its processes' VmHWM; navbench's own: "
        "the VmHWM of a navbench run process holding that representation alone on the map, without the exact optimum; "
        "published: max_ram).\n\n";
  md << "| entry | source | solved | optimally solved | total query time (s) | mean query time (ms) | preprocessing (s) | "
        "stored / structure | peak RSS | mean path length | mean suboptimality |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::pair<std::string, double>> measured_t, published_t;
  auto add_row = [&](const std::string& rep, const std::string& pub) {
    auto it = got.find(rep);
    if (it == got.end()) {
      md << "| " << rep << " | measured | not built on any map (see the run's notes) | | | | | | | | |\n";
      return;
    }
    md << stats_row(rep, it->second);
    measured_t.push_back({rep, it->second.mean_query_ms()});
    nlohmann::json j = {{"representation", rep}, {"queries", it->second.queries}, {"solved", it->second.solved},
                        {"optimally_solved", it->second.optimal}, {"total_query_s", it->second.total_query_s},
                        {"preprocess_s", it->second.preprocess_s}, {"stored_or_structure_bytes", it->second.storage},
                        {"peak_rss_bytes", it->second.peak}, {"peak_rss_missing", it->second.peak_missing},
                        {"mean_length", it->second.mean_length},
                        {"mean_subopt", it->second.mean_subopt}, {"published", pub}};
    rows.push_back(j);
    for (const Stats& p : published)
      if (p.entry == pub) {
        md << stats_row(pub, p);
        published_t.push_back({rep, p.mean_query_ms()});
      }
  };
  for (const Entry& e : cfg.entries) add_row(e.row_name, e.published);
  for (const std::string& r : own) add_row(r, "");

  // How the entries compare: time ratios to the fastest, and ranks, measured and published.
  const auto mr = ranks(measured_t), pr = ranks(published_t);
  double mfast = INFINITY, pfast = INFINITY;
  for (const auto& nt : measured_t) {  // not a structured binding: clang 14 (the sanitizer build) cannot capture one
    const auto& n = nt.first;
    if (std::any_of(cfg.entries.begin(), cfg.entries.end(), [&n](const Entry& e) { return e.row_name == n; })) mfast = std::min(mfast, nt.second);
  }
  for (const auto& [n, t] : published_t) pfast = std::min(pfast, t);
  md << "\nHow they compare (mean query time; ratio to the fastest entry measured here, resp. to the fastest of these entries as "
        "published; rank among the rows that have the figure):\n\n"
     << "| entry | measured mean (ms) | measured ratio | measured rank | published mean (ms) | published ratio | published rank |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& [n, t] : measured_t) {
    const std::string& name = n;  // (clang 14 cannot capture a structured binding)
    auto p = std::find_if(published_t.begin(), published_t.end(), [&](const auto& x) { return x.first == name; });
    md << "| " << n << " | " << fixed(t, 4) << " | " << fixed(t / mfast, 2) << " | " << mr.at(n) << " | "
       << (p == published_t.end() ? "— | — | —" : fixed(p->second, 4) + " | " + fixed(p->second / pfast, 2) + " | " + std::to_string(pr.at(n)))
       << " |\n";
  }
  std::cout << md.str();
  std::ofstream(o.out + "/table.md") << md.str();
  html(o.out + "/index.html", "navbench reproduce gppc2023-" + track, md.str());
  nlohmann::json config = {{"reproduce", "gppc2023-" + track}, {"data", o.published}, {"config", o.config},
                           {"maps", cfg.maps}, {"limit", cfg.limit}, {"convention", rc.select.convention},
                           {"pinch", "forbid"}, {"run", rc.out}, {"rows", rows}};
  std::ofstream(o.out + "/meta.json") << json_text(run_metadata(argv, 0, config), 2) << '\n';
  std::cerr << "navbench: wrote " << o.out << "/table.md, index.html, meta.json, run/results.*\n";
  return 0;
}

// Markdown (paragraphs and pipe tables, as the reproductions print them) as one HTML page.
void html(const std::string& file, const std::string& title, const std::string& md) {
  auto esc = [](const std::string& s) {
    std::string o;
    for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return o;
  };
  std::ofstream h(file);
  if (!h) throw std::runtime_error(file + ": cannot write");
  h << "<!doctype html><meta charset=utf-8><title>" << esc(title) << "</title>\n"
    << "<style>body{font-family:sans-serif;max-width:1400px}table{border-collapse:collapse}td,th{padding:2px 8px;"
       "border-bottom:1px solid #ccc;text-align:right}td:nth-child(-n+2),th:nth-child(-n+2){text-align:left}</style>\n<h1>"
    << esc(title) << "</h1>\n";
  std::istringstream in(md);
  std::string line;
  bool table = false, head = false;
  while (std::getline(in, line)) {
    if (line.starts_with("|")) {
      if (line.starts_with("|---")) continue;
      if (!table) h << "<table>\n", table = head = true;
      std::vector<std::string> cells;
      std::size_t a = 1;
      for (std::size_t b; (b = line.find('|', a)) != std::string::npos; a = b + 1) cells.push_back(line.substr(a, b - a));
      h << "<tr>";
      for (const std::string& c : cells) h << (head ? "<th>" : "<td>") << esc(c);
      h << "\n";
      head = false;
      continue;
    }
    if (table) h << "</table>\n", table = false;
    if (!line.empty()) h << "<p>" << esc(line) << "</p>\n";
  }
  if (table) h << "</table>\n";
}

}  // namespace navbench::gppc_reproduce

namespace navbench {

int reproduce_gppc(const std::string& track, const GppcOptions& o, const std::vector<std::string>& argv) {
  return gppc_reproduce::run(track, o, argv);
}

void write_reproduce_html(const std::string& file, const std::string& title, const std::string& md) {
  gppc_reproduce::html(file, title, md);
}

}  // namespace navbench
