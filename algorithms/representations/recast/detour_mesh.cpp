#include "representations/recast/detour_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include <recastnavigation/DetourAlloc.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/Recast.h>

#include "geometry/free_space.hpp"

namespace navbench {

std::string RecastConfig::partition_name() const {
  switch (partition) {
    case Partition::monotone: return "monotone";
    case Partition::layers: return "layers";
    case Partition::watershed: break;
  }
  return "watershed";
}

int RecastConfig::radius_voxels() const {
  // Rounded up, so the eroded mesh keeps at least the radius (a hair of float noise is not a voxel).
  return radius > 0 ? int(std::ceil(radius / cs - 1e-9)) : 0;
}

AreaTable::AreaTable(const GridMap& g) {
  std::vector<double> w;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) w.push_back(g.weight(x, y));
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
  cost_.fill(1.0f);
  if (w.empty()) return;
  if (int(w.size()) <= kAreas) {
    distinct_ = w;
    used_ = int(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) cost_[1 + i] = float(w[i]);
    return;
  }
  exact_ = false;
  used_ = kAreas;
  least_ = w.front();
  ratio_ = std::pow(w.back() / w.front(), 1.0 / kAreas);
  for (int a = 1; a <= kAreas; ++a) cost_[std::size_t(a)] = float(least_ * std::pow(ratio_, a - 0.5));
}

unsigned char AreaTable::area(double weight) const {
  if (exact_) {
    if (distinct_.empty()) return 1;
    const auto it = std::lower_bound(distinct_.begin(), distinct_.end(), weight);
    return (unsigned char)(1 + std::min<std::ptrdiff_t>(it - distinct_.begin(), std::ptrdiff_t(distinct_.size()) - 1));
  }
  const int bin = int(std::floor(std::log(weight / least_) / std::log(ratio_)));
  return (unsigned char)(1 + std::clamp(bin, 0, kAreas - 1));
}

void DetourMesh::Deleter::operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }

namespace {

// Recast's log, counted: a warning such as "Multiple outlines for region" says the contour builder
// dropped part of a region's outline (docs/recast.md); errors end the build with their text.
class CountingContext : public rcContext {
 public:
  CountingContext() : rcContext(true) {}
  int warnings = 0;
  std::string last_error;

 protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    if (category == RC_LOG_WARNING) ++warnings;
    if (category == RC_LOG_ERROR) last_error.assign(msg, std::size_t(std::max(0, len)));
  }
};

template <class T, void (*Free)(T*)>
struct RcPtr {
  T* p;
  explicit RcPtr(T* q) : p(q) {
    if (!p) throw std::invalid_argument("recast: out of memory");
  }
  ~RcPtr() { Free(p); }
  RcPtr(const RcPtr&) = delete;
  RcPtr& operator=(const RcPtr&) = delete;
  T& operator*() const { return *p; }
};
using Heightfield = RcPtr<rcHeightfield, rcFreeHeightField>;
using Compact = RcPtr<rcCompactHeightfield, rcFreeCompactHeightfield>;
using Contours = RcPtr<rcContourSet, rcFreeContourSet>;
using PolyMesh = RcPtr<rcPolyMesh, rcFreePolyMesh>;
using PolyMeshDetail = RcPtr<rcPolyMeshDetail, rcFreePolyMeshDetail>;

// The Recast area of a point: 0 where the walkable area does not hold it (blocked cells, outside
// the map, outside the polygon free space), else its terrain's area (AreaTable; 1 unweighted).
using AreaAt = std::function<unsigned char(double, double)>;

int ilog2(unsigned v) {
  int r = 0;
  while (v > 1) v >>= 1, ++r;
  return r;
}
unsigned next_pow2(unsigned v) {
  unsigned p = 1;
  while (p < v) p <<= 1;
  return p;
}

void check(CountingContext& ctx, bool ok, const char* step) {
  if (!ok) throw std::invalid_argument(std::string("recast: ") + step + " failed" +
                                       (ctx.last_error.empty() ? "" : ": " + ctx.last_error));
}

