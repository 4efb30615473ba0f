// The routes of `navbench serve`: the page's files, the JSON API, and an answer for every failure
// ({"error": "one line"} with a 4xx or 5xx, never a crash, never a hang).
#include <httplib.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "harness/run/metadata.hpp"
#include "harness/serve/viewer.hpp"
#include "harness/serve/web_assets.hpp"

namespace navbench::viewer {

namespace {

constexpr const char* kJson = "application/json";

// The message as valid UTF-8 (base::printable): json::dump throws on anything else.
std::string error_body(const std::string& message) { return json{{"error", base::printable(message)}}.dump(); }

// Runs `f` and turns every failure into a JSON error answer.
template <class F>
void guarded(httplib::Response& res, F&& f) {
  try {
    f();
  } catch (const HttpError& e) {
    res.status = e.status;
    res.set_content(error_body(e.what()), kJson);
  } catch (const json::exception& e) {
    res.status = 400;
    res.set_content(error_body(std::string("bad JSON value: ") + e.what()), kJson);
  } catch (const std::invalid_argument& e) {  // unknown representation, smoothing, heuristic, parameter
    res.status = 400;
    res.set_content(error_body(e.what()), kJson);
  } catch (const base::InputError& e) {
    res.status = 400;
    res.set_content(error_body(e.what()), kJson);
  } catch (const std::bad_alloc&) {
    res.status = 503;
    res.set_content(error_body("out of memory"), kJson);
  } catch (const std::exception& e) {
    res.status = 500;
    res.set_content(error_body(std::string("internal error: ") + e.what()), kJson);
  }
}

const char* reason(int status) {
  switch (status) {
    case 400: return "bad request";
    case 404: return "no such page";
    case 405: return "method not allowed";
    case 413: return "request body too large";
    case 414: return "request URI too long";
    default: return "request failed";
  }
}

// Bound to a loopback address, the server answers only requests whose Host header names this
// machine: a web page elsewhere cannot reach it through DNS rebinding (its Host is its own name).
bool host_allowed(const std::string& host_header) {
  std::string h = host_header;
  if (h.starts_with("[")) h = h.substr(0, h.find(']') + 1);  // [::1]:port
  else h = h.substr(0, h.find(':'));
  return h == "127.0.0.1" || h == "localhost" || h == "[::1]";
}

json parse_body(const httplib::Request& req) {
  try {
    return json::parse(req.body);
  } catch (const json::parse_error& e) {
    throw HttpError(400, std::string("malformed JSON: ") + e.what());
  }
}

// The Host check (on loopback) and JSON messages for the answers the library makes itself.
// The body a route takes: a cost layer for POST /api/terrain, kMaxBody elsewhere.
std::size_t body_limit(const std::string& path) { return path == "/api/terrain" ? kMaxCostsBody : kMaxBody; }

void install_guards(httplib::Server& svr, bool loopback) {
  // Before the body is read (the library's own limit is kMaxCostsBody, the largest): a Content-Length
  // over the route's limit is refused at once.
  svr.set_pre_routing_handler([loopback](const httplib::Request& req, httplib::Response& res) {
    return refused_before_routing(req, res, loopback) ? httplib::Server::HandlerResponse::Handled
                                                      : httplib::Server::HandlerResponse::Unhandled;
  });
  // 4xx answers the library makes itself (413, 404, ...) get a JSON message too.
  svr.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    std::string msg = reason(res.status);
    if (res.status == 413) msg += " (at most " + std::to_string(body_limit(req.path)) + " bytes)";
    if (res.status == 404) msg += ": " + req.path;
    res.set_content(error_body(msg), kJson);
    return httplib::Server::HandlerResponse::Handled;
  }));
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(error_body("internal error"), kJson);
  });
}

// The page's files (web/, embedded at build time); index.html is served as "/".
void install_page(httplib::Server& svr) {
  for (std::size_t i = 0; i < web::kAssetCount; ++i) {
    const web::Asset& a = web::kAssets[i];
    const std::string path = std::string(a.path) == "/index.html" ? "/" : a.path;
    svr.Get(path, [a](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-cache");
      res.set_content(reinterpret_cast<const char*>(a.data), a.size, a.mime);
    });
  }
}

// A POST route's answer, `answer(maps, body)` as JSON.
void post_json(MapCache& maps, const httplib::Request& req, httplib::Response& res, const char* path,
               json (*answer)(MapCache&, const json&)) {
  guarded(res, [&] {
    if (req.body.size() > body_limit(path))  // a body sent without Content-Length (chunked)
      throw HttpError(413, "request body too large (at most " + std::to_string(body_limit(path)) + " bytes)");
    res.set_content(json_text(answer(maps, parse_body(req))), kJson);
  });
}

