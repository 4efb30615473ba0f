// The fields of a JSON request, each checked before any work with a one-line message (HttpError
// 400; a bad representation, smoothing or heuristic throws std::invalid_argument from the same
// parsers `navbench run` uses, also a 400).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "harness/serve/viewer.hpp"

namespace navbench::viewer {

void only_fields(const json& body, const std::vector<std::string>& known) {
  if (!body.is_object()) throw HttpError(400, "the request must be a JSON object");
  for (auto it = body.begin(); it != body.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw HttpError(400, "unknown field '" + it.key() + "' (" + list + ")");
    }
}

MapEntry& map_of(MapCache& maps, const json& body) {
  if (!body.contains("map") || !(body["map"].is_number_integer() || body["map"].is_string()))
    throw HttpError(400, "missing 'map': the map's id from /api/info");
  return maps.find(body["map"].is_string() ? body["map"].get<std::string>() : std::to_string(body["map"].get<long long>()));
}

Point read_point(const json& body, const char* key, const Map& m) {
  auto it = body.find(key);
  if (it == body.end()) throw HttpError(400, std::string("missing '") + key + "': [x, y]");
  const json& v = *it;
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    throw HttpError(400, std::string("'") + key + "' must be [x, y] (two numbers)");
  const Point p{v[0].get<double>(), v[1].get<double>()};
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < m.min.x || p.y < m.min.y || p.x > m.max.x || p.y > m.max.y) {
    std::ostringstream s;
    s << key << " (" << p.x << ", " << p.y << ") is outside the map [" << m.min.x << ", " << m.max.x << "] x ["
      << m.min.y << ", " << m.max.y << "]";
    throw HttpError(400, s.str());
  }
  return p;
}

const GridMap& editable_grid(const MapEntry& e) {
  if (e.pm.map.kind != MapKind::grid)
    throw HttpError(400, "map " + e.pm.map.name + " is a polygon map: only grid maps have cells to toggle");
  return e.pm.map.grid;
}

namespace {

// "reps": each a spec as `--rep` takes it, checked by the same parser.
std::vector<RepresentationSpec> read_reps(const json& body) {
  if (!body.contains("reps") || !body["reps"].is_array() || body["reps"].empty())
    throw HttpError(400, "'reps' must be a non-empty array of representation names");
  if (body["reps"].size() > kMaxReps) throw HttpError(400, "at most " + std::to_string(kMaxReps) + " representations per query");
  std::vector<RepresentationSpec> specs;
  for (const auto& r : body["reps"]) {
    if (!r.is_string() || r.get<std::string>().empty() || r.get<std::string>().size() > kMaxSpecChars)
      throw HttpError(400, "each of 'reps' must be a representation name (at most " + std::to_string(kMaxSpecChars) + " characters)");
    for (auto& s : request_reps(r.get<std::string>())) specs.push_back(s);  // invalid_argument -> 400
  }
  if (specs.size() > kMaxReps) throw HttpError(400, "at most " + std::to_string(kMaxReps) + " representations per query");
  return specs;
}

// "smoothing": a name, a comma list or an array of up to three names.
std::vector<std::string> read_smoothings(const json& body) {
  if (!body.contains("smoothing")) return {"none"};
  const json& s = body["smoothing"];
  std::string list;
  if (s.is_string()) list = s.get<std::string>();
  else if (s.is_array() && !s.empty() && s.size() <= 3 && std::all_of(s.begin(), s.end(), [](const json& x) { return x.is_string(); }))
    for (const auto& x : s) list += (list.empty() ? "" : ",") + x.get<std::string>();
  else throw HttpError(400, "'smoothing' must be a name or a list of names (none, los, funnel)");
  return parse_smoothing_list(list);
}

Heuristic read_heuristic(const json& body) {
  if (!body.contains("heuristic")) return parse_heuristic("euclidean");
  if (!body["heuristic"].is_string() || body["heuristic"].get<std::string>().size() > 64)
    throw HttpError(400, "'heuristic' must be a name such as \"euclidean\" or \"octile*1.5\"");
  return parse_heuristic(body["heuristic"].get<std::string>());
}

// "search": astar (default), theta or lazy-theta (docs/path-quality.md).
SearchMode read_search(const json& body) {
  if (!body.contains("search")) return SearchMode::astar;
  const json& s = body["search"];
  if (!s.is_string() || s.get<std::string>().find(',') != std::string::npos || s.get<std::string>().size() > 16)
    throw HttpError(400, "'search' must be astar, theta or lazy-theta");
  return parse_search_list(s.get<std::string>()).front();  // an unknown name: invalid_argument -> 400
}

bool read_paths(const json& body) {
  if (!body.contains("paths")) return true;
  if (!body["paths"].is_boolean()) throw HttpError(400, "'paths' must be true or false");
  return body["paths"].get<bool>();
}

std::vector<RepresentationSpec>& outside_list() {
  static std::vector<RepresentationSpec> specs;
  return specs;
}

}  // namespace

void set_outside_planners(std::vector<RepresentationSpec> specs) { outside_list() = std::move(specs); }
const std::vector<RepresentationSpec>& outside_planners() { return outside_list(); }

std::vector<RepresentationSpec> request_reps(const std::string& text) {
  if (!names_outside_planner(text)) return parse_rep_option(text);
  for (const RepresentationSpec& s : outside_list())
    if (s.text == text) return {s};
  std::string names;
  for (const RepresentationSpec& s : outside_list()) names += (names.empty() ? "" : ", ") + s.text;
  throw HttpError(400, "'" + text + "': a planner from outside is named on navbench serve's command line (--rep gppc:path=...)" +
                           (names.empty() ? std::string(" and this server has none") : "; this server has " + names));
}

Agent read_radius(const json& body, const Map& m) {
  if (!body.contains("radius")) return Agent{};
  const json& r = body["radius"];
  const double most = std::max(m.max.x - m.min.x, m.max.y - m.min.y);
  if (!r.is_number() || !std::isfinite(r.get<double>()) || r.get<double>() < 0 || r.get<double>() > most) {
    std::ostringstream s;
    s << "'radius' must be a number from 0 to " << most << " (the agent's radius in map units)";
    throw HttpError(400, s.str());
  }
  return Agent::with_radius(r.get<double>());
}

QueryRequest read_query(const json& body, const Map& m) {
  QueryRequest q;
  q.specs = read_reps(body);
  q.smoothings = read_smoothings(body);
  q.heuristic = read_heuristic(body);
  q.search = read_search(body);
  q.paths = read_paths(body);
  // "trace": true adds each representation's search, step by step (docs/traces.md#in-navbenchs-viewer).
  if (body.contains("trace") && !body["trace"].is_boolean()) throw HttpError(400, "'trace' must be true or false");
  q.trace = body.value("trace", false);
  q.agent = read_radius(body, m);
  q.start = read_point(body, "start", m);
  q.goal = read_point(body, "goal", m);
  return q;
}

}  // namespace navbench::viewer
