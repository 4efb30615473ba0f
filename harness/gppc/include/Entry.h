// The four functions of a competition entry (SPEC §10), as navbench's host calls them; one file for
// both tracks: the point type xyLoc comes from the track's GPPC.h (include/classic or
// include/anyangle), found on the include path after this folder.
#pragma once
#include <string>
#include <vector>

#include "GPPC.h"

typedef GPPC::xyLoc xyLoc;

// Runs in a process of its own before any search; may write files whose names start with filename.
void PreprocessMap(const std::vector<bool>& bits, int width, int height, const std::string& filename);
// Runs in the search process; returns the data GetPath receives.
void* PrepareForSearch(const std::vector<bool>& bits, int width, int height, const std::string& filename);
// Appends to path; false: not finished, call again with the same s, g and path.
bool GetPath(void* data, xyLoc s, xyLoc g, std::vector<xyLoc>& path);
std::string GetName();
