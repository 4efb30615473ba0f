// The served maps and what is built on them. Each (map, representation) is built once and cached;
// a mutex per built representation guards its query-time state (the A* workspace), so several
// tabs can query at once. Builds are kept per map (least recently used dropped beyond
// kMaxRepsCachedPerMap) and for the --cache-maps most recently used maps (docs/viewer.md).
// An agent radius R > 0 has builds of its own (RadiusBuilds: kMaxRadiiCachedPerMap radii per map,
// each with up to kMaxRepsCachedPerMap representations), made in the background so that a query
// waits for them at most kBuildWaitMs (docs/viewer.md#agents-with-a-radius).
#include <chrono>
#include <cstdlib>
#include <sstream>

#include "base/text.hpp"
#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

namespace {

// Drops the least recently used finished build of `slots` (caller holds the mutex guarding them);
// false when every one is still building. In-flight queries keep theirs alive through their shared_ptr.
template <class K, class T>
bool evict_lru(std::map<K, Slot<T>>& slots) {
  auto victim = slots.end();
  for (auto it = slots.begin(); it != slots.end(); ++it)
    if (it->second.built.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
        (victim == slots.end() || it->second.used < victim->second.used))
      victim = it;
  if (victim == slots.end()) return false;
  slots.erase(victim);
  return true;
}

// Removes slot `id` of `slots` if it is still there (a failed build: the next request tries again).
template <class K, class T>
void erase_slot(std::mutex& m, std::map<K, Slot<T>>& slots, const K& key, std::uint64_t id) {
  std::lock_guard g(m);
  if (auto it = slots.find(key); it != slots.end() && it->second.id == id) slots.erase(it);
}

std::string seconds_text(base::Clock::time_point since) { return base::fixed(base::s_since(since), 1) + " s"; }

}  // namespace

BackgroundBuilds::~BackgroundBuilds() {
  std::vector<Worker> all;
  {
    std::lock_guard g(m_);
    all.swap(workers_);
  }
  for (auto& w : all) w.t.join();
}