using Req = const httplib::Request&;
using Res = httplib::Response&;

const std::vector<ApiRoute> kApiRoutes = {
    {"GET", "/api/info", [](MapCache& maps, Req, Res res) { guarded(res, [&] { res.set_content(json_text(api_info(maps)), kJson); }); }},
    {"GET", "/api/map",
     [](MapCache& maps, Req req, Res res) {
       guarded(res, [&] { res.set_content(json_text(api_map(maps, maps.find(req.get_param_value("map")))), kJson); });
     }},
    // GET /api/structure?map=ID&rep=SPEC[&radius=R]: the representation's structure (`navbench
    // structure`; at R > 0 its build for that radius) as little-endian float32 x1 y1 x2 y2 per segment.
    {"GET", "/api/structure",
     [](MapCache& maps, Req req, Res res) {
       guarded(res, [&] {
         MapEntry& e = maps.find(req.get_param_value("map"));
         Structure s = api_structure(maps, e, req.get_param_value("rep"), req.get_param_value("radius"));
         res.set_header("X-Segments", std::to_string(s.segments));
         res.set_header("X-Map-Version", std::to_string(s.version));
         res.set_content(std::move(s.bytes), "application/octet-stream");
       });
     }},
    {"POST", "/api/query", [](MapCache& maps, Req req, Res res) { post_json(maps, req, res, "/api/query", api_query); }},
    // POST /api/cells {"map": ID, "cells": [[x, y], ...], "blocked": bool} and POST /api/reset {"map": ID}:
    // edit a grid map; every later query answers on the edited map.
    {"POST", "/api/cells", [](MapCache& maps, Req req, Res res) { post_json(maps, req, res, "/api/cells", api_cells); }},
    {"POST", "/api/reset", [](MapCache& maps, Req req, Res res) { post_json(maps, req, res, "/api/reset", api_reset); }},
    // Terrain costs (docs/viewer.md#terrain-costs): load a terrain table or a cost layer, paint weights,
    // and the map's weights as a cost layer file.
    {"POST", "/api/terrain", [](MapCache& maps, Req req, Res res) { post_json(maps, req, res, "/api/terrain", api_terrain); }},
    {"POST", "/api/paint", [](MapCache& maps, Req req, Res res) { post_json(maps, req, res, "/api/paint", api_paint); }},
    {"GET", "/api/costs",
     [](MapCache& maps, Req req, Res res) {
       guarded(res, [&] {
         MapEntry& e = maps.find(req.get_param_value("map"));
         res.set_header("Content-Disposition", "attachment; filename=\"" + e.pm.map.name + ".costs\"");
         res.set_content(api_costs(e), "text/plain; charset=utf-8");
       });
     }},
};

void install_api(httplib::Server& svr, MapCache& maps) {
  for (const ApiRoute& r : kApiRoutes) {
    auto handler = [&maps, handle = r.handle](const httplib::Request& req, httplib::Response& res) { handle(maps, req, res); };
    if (std::string(r.method) == "GET") svr.Get(r.path, handler);
    else svr.Post(r.path, handler);
  }
}

}  // namespace

bool refused_before_routing(const httplib::Request& req, httplib::Response& res, bool loopback) {
  if (loopback && !host_allowed(req.get_header_value("Host"))) {
    res.status = 403;
    res.set_content(error_body("Host '" + req.get_header_value("Host").substr(0, 100) + "' is not this machine (open http://127.0.0.1:PORT/)"),
                    kJson);
    return true;
  }
  const std::string len = req.get_header_value("Content-Length");
  const std::size_t limit = body_limit(req.path);
  if (!len.empty() && (len.size() > 12 || std::stoull("0" + len.substr(0, len.find_first_not_of("0123456789"))) > limit)) {
    res.status = 413;
    res.set_header("Connection", "close");
    res.set_content(error_body("request body too large (at most " + std::to_string(limit) + " bytes)"), kJson);
    return true;
  }
  return false;
}

const std::vector<ApiRoute>& api_routes() { return kApiRoutes; }

void install_routes(httplib::Server& svr, MapCache& maps, bool loopback) {
  install_guards(svr, loopback);
  install_page(svr);
  install_api(svr, maps);
}

}  // namespace navbench::viewer
