// The served maps and what is built on them. Each (map, representation) is built once and cached;
// a mutex per built representation guards its query-time state (the A* workspace), so several
// tabs can query at once. Builds are kept per map (least recently used dropped beyond
// kMaxRepsCachedPerMap) and for the --cache-maps most recently used maps (docs/viewer.md).
#include <chrono>

#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

namespace {

// Drops the least recently used finished build of e (caller holds e.m). In-flight queries keep
// theirs alive through their shared_ptr.
void evict_one_rep(MapEntry& e) {
  auto victim = e.reps.end();
  for (auto it = e.reps.begin(); it != e.reps.end(); ++it)
    if (it->second.built.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
        (victim == e.reps.end() || it->second.used < victim->second.used))
      victim = it;
  if (victim != e.reps.end()) e.reps.erase(victim);
}

}  // namespace

MapCache::MapCache(const std::vector<std::string>& files, std::size_t cache_maps) : cache_maps_(cache_maps) {
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

std::shared_ptr<const FreeSpace> MapCache::free_space(MapEntry& e) {
  touch(e);
  std::lock_guard g(e.m);
  if (!e.free) e.free = std::make_shared<const FreeSpace>(e.pm.map);
  return e.free;
}

std::shared_ptr<BuiltRep> MapCache::built(MapEntry& e, const RepresentationSpec& spec) {
  std::promise<std::shared_ptr<BuiltRep>> promise;
  BuiltFuture fut;
  bool builder = false;
  {
    std::lock_guard g(e.m);
    auto it = e.reps.find(spec.text);
    if (it == e.reps.end()) {
      if (e.reps.size() >= kMaxRepsCachedPerMap) evict_one_rep(e);
      fut = promise.get_future().share();
      e.reps.emplace(spec.text, MapEntry::Slot{fut, ++e.tick});
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

void MapCache::touch(MapEntry& e) {
  std::lock_guard g(m_);
  e.used = ++clock_;
  std::size_t holding = 0;
  MapEntry* lru = nullptr;
  for (auto& p : maps_) {
    if (p.get() == &e) continue;
    std::lock_guard ge(p->m);
    if (!p->free && p->reps.empty()) continue;
    ++holding;
    if (!lru || p->used < lru->used) lru = p.get();
  }
  if (lru && holding + 1 > cache_maps_) {
    std::lock_guard ge(lru->m);
    lru->free.reset();
    lru->reps.clear();
  }
}

}  // namespace navbench::viewer