// One tile: the voxels [x0 - border, x0 + size + border) x [z0 - border, ...) rasterised as spans of
// one voxel's height wherever the voxel's centre is walkable, then Recast's pipeline down to the
// Detour tile data (nullptr, size 0 when the tile holds no polygon).
struct TileData {
  unsigned char* data = nullptr;
  int size = 0;
  std::size_t walkable = 0, regioned = 0;  // voxels of the tile's own square: walkable, in a region
};
TileData build_tile(CountingContext& ctx, const RecastConfig& c, const AreaAt& area_at, const float orig[3], int tx,
                    int tz, int size_x, int size_z) {
  const float cs = float(c.cs), ch = 1.0f;
  // RecastDemo's tile border: the agent radius plus 3 voxels, so regions and erosion see past the tile's edge.
  const int border = c.tile > 0 ? c.radius_voxels() + 3 : 0;
  rcConfig cfg{};
  cfg.cs = cs;
  cfg.ch = ch;
  cfg.width = size_x + 2 * border;
  cfg.height = size_z + 2 * border;
  cfg.tileSize = c.tile;
  cfg.borderSize = border;
  cfg.walkableSlopeAngle = 45;
  cfg.walkableHeight = 2;
  cfg.walkableClimb = 0;
  cfg.walkableRadius = c.radius_voxels();
  cfg.maxEdgeLen = c.max_edge > 0 ? int(c.max_edge / c.cs) : 0;
  cfg.maxSimplificationError = float(c.max_error);
  cfg.minRegionArea = c.min_region * c.min_region;
  cfg.mergeRegionArea = c.merge_region * c.merge_region;
  cfg.maxVertsPerPoly = c.nvp;
  cfg.detailSampleDist = 6 * cs;
  cfg.detailSampleMaxError = ch;
  const int x0 = tx * c.tile, z0 = tz * c.tile;  // voxel index of the tile's corner (0 for one tile)
  cfg.bmin[0] = orig[0] + float(x0 - border) * cs;
  cfg.bmin[1] = orig[1];
  cfg.bmin[2] = orig[2] + float(z0 - border) * cs;
  cfg.bmax[0] = cfg.bmin[0] + float(cfg.width) * cs;
  cfg.bmax[1] = orig[1] + 4 * ch;
  cfg.bmax[2] = cfg.bmin[2] + float(cfg.height) * cs;

  Heightfield hf(rcAllocHeightfield());
  check(ctx, rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cs, ch), "rcCreateHeightfield");
  bool any = false;
  for (int j = 0; j < cfg.height; ++j)
    for (int i = 0; i < cfg.width; ++i) {
      const double x = c.cs * (x0 - border + i + 0.5), z = c.cs * (z0 - border + j + 0.5);
      const unsigned char area = area_at(double(orig[0]) + x, double(orig[2]) + z);
      if (area == RC_NULL_AREA) continue;
      check(ctx, rcAddSpan(&ctx, *hf, i, j, 0, 1, area, 1), "rcAddSpan");
      any = true;
    }
  if (!any) return {};
  Compact chf(rcAllocCompactHeightfield());
  check(ctx, rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf), "rcBuildCompactHeightfield");
  if (cfg.walkableRadius > 0) check(ctx, rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf), "rcErodeWalkableArea");
  switch (c.partition) {
    case RecastConfig::Partition::watershed:
      check(ctx, rcBuildDistanceField(&ctx, *chf), "rcBuildDistanceField");
      check(ctx, rcBuildRegions(&ctx, *chf, border, cfg.minRegionArea, cfg.mergeRegionArea), "rcBuildRegions");
      break;
    case RecastConfig::Partition::monotone:
      check(ctx, rcBuildRegionsMonotone(&ctx, *chf, border, cfg.minRegionArea, cfg.mergeRegionArea), "rcBuildRegionsMonotone");
      break;
    case RecastConfig::Partition::layers:
      check(ctx, rcBuildLayerRegions(&ctx, *chf, border, cfg.minRegionArea), "rcBuildLayerRegions");
      break;
  }
  TileData out;
  // What the partition left without a region (border voxels belong to the neighbouring tiles).
  const rcCompactHeightfield& spans = *chf;
  for (int j = border; j < cfg.height - border; ++j)
    for (int i = border; i < cfg.width - border; ++i) {
      const rcCompactCell& cell = spans.cells[i + j * spans.width];
      for (unsigned k = cell.index, e = cell.index + cell.count; k < e; ++k) {
        if (spans.areas[k] == RC_NULL_AREA) continue;
        ++out.walkable;
        out.regioned += (spans.spans[k].reg & ~RC_BORDER_REG) != 0;
      }
    }
  Contours cset(rcAllocContourSet());
  check(ctx, rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset), "rcBuildContours");
  if ((*cset).nconts == 0) return out;
  PolyMesh pmesh(rcAllocPolyMesh());
  check(ctx, rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh), "rcBuildPolyMesh");
  PolyMeshDetail dmesh(rcAllocPolyMeshDetail());
  check(ctx, rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh),
        "rcBuildPolyMeshDetail");
  rcPolyMesh& pm = *pmesh;
  if (pm.npolys == 0) return out;
  if (pm.nverts >= 0xffff) throw std::invalid_argument("recast: a tile has too many vertices (use a smaller tile)");
  for (int i = 0; i < pm.npolys; ++i) pm.flags[i] = 1;  // Detour's default filter includes flag 1
  dtNavMeshCreateParams p{};
  p.verts = pm.verts;
  p.vertCount = pm.nverts;
  p.polys = pm.polys;
  p.polyAreas = pm.areas;
  p.polyFlags = pm.flags;
  p.polyCount = pm.npolys;
  p.nvp = pm.nvp;
  p.detailMeshes = (*dmesh).meshes;
  p.detailVerts = (*dmesh).verts;
  p.detailVertsCount = (*dmesh).nverts;
  p.detailTris = (*dmesh).tris;
  p.detailTriCount = (*dmesh).ntris;
  p.walkableHeight = float(cfg.walkableHeight) * ch;
  p.walkableRadius = float(cfg.walkableRadius) * cs;  // what Detour is told; navbench reads no field of it
  p.walkableClimb = 0;
  p.tileX = tx;
  p.tileY = tz;
  p.tileLayer = 0;
  rcVcopy(p.bmin, pm.bmin);
  rcVcopy(p.bmax, pm.bmax);
  p.cs = cs;
  p.ch = ch;
  p.buildBvTree = true;
  if (!dtCreateNavMeshData(&p, &out.data, &out.size))
    throw std::invalid_argument("recast: dtCreateNavMeshData failed (too many polygons or vertices in a tile)");
  return out;
}

