#include "harness/gppc/planner.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "base/files.hpp"
#include "base/text.hpp"
#include "geometry/free_space.hpp"
#include "harness/gppc/client.hpp"
#include "harness/gppc/judge.hpp"
#include "geometry/radius_validity.hpp"
#include "search/observer.hpp"
#include "smoothing/smoothing.hpp"

namespace navbench::gppc {

namespace {

namespace fs = std::filesystem;

std::string default_name(const std::string& path) { return fs::path(path).filename().string(); }

// The entry's parameters (docs/outside-planners.md); the limits' defaults are client.hpp's Limits.
constexpr std::array kParams{
    ParamDecl{"path", ParamType::text, 0, 0, 0, "the entry's program, built with navbench's host (required)"},
    ParamDecl{"track", ParamType::choice, 0, 0, 1, "the competition track the entry was written for (required)", nullptr,
              "classic,anyangle"},
    ParamDecl{"name", ParamType::text, 0, 0, 0, "the rows' name, gppc:NAME", "the program's file name"},
    ParamDecl{"query_ms", ParamType::real, double(Limits{}.query_ms), 1, 1e8, "time limit of one query (all GetPath calls of its path)"},
    ParamDecl{"prepare_ms", ParamType::real, double(Limits{}.prepare_ms), 1, 1e9, "time limit of PreprocessMap, and of PrepareForSearch"},
    ParamDecl{"memory_mb", ParamType::integer, double(Limits{}.memory_mb), 16, 1 << 24, "the entry process's resident memory limit"},
    ParamDecl{"max_calls", ParamType::integer, double(Limits{}.max_calls), 1, 100000000, "GetPath calls for one incremental path"},
    ParamDecl{"log", ParamType::text, 0, 0, 0, "where the entry's stdout and stderr go", "navbench-gppc-NAME.log in the temp folder"},
    ParamDecl{"store", ParamType::text, 0, 0, 0,
              "a folder where PreprocessMap's files stay: a later run of the same program on the same map reuses them "
              "and reports that run's preprocessing figures (the competition's separate -pre and -run)",
              "a temporary folder, removed after the run"},
};

// A kept store (store=DIR): PreprocessMap's files of one program on one map, in DIR/NAME-MAP-KEY/,
// with a stamp written after PreprocessMap succeeded. The stamp names the program (its real path,
// size and modification time) and holds the figures of that run; a stamp that does not match the
// program, or is missing or damaged, means the folder is emptied and the map preprocessed again.
constexpr const char* kStampName = "navbench-preprocessed.txt";
constexpr const char* kStampHead = "navbench gppc store 1";

// The map's size (8 bytes each, little-endian) and cells, hashed (base::fnv1a_hex): the store's
// folder of this map, so that an edited map with the same name is preprocessed again.
std::string map_key(const GridMap& g) {
  std::string bytes;
  bytes.reserve(16 + g.cells.size());
  for (std::uint64_t v : {std::uint64_t(g.width), std::uint64_t(g.height)})
    for (int i = 0; i < 8; ++i, v >>= 8) bytes.push_back(char(v & 0xff));
  bytes.append(g.cells.begin(), g.cells.end());
  return base::fnv1a_hex(bytes);
}

// The program's identity in a stamp: its real path, size and modification time.
std::string program_id(const std::string& path) {
  std::error_code e1, e2, e3;
  const fs::path real = fs::canonical(path, e1);
  const auto size = fs::file_size(path, e2);
  const auto mtime = fs::last_write_time(path, e3).time_since_epoch().count();
  return (e1 ? fs::path(path) : real).string() + " " + std::to_string(e2 ? 0 : size) + " " + std::to_string(e3 ? 0 : mtime);
}

std::optional<BuildInfo> read_stamp(const fs::path& stamp, const std::string& program) {
  std::ifstream in(stamp);
  std::string head, prog;
  BuildInfo b;
  if (!std::getline(in, head) || head != kStampHead || !std::getline(in, prog) || prog != "program " + program) return std::nullopt;
  std::string k1, k2, k3;
  if (!(in >> k1 >> b.preprocess_ms >> k2 >> b.storage_bytes >> k3 >> b.preprocess_peak_kb) || k1 != "preprocess_ms" ||
      k2 != "storage_bytes" || k3 != "preprocess_peak_kb")
    return std::nullopt;
  return b;
}

void write_stamp(const fs::path& stamp, const std::string& program, const BuildInfo& b) {
  std::ostringstream out;  // written atomically: a stamp is whole or absent
  out << kStampHead << "\nprogram " << program << "\npreprocess_ms " << std::setprecision(17) << b.preprocess_ms
      << "\nstorage_bytes " << b.storage_bytes << "\npreprocess_peak_kb " << b.preprocess_peak_kb << "\n";
  base::write_atomic(stamp, out.str());
}

// path= and track= have no default: an entry is named by both.
void check_required(const Params& p) {
  if (!p.given(param(kParams, "path"))) throw std::invalid_argument("gppc needs path=PROGRAM (an entry built with navbench's host)");
  if (!p.given(param(kParams, "track"))) throw std::invalid_argument("gppc needs track=classic or track=anyangle");
}

// The entry as a planner: its own process plans (locating inside GetPath), times itself and judges
// its path; it answers queries ahead (the facet AnswersAhead) and has no graph.
class GppcPlanner final : public Planner, public AnswersAhead {
 public:
  // use_store false: store= is read but not used (check_spec's probe on a one-cell map).
  GppcPlanner(const Map& m, Params& p, bool use_store = true) {
    if (m.kind != MapKind::grid) throw UnsupportedMap("gppc needs a grid map");
    const std::string path = p.text(param(kParams, "path"));
    const int track = p.choice(param(kParams, "track"));
    const std::string name = p.text(param(kParams, "name"), default_name(path));
    Limits lim;
    lim.query_ms = p.real(param(kParams, "query_ms"));
    lim.prepare_ms = p.real(param(kParams, "prepare_ms"));
    lim.memory_mb = std::uint64_t(p.integer(param(kParams, "memory_mb")));
    lim.max_calls = std::uint32_t(p.integer(param(kParams, "max_calls")));
    const std::string log = p.text(param(kParams, "log"), (fs::temp_directory_path() / ("navbench-gppc-" + name + ".log")).string());
    std::string store = p.text(param(kParams, "store"), "");
    if (!use_store) store.clear();
    p.finish("gppc");
    check_required(p);
    track_ = track == 0 ? Track::classic : Track::anyangle;
    const std::string map_name = m.name.empty() ? "map" : m.name;
    std::optional<BuildInfo> kept;
    std::string program;
    if (store.empty()) {
      static std::atomic<int> counter{0};
      dir_ = fs::temp_directory_path() / ("navbench-gppc-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
      owns_dir_ = true;
    } else {
      dir_ = fs::path(store) / (name + "-" + map_name + "-" + map_key(m.grid));
      program = program_id(path);
      kept = read_stamp(dir_ / kStampName, program);
      std::error_code ec;
      if (!kept) fs::remove_all(dir_, ec);  // another program's, or an unfinished PreprocessMap's files
    }
    std::error_code made;
    fs::create_directories(dir_, made);
    if (made) throw BuildFailed("gppc: cannot make the folder '" + dir_.string() + "': " + made.message());
    fs_ = std::make_unique<FreeSpace>(m);
    spec_ = EntrySpec{path, track_, log, (dir_ / map_name).string()};
    limits_ = lim;
    grid_ = &m.grid;
    try {
      slots_.push_back(std::make_unique<Slot>());
      slots_.front()->proc = kept ? std::make_unique<EntryProcess>(spec_, limits_, m.grid, *kept)
                                  : std::make_unique<EntryProcess>(spec_, limits_, m.grid);
      by_key_[nullptr] = slots_.front().get();
      if (!store.empty() && !kept) write_stamp(dir_ / kStampName, program, slots_.front()->proc->build());
    } catch (const std::runtime_error& e) {
      // The folder goes in every case: a kept one whose PrepareForSearch failed may hold damaged
      // files, and the next run then preprocesses again.
      slots_.clear();
      std::error_code ec;
      fs::remove_all(dir_, ec);
      throw BuildFailed(std::string(e.what()) + (kept ? " (the stored files were removed: the next run preprocesses again)" : ""));
    }
  }
  ~GppcPlanner() override {
    slots_.clear();  // the children end before their files go
    std::error_code ec;
    if (owns_dir_) fs::remove_all(dir_, ec);
  }

  void prepare() override {}
  // memory_bytes: the bytes PreprocessMap stored, the entry's counterpart of a structure's bytes
  // (SPEC §14: bytes at rest beside bytes at rest); its peak resident memory is peak_rss_bytes.
  BuildFigures figures() const override {
    const MeasuredBuild o = outside();
    return {{0, 0, std::size_t(o.stored_bytes)}, o};
  }
  // --threads N: each thread's workspace has an entry process of its own (slot()).
  std::unique_ptr<Workspace> workspace() const override { return std::make_unique<Workspace>(); }
  // The entry locates inside GetPath.
  std::optional<Outcome> locate(Query&, const Request&) const override { return std::nullopt; }
  // The entry's GetPath in its child process; an observer sees its path only (no search events).
  Outcome plan(Query& q, const Request& r) const override {
    Outcome o = run(q, r.ws);
    if (r.observer && o.status == PlanStatus::found) r.observer->path(o.path);
    return o;
  }
  Facets facets() const override { return {nullptr, nullptr, this}; }
  // preprocessed again on a changed map: Planner::update's false.
  // The queries about to be asked through ws (nullptr: the build's own search), to the process of
  // ws's slot: --threads N batches each thread's share as one thread's queries are batched.
  void expect_queries(const std::vector<std::pair<Point, Point>>& queries, const Workspace* ws) const override {
    Slot& slot = this->slot(ws);
    const std::lock_guard<std::mutex> lock(slot.mutex);
    slot.expected.clear();
    slot.answers.clear();
    slot.next = 0;
    const double off = track_ == Track::classic ? 0.5 : 0.0;
    for (const auto& [s, g] : queries) slot.expected.push_back({s.x - off, s.y - off, g.x - off, g.y - off});
  }

 private:
  // One query through the entry. Classic: the row's points are cell centres (the center
  // convention); any-angle: cell corners (the corner convention). Its times are the entry's own:
  // GetPath's, taken in its process, and no locate of navbench's (SPEC §10).
  Outcome run(const Query& q, const Workspace* ws) const {
    Outcome o;
    o.locate_us = 0.0;
    o.search_us = 0.0;
    auto failed = [&o](std::string why) {
      o.status = PlanStatus::error;
      o.message = std::move(why);
      return o;
    };
    const double off = track_ == Track::classic ? 0.5 : 0.0;
    const Point s{q.start.x - off, q.start.y - off}, g{q.goal.x - off, q.goal.y - off};
    auto whole = [](Point p) { return p.x == std::floor(p.x) && p.y == std::floor(p.y); };
    if (!whole(s) || !whole(g))
      return failed(std::string("the ") + to_string(track_) + " track runs at --convention " +
                    (track_ == Track::classic ? "center" : "corner") + " (cell queries)");
    std::vector<EntryAnswer> a;
    try {
      Slot& slot = this->slot(ws);
      const std::lock_guard<std::mutex> lock(slot.mutex);  // uncontended: one thread per slot
      const EntryQuery eq{s.x, s.y, g.x, g.y};
      std::optional<EntryAnswer> ahead = take_ahead(slot, eq);
      a = ahead ? std::vector<EntryAnswer>{std::move(*ahead)} : slot.proc->answer({eq});
    } catch (const std::runtime_error& e) {  // this thread's entry process could not start
      return failed(e.what());
    }
    Verdict v = judge(a.front(), track_, *fs_, s, g);
    o.search_us = a.front().search_us;
    o.pieces = pieces(a.front());
    if (v.kind == Verdict::Kind::error) return failed(v.reason);
    if (v.kind == Verdict::Kind::no_path) return o;  // PlanStatus::no_path
    o.status = PlanStatus::found;
    o.valid = v.valid;
    o.message = v.reason;  // why the path is invalid ("" when valid)
    o.path = std::move(v.path);
    o.cost = v.length;
    return o;
  }

  // The entry's GetPath calls as the pieces of its path (SPEC §15), each timed in its process: the
  // points after each call counted as the judge counts them (repeated points merged).
  static std::vector<PathPiece> pieces(const EntryAnswer& a) {
    std::vector<std::size_t> merged(a.points.size() + 1, 0);  // merged[k]: points among the first k
    for (std::size_t i = 0; i < a.points.size(); ++i) merged[i + 1] = merged[i] + (i == 0 || !(a.points[i] == a.points[i - 1]));
    std::vector<PathPiece> out;
    for (const Call& c : a.call_times) out.push_back({merged[std::min<std::size_t>(c.points, a.points.size())], c.us});
    return out;
  }

  // One entry process, the lock of its pipe, and its queries ahead (expect_queries, take_ahead).
  struct Slot {
    std::unique_ptr<EntryProcess> proc;
    std::mutex mutex;
    std::vector<EntryQuery> expected;
    std::size_t next = 0;              // expected[next] is the next one not yet taken
    std::deque<EntryAnswer> answers;   // the answers of expected[next ...]
  };

  // The answer to q among the next kAhead queries expected of the slot (expect_queries; the caller
  // holds its mutex): those the pipeline skipped (an invalid query, different components) are
  // dropped with their answers, and when no answer waits the next kAhead expected go to the entry
  // together, so that its GetPath calls run back to back while navbench only reads. nullopt: not expected.
  static std::optional<EntryAnswer> take_ahead(Slot& slot, const EntryQuery& q) {
    constexpr std::size_t kAhead = 256;  // EntryProcess::answer's batch
    auto same = [&q](const EntryQuery& e) { return e.sx == q.sx && e.sy == q.sy && e.gx == q.gx && e.gy == q.gy; };
    const std::size_t end = std::min(slot.expected.size(), slot.next + kAhead);
    std::size_t k = slot.next;
    while (k < end && !same(slot.expected[k])) ++k;
    if (k == end) return std::nullopt;
    for (; slot.next < k; ++slot.next)
      if (!slot.answers.empty()) slot.answers.pop_front();
    if (slot.answers.empty()) {
      const auto first = slot.expected.begin() + long(slot.next);
      for (EntryAnswer& x : slot.proc->answer({first, first + long(std::min(kAhead, slot.expected.size() - slot.next))}))
        slot.answers.push_back(std::move(x));
    }
    ++slot.next;
    EntryAnswer r = std::move(slot.answers.front());
    slot.answers.pop_front();
    return r;
  }

  // The entry process of the caller's workspace (nullptr: the build's own). The first workspace
  // takes the build's process; each further one starts a process of its own (PrepareForSearch on
  // the files PreprocessMap wrote), so --threads N runs N entry processes side by side.
  Slot& slot(const Workspace* ws) const {
    const std::lock_guard<std::mutex> lock(slots_mutex_);
    if (auto it = by_key_.find(ws); it != by_key_.end()) return *it->second;
    if (!built_taken_) {
      built_taken_ = true;
      return *(by_key_[ws] = slots_.front().get());
    }
    auto fresh = std::make_unique<Slot>();
    fresh->proc = std::make_unique<EntryProcess>(spec_, limits_, *grid_, /*preprocess=*/false);
    slots_.push_back(std::move(fresh));
    return *(by_key_[ws] = slots_.back().get());
  }

  // The build row's `entry` columns: the build's own figures, and the peak memory of every process.
  MeasuredBuild outside() const {
    const std::lock_guard<std::mutex> lock(slots_mutex_);
    const BuildInfo& b = slots_.front()->proc->build();
    MeasuredBuild o{b.preprocess_ms, b.prepare_ms, b.storage_bytes, 0};
    for (const auto& slot : slots_) {
      const std::lock_guard<std::mutex> in_use(slot->mutex);
      o.peak_rss_bytes = std::max(o.peak_rss_bytes, slot->proc->peak_rss_bytes());
    }
    return o;
  }

  Track track_ = Track::classic;
  fs::path dir_;
  bool owns_dir_ = false;  // a temporary folder (no store=): removed with the representation
  std::unique_ptr<FreeSpace> fs_;
  EntrySpec spec_;
  Limits limits_;
  const GridMap* grid_ = nullptr;
  mutable std::mutex slots_mutex_;
  mutable std::vector<std::unique_ptr<Slot>> slots_;  // the build's first
  mutable std::map<const void*, Slot*> by_key_;       // a workspace's slot; nullptr: the build's
  mutable bool built_taken_ = false;
};

}  // namespace

std::span<const ParamDecl> parameters() { return kParams; }

std::unique_ptr<Planner> build_planner(const Map& m, Params& p) { return std::make_unique<GppcPlanner>(m, p); }

std::string check_spec(const std::string& params) {
  Params p = Params::parse(params);
  p.check(kParams, {}, "gppc");
  check_required(p);
  if (p.given(param(kParams, "store"))) {  // a store that cannot be made fails the command now
    const std::string store = p.text(param(kParams, "store"), "");
    std::error_code ec;
    fs::create_directories(store, ec);
    if (ec || !fs::is_directory(store)) throw std::invalid_argument("gppc: store=" + store + " is not a folder navbench can write");
  }
  // The program itself (there, built for the declared track) is asked on a one-cell map: a wrong
  // track or a missing program fails the command now, not after the first map's results.
  GridMap g;
  g.width = g.height = 1;
  g.cells = {1};
  try {
    GppcPlanner probe(make_grid_map(g, "probe"), p, /*use_store=*/false);
  } catch (const UnsupportedMap&) {  // the entry could not preprocess a one-cell map: not an option error
  }
  return "gppc:" + p.text(param(kParams, "name"), default_name(p.text(param(kParams, "path"))));
}

}  // namespace navbench::gppc