void BackgroundBuilds::start(std::function<void()> work) {
  std::lock_guard g(m_);
  for (auto it = workers_.begin(); it != workers_.end();) {  // the finished ones
    if (*it->done) {
      it->t.join();
      it = workers_.erase(it);
    } else {
      ++it;
    }
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  std::thread t([work = std::move(work), done] {
    work();  // never throws: a build's failure goes to its promise
    *done = true;
  });
  workers_.push_back({std::move(t), std::move(done)});
}

MapCache::MapCache(const std::vector<std::string>& files, std::size_t cache_maps) : cache_maps_(cache_maps) {
  if (const char* w = std::getenv("NAVBENCH_SERVE_WAIT_MS")) {
    char* end = nullptr;
    const long ms = std::strtol(w, &end, 10);
    if (end != w && *end == '\0' && ms >= 0) wait_ = std::chrono::milliseconds(ms);
  }
  QuerySelection sel;
  sel.queries = 1;  // maps without a scenario file are fine here (as in `navbench structure`)
  for (const auto& f : files) {
    auto e = std::make_unique<MapEntry>();
    e->pm = prepare_map(f, sel);  // reads and checks the map and its scenario (InputError: exit 2)
    e->pm.scen.lines = {};          // the queries come from the page: a many-map server keeps no scenarios
    maps_.push_back(std::move(e));
  }
}

MapEntry& MapCache::find(const std::string& id_text) {
  std::size_t used = 0;
  long id = -1;
  try {
    id = std::stol(id_text, &used);
  } catch (...) {
    used = 0;
  }
  if (id_text.empty() || used != id_text.size() || id < 0 || std::size_t(id) >= maps_.size())
    throw HttpError(404, "unknown map '" + id_text + "' (this server has maps 0.." + std::to_string(maps_.size() - 1) + ")");
  return *maps_[std::size_t(id)];
}

std::size_t MapCache::index_of(const MapEntry& e) const {
  for (std::size_t i = 0; i < maps_.size(); ++i)
    if (maps_[i].get() == &e) return i;
  return 0;
}

std::shared_ptr<const AgentSpace> MapCache::point_space(MapEntry& e) {
  touch(e);
  std::lock_guard g(e.m);
  if (!e.space) e.space = std::make_shared<const AgentSpace>(e.pm.map, Agent{});
  return e.space;
}

std::shared_ptr<BuiltRep> MapCache::built(MapEntry& e, const RepresentationSpec& spec) {
  std::promise<std::shared_ptr<BuiltRep>> promise;
  BuiltFuture fut;
  bool builder = false;
  {
    std::lock_guard g(e.m);
    auto it = e.reps.find(spec.text);
    if (it == e.reps.end()) {
      if (e.reps.size() >= kMaxRepsCachedPerMap) evict_lru(e.reps);
      fut = promise.get_future().share();
      e.reps.emplace(spec.text, Slot<BuiltRep>{fut, ++e.tick, base::Clock::now(), ++next_id_});
      builder = true;
    } else {
      it->second.used = ++e.tick;
      fut = it->second.built;
    }
  }
  if (builder) {
    try {
      touch(e);
      promise.set_value(build_rep(e.pm.map, spec));
    } catch (...) {
      {
        std::lock_guard g(e.m);
        e.reps.erase(spec.text);
      }
      promise.set_exception(std::current_exception());
    }
  }
  return fut.get();
}

std::shared_ptr<RadiusBuilds> MapCache::radius_builds(MapEntry& e, double R, base::Clock::time_point deadline) {
  touch(e);
  std::shared_future<std::shared_ptr<RadiusBuilds>> fut;
  base::Clock::time_point since;
  {
    std::lock_guard g(e.m);
    if (auto it = e.radii.find(R); it != e.radii.end()) {
      it->second.used = ++e.tick;
      fut = it->second.built;
      since = it->second.started;
    } else {
      if (e.radii.size() >= kMaxRadiiCachedPerMap && !evict_lru(e.radii))
        throw HttpError(503, "busy: " + std::to_string(e.radii.size()) + " other radii are still building on map " + e.pm.map.name +
                                 "; ask again");
      // The map as it is now (the caller holds e.state, an edit drops e.radii): copied here, the
      // rest made in the background exactly as `navbench run --radius R` makes it per (map, R).
      auto rb = std::make_shared<RadiusBuilds>();
      rb->R = R;
      rb->version = e.version;
      rb->map = e.pm.map;
      auto promise = std::make_shared<std::promise<std::shared_ptr<RadiusBuilds>>>();
      fut = promise->get_future().share();
      since = base::Clock::now();
      const std::uint64_t id = ++next_id_;
      e.radii.emplace(R, Slot<RadiusBuilds>{fut, ++e.tick, since, id});
      try {
        background_.start([rb, promise, &e, R, id] {
          try {
            const auto t0 = base::Clock::now();
            rb->space = std::make_unique<AgentSpace>(rb->map, Agent::with_radius(R));  // free space, clearance, shrunk maps
            rb->oracles = std::make_unique<Oracles>(*rb->space);
            rb->oracles->prepare();  // the tangent graph
            rb->build_ms = base::us_since(t0) / 1000.0;
            promise->set_value(rb);
          } catch (...) {
            erase_slot(e.m, e.radii, R, id);
            promise->set_exception(std::current_exception());
          }
        });
      } catch (...) {  // no thread: nothing was started
        e.radii.erase(R);
        throw;
      }
    }
  }
  if (fut.wait_until(deadline) != std::future_status::ready) {
    std::ostringstream r;
    r << R;
    throw HttpError(503, "still building the clearance, shrunk maps and tangent graph of map " + e.pm.map.name + " for radius " + r.str() +
                             " (" + seconds_text(since) + " so far); ask again");
  }
  return fut.get();  // a failed build rethrows here (and is not cached)
}

std::shared_ptr<BuiltRep> MapCache::built_at(const std::shared_ptr<RadiusBuilds>& rb, const RepresentationSpec& spec,
                                             base::Clock::time_point deadline, base::Clock::time_point* since) {
  BuiltFuture fut;
  base::Clock::time_point started;
  {
    std::lock_guard g(rb->m);
    if (auto it = rb->reps.find(spec.text); it != rb->reps.end()) {
      it->second.used = ++rb->tick;
      fut = it->second.built;
      started = it->second.started;
    } else {
      if (rb->reps.size() >= kMaxRepsCachedPerMap) evict_lru(rb->reps);
      auto promise = std::make_shared<std::promise<std::shared_ptr<BuiltRep>>>();
      fut = promise->get_future().share();
      started = base::Clock::now();
      const std::uint64_t id = ++next_id_;
      rb->reps.emplace(spec.text, Slot<BuiltRep>{fut, ++rb->tick, started, id});
      try {
        background_.start([rb, spec, promise, id] {
          try {
            promise->set_value(build_disc_rep(*rb->space, spec));
          } catch (...) {
            erase_slot(rb->m, rb->reps, spec.text, id);
            promise->set_exception(std::current_exception());
          }
        });
      } catch (...) {
        rb->reps.erase(spec.text);
        throw;
      }
    }
  }
  if (since) *since = started;
  if (fut.wait_until(deadline) != std::future_status::ready) return nullptr;
  return fut.get();
}

void MapCache::touch(MapEntry& e) {
  std::lock_guard g(m_);
  e.used = ++clock_;
  std::size_t holding = 0;
  MapEntry* lru = nullptr;
  for (auto& p : maps_) {
    if (p.get() == &e) continue;
    std::lock_guard ge(p->m);
    if (!p->space && p->reps.empty() && p->radii.empty()) continue;
    ++holding;
    if (!lru || p->used < lru->used) lru = p.get();
  }
  if (lru && holding + 1 > cache_maps_) {
    std::lock_guard ge(lru->m);
    lru->space.reset();
    lru->reps.clear();
    lru->radii.clear();
  }
}

}  // namespace navbench::viewer