// The map's areas: its cells (with their terrain's area), or its polygon free space (area 1). The
// free space, when made, lives in `fs`.
AreaAt area_function(const Map& map, const AreaTable& areas, std::unique_ptr<FreeSpace>& fs) {
  if (map.kind == MapKind::grid) {
    const GridMap& g = map.grid;
    return [&g, &areas](double x, double y) -> unsigned char {
      if (!(x >= 0 && y >= 0) || !g.passable(int(x), int(y))) return RC_NULL_AREA;
      return areas.area(g.weight(int(x), int(y)));
    };
  }
  fs = std::make_unique<FreeSpace>(map);
  const FreeSpace* f = fs.get();
  return [f](double x, double y) -> unsigned char { return f->point_free({x, y}) ? 1 : RC_NULL_AREA; };
}

double signed_area(const std::vector<Point>& c) {
  double a = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Point& p = c[i];
    const Point& q = c[(i + 1) % c.size()];
    a += p.x * q.y - q.x * p.y;
  }
  return a / 2;
}

}  // namespace

DetourMesh::DetourMesh(const Map& map, const RecastConfig& cfg) : cfg_(cfg) {
  if (!(cfg.cs > 0) || !std::isfinite(cfg.cs)) throw std::invalid_argument("recast: cell size must be > 0");
  if (!(cfg.radius >= 0) || !std::isfinite(cfg.radius)) throw std::invalid_argument("recast: the agent radius must be >= 0");
  if (map.weighted()) areas_ = AreaTable(map.grid);
  if (map.kind == MapKind::grid) map_w_ = map.grid.width, map_h_ = map.grid.height;
  // Map (x, y) is Recast's (x, z); the mesh lies flat at y = one voxel.
  orig_[0] = float(map.min.x), orig_[1] = 0.0f, orig_[2] = float(map.min.y);
  vx_ = std::max(1, int(std::ceil((map.max.x - map.min.x) / cfg.cs)));
  vz_ = std::max(1, int(std::ceil((map.max.y - map.min.y) / cfg.cs)));
  ntx_ = cfg.tile > 0 ? (vx_ + cfg.tile - 1) / cfg.tile : 1;
  ntz_ = cfg.tile > 0 ? (vz_ + cfg.tile - 1) / cfg.tile : 1;
  dtNavMesh* nav = dtAllocNavMesh();
  if (!nav) throw std::invalid_argument("recast: out of memory");
  nav_.reset(nav);
  floor_y_ = 1.0f;
  // One tile (tile=0) is a tiled mesh of one tile: the same code reads either back.
  const int tile_bits = ilog2(next_pow2(unsigned(ntx_ * ntz_)));
  if (tile_bits > 14) throw std::invalid_argument("recast: too many tiles for Detour's 32-bit polygon ids (use a larger tile)");
  dtNavMeshParams np{};
  np.orig[0] = orig_[0], np.orig[1] = orig_[1], np.orig[2] = orig_[2];
  np.tileWidth = float((cfg.tile > 0 ? cfg.tile : vx_) * cfg.cs);
  np.tileHeight = float((cfg.tile > 0 ? cfg.tile : vz_) * cfg.cs);
  np.maxTiles = 1 << tile_bits;
  np.maxPolys = 1 << (22 - tile_bits);
  if (dtStatusFailed(nav->init(&np))) throw std::invalid_argument("recast: dtNavMesh::init failed");
  tile_bytes_.assign(std::size_t(ntx_ * ntz_), 0);
  tile_warnings_.assign(std::size_t(ntx_ * ntz_), 0);
  tile_walkable_.assign(std::size_t(ntx_ * ntz_), 0);
  tile_regioned_.assign(std::size_t(ntx_ * ntz_), 0);
  std::unique_ptr<FreeSpace> fs;
  const AreaAt area_at = area_function(map, areas_, fs);
  for (int tz = 0; tz < ntz_; ++tz)
    for (int tx = 0; tx < ntx_; ++tx) place_tile(area_at, tx, tz);
  extract();
}

