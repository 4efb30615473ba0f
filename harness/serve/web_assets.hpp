// The viewer's page files (harness/serve/web/), embedded into the binary by harness/serve/web/embed.cmake.
#pragma once
#include <cstddef>

namespace navbench::web {

struct Asset {
  const char* path;  // URL path, e.g. "/app.js"
  const char* mime;
  const unsigned char* data;
  std::size_t size;
};
extern const Asset kAssets[];
extern const std::size_t kAssetCount;

}  // namespace navbench::web
