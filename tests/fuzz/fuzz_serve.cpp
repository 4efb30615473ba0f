// libFuzzer target: the viewer's requests (harness/serve/), through the handlers the server calls
// (api_routes, after refused_before_routing). The input's first byte picks the route; up to the
// first newline is the query string (parsed as cpp-httplib parses a request's), the rest the body.
// Each input gets a fresh server state over two bundled maps (a grid, id 0, and a polygon map, id
// 1), so that one input's edits never decide another's answer. The contract (docs/viewer.md): a
// 200 with its content (JSON, structure bytes of 16 per segment, or a cost layer that reads
// back), or a 4xx or 503 whose body is {"error": one line}; never a 500, an exception or a crash.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>

#include <httplib.h>

#include "datasets/terrain.hpp"
#include "harness/serve/viewer.hpp"
#include "tests/fuzz/contract.hpp"

using namespace navbench;
using fuzz::require;
using viewer::json;

namespace {

const std::vector<std::string> kMaps = {std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps/hand/pinch.map",
                                        std::string(NAVBENCH_SOURCE_DIR) + "/datasets/maps/hand/polygons.wkt"};

void check_answer(const viewer::ApiRoute& route, const httplib::Response& res, viewer::MapCache& maps, const httplib::Request& req) {
  const std::string type = res.get_header_value("Content-Type");
  if (res.status == 200) {
    if (type == "application/json") {
      require(json::accept(res.body), "a 200's JSON parses");
    } else if (type == "application/octet-stream") {
      require(res.body.size() % 16 == 0 && res.get_header_value("X-Segments") == std::to_string(res.body.size() / 16),
              "a structure is 16 bytes per segment");
    } else {
      const Map& m = maps.find(req.get_param_value("map")).pm.map;
      std::istringstream in(res.body);
      require(read_cost_layer(in, "costs", m.grid.width, m.grid.height).size() == m.grid.cells.size(), "GET /api/costs reads back");
    }
    return;
  }
  require(res.status != 500, "no internal error");
  require(res.status >= 400 && res.status <= 503, "a refusal is a 4xx or 503");
  require(type == "application/json", "a refusal is JSON");
  const json j = json::parse(res.body);
  require(j.is_object() && j.size() == 1 && j.contains("error") && j["error"].is_string(), "a refusal is {\"error\": text}");
  const std::string e = j["error"].get<std::string>();
  require(!e.empty() && e.find('\n') == std::string::npos, "its message is one line");
  (void)route;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("NAVBENCH_SERVE_WAIT_MS", "200", 1);  // builds at a radius: answer "still building" soon
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& routes = viewer::api_routes();
  const viewer::ApiRoute& route = routes[data[0] % routes.size()];
  const std::string rest = fuzz::text(data + 1, size - 1);
  const std::size_t nl = rest.find('\n');
  httplib::Request req;
  req.method = route.method;
  req.path = route.path;
  req.set_header("Host", "127.0.0.1:8080");
  if (nl != std::string::npos) req.body = rest.substr(nl + 1);
  req.set_header("Content-Length", std::to_string(req.body.size()));
  httplib::detail::parse_query_text(rest.substr(0, nl), req.params);
  viewer::MapCache maps(kMaps, 2);
  httplib::Response res;
  if (!viewer::refused_before_routing(req, res, true)) route.handle(maps, req, res);
  if (res.status == -1) res.status = 200;  // as cpp-httplib's server does after a handler that set none
  check_answer(route, res, maps, req);
  return 0;
}