void DetourMesh::place_tile(const AreaAt& area_at, int tx, int tz) {
  dtNavMesh& nav = *nav_;
  const int slot = tz * ntx_ + tx;
  // The tile's ids: slot and salt 1, as a fresh build hands them out, so an update gives a tile the
  // polygon ids a fresh build would (Detour's addTile with lastRef restores a slot and salt).
  const dtTileRef ref = nav.encodePolyId(1, unsigned(slot), 0);
  if (const dtMeshTile* old = nav.getTileAt(tx, tz, 0)) {
    if (dtStatusFailed(nav.removeTile(nav.getTileRef(old), nullptr, nullptr)))
      throw std::invalid_argument("recast: dtNavMesh::removeTile failed");
  }
  CountingContext ctx;
  TileData t = build_tile(ctx, cfg_, area_at, orig_, tx, tz, cfg_.tile > 0 ? cfg_.tile : vx_, cfg_.tile > 0 ? cfg_.tile : vz_);
  tile_warnings_[std::size_t(slot)] = ctx.warnings;
  tile_walkable_[std::size_t(slot)] = t.walkable;
  tile_regioned_[std::size_t(slot)] = t.regioned;
  tile_bytes_[std::size_t(slot)] = 0;
  if (!t.data) return;  // nothing walkable Recast keeps here (regions under min_region are dropped)
  if (dtStatusFailed(nav.addTile(t.data, t.size, DT_TILE_FREE_DATA, ref, nullptr))) {
    dtFree(t.data);
    throw std::invalid_argument("recast: dtNavMesh::addTile failed (too many polygons in a tile: use a smaller tile)");
  }
  tile_bytes_[std::size_t(slot)] = t.size;
}

int DetourMesh::update(const Map& map, const std::vector<CellChange>& changed) {
  if (map.kind != MapKind::grid || map.grid.width != map_w_ || map.grid.height != map_h_) return -1;
  // A tile reads the voxels of its square and of a border around it; a voxel reads the cell under
  // its centre. The tiles whose bordered square holds a voxel centre in a changed cell are rebuilt.
  const int size_x = cfg_.tile > 0 ? cfg_.tile : vx_, size_z = cfg_.tile > 0 ? cfg_.tile : vz_;
  const int border = cfg_.tile > 0 ? cfg_.radius_voxels() + 3 : 0;
  std::vector<std::uint8_t> touched(std::size_t(ntx_ * ntz_), 0);
  // The voxels i with centre cs (i + 0.5) in [lo, hi), one more each way against rounding.
  auto voxels = [&](double lo, double hi, int n) {
    const int a = std::max(0, int(std::ceil(lo / cfg_.cs - 0.5)) - 1);
    const int b = std::min(n - 1, int(std::ceil(hi / cfg_.cs - 0.5)));
    return std::pair{a, b};
  };
  for (const CellChange& c : changed) {
    const auto [i0, i1] = voxels(c.x + map.min.x - orig_[0], c.x + 1 + map.min.x - orig_[0], vx_);
    const auto [j0, j1] = voxels(c.y + map.min.y - orig_[2], c.y + 1 + map.min.y - orig_[2], vz_);
    if (i0 > i1 || j0 > j1) continue;
    const int tx0 = std::max(0, (i0 - border) / size_x), tx1 = std::min(ntx_ - 1, (i1 + border) / size_x);
    const int tz0 = std::max(0, (j0 - border) / size_z), tz1 = std::min(ntz_ - 1, (j1 + border) / size_z);
    for (int tz = tz0; tz <= tz1; ++tz)
      for (int tx = tx0; tx <= tx1; ++tx) touched[std::size_t(tz * ntx_ + tx)] = 1;
  }
  std::unique_ptr<FreeSpace> fs;
  const AreaAt area_at = area_function(map, areas_, fs);
  int rebuilt = 0;
  for (int tz = 0; tz < ntz_; ++tz)
    for (int tx = 0; tx < ntx_; ++tx)
      if (touched[std::size_t(tz * ntx_ + tx)]) place_tile(area_at, tx, tz), ++rebuilt;
  polys_.clear(), portals_.clear(), poly_area_.clear();
  extract();
  rebuilt_ = rebuilt;
  return rebuilt;
}

std::size_t DetourMesh::data_bytes() const {
  std::size_t n = 0;
  for (int b : tile_bytes_) n += std::size_t(b);
  return n;
}
int DetourMesh::warnings() const {
  int n = 0;
  for (int w : tile_warnings_) n += w;
  return n;
}
std::size_t DetourMesh::walkable_voxels() const {
  std::size_t n = 0;
  for (std::size_t v : tile_walkable_) n += v;
  return n;
}
std::size_t DetourMesh::region_voxels() const {
  std::size_t n = 0;
  for (std::size_t v : tile_regioned_) n += v;
  return n;
}
std::string DetourMesh::unreached_note() const {
  const std::size_t w = walkable_voxels(), r = region_voxels();
  if (r == w) return "";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f %%", w ? 100.0 * double(r) / double(w) : 0.0);
  return "Recast's regions hold " + std::to_string(r) + " of " + std::to_string(w) + " walkable voxels, " + pct;
}
int DetourMesh::tiles() const {
  int n = 0;
  for (int b : tile_bytes_) n += b > 0;
  return n;
}

DetourMesh::~DetourMesh() = default;
DetourMesh::DetourMesh(DetourMesh&&) noexcept = default;
DetourMesh& DetourMesh::operator=(DetourMesh&&) noexcept = default;

std::int32_t DetourMesh::polygon_of(std::uint32_t ref) const {
  unsigned int salt = 0, it = 0, ip = 0;
  nav_->decodePolyId(ref, salt, it, ip);
  if (it >= tile_base_.size() || tile_base_[it] == ~0u) return -1;
  const std::uint32_t idx = tile_base_[it] + ip;
  return idx < polys_.size() && polys_[idx].ref == ref ? std::int32_t(idx) : -1;
}

// The polygons and their portals in map coordinates, read back from the dtNavMesh's tiles and links
// (so a portal across a tile border is the shared part of the two edges, as Detour's
// getPortalPoints gives it).
void DetourMesh::extract() {
  const dtNavMesh& nav = *nav_;
  tile_base_.assign(std::size_t(nav.getMaxTiles()), ~0u);
  std::vector<bool> flipped;
  for (int t = 0; t < nav.getMaxTiles(); ++t) {
    const dtMeshTile* tile = nav.getTile(t);
    if (!tile || !tile->header) continue;
    tile_base_[std::size_t(t)] = std::uint32_t(polys_.size());
    const dtPolyRef base = nav.getPolyRefBase(tile);
    for (int i = 0; i < tile->header->polyCount; ++i) {
      const dtPoly& p = tile->polys[i];
      DetourPolygon out;
      out.ref = base | dtPolyRef(i);
      poly_area_.push_back(p.getArea());
      for (int k = 0; k < p.vertCount; ++k) {
        const float* v = &tile->verts[p.verts[k] * 3];
        out.corners.push_back({double(v[0]), double(v[2])});
      }
      // Detour's polygons wind one way in (x, z); navbench's cells are counter-clockwise in (x, y).
      const bool flip = signed_area(out.corners) < 0;
      if (flip) std::reverse(out.corners.begin(), out.corners.end());
      flipped.push_back(flip);
      polys_.push_back(std::move(out));
    }
  }
  for (int t = 0; t < nav.getMaxTiles(); ++t) {
    const dtMeshTile* tile = nav.getTile(t);
    if (!tile || !tile->header) continue;
    for (int i = 0; i < tile->header->polyCount; ++i) {
      const dtPoly& p = tile->polys[i];
      const std::uint32_t from = tile_base_[std::size_t(t)] + std::uint32_t(i);
      const std::size_t first = portals_.size();
      for (unsigned int k = p.firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
        const dtLink& link = tile->links[k];
        const std::int32_t to = polygon_of(link.ref);
        if (to < 0 || std::uint32_t(to) <= from) continue;  // each portal once, from its lower polygon
        const float* a = &tile->verts[p.verts[link.edge] * 3];
        const float* b = &tile->verts[p.verts[(link.edge + 1) % p.vertCount] * 3];
        Point pa{double(a[0]), double(a[2])}, pb{double(b[0]), double(b[2])};
        if (link.side != 0xff && (link.bmin != 0 || link.bmax != 255)) {  // part of a tile border edge
          const double s = 1.0 / 255.0, t0 = link.bmin * s, t1 = link.bmax * s;
          const Point qa{pa.x + (pb.x - pa.x) * t0, pa.y + (pb.y - pa.y) * t0};
          const Point qb{pa.x + (pb.x - pa.x) * t1, pa.y + (pb.y - pa.y) * t1};
          pa = qa, pb = qb;
        }
        // Edge a -> b runs along the polygon's (x, z) winding; counter-clockwise in (x, y) the
        // edge's start is on the right of someone leaving the polygon through it.
        DetourPortal portal{from, std::uint32_t(to), pa, pb};
        if (flipped[from]) std::swap(portal.right, portal.left);
        portals_.push_back(portal);
      }
      // Detour lists a polygon's links newest first, and a tile rebuilt in place (update()) links to
      // its neighbours in another order than a fresh build: sorted, the portals do not depend on it.
      std::sort(portals_.begin() + std::ptrdiff_t(first), portals_.end(), [](const DetourPortal& a, const DetourPortal& b) {
        return std::tie(a.to, a.right.x, a.right.y, a.left.x, a.left.y) < std::tie(b.to, b.right.x, b.right.y, b.left.x, b.left.y);
      });
    }
  }
}

}  // namespace navbench
