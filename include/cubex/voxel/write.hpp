// cubex/voxel/write.hpp - a voxel model as the project's JSON (`cubex convert X OUT.json`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cubex/voxel/model.hpp"

namespace cubex::voxel {

// The model in the JSON format of voxel/read.hpp; model_from_json() of it gives the same model.
// The container is written as "box" when it is a full box from (0,0,0) without optional cells or
// colours, else as "cells" (and "optional"). Ranges are "count": [min, max]; colours, colour
// rules and the holes limit use the keys "colours", "colour_pairs" and "max_holes".
nlohmann::json to_json(const Model& model);
// to_json() as text for people: keys in the order of the format's description, every cell
// [x, y, z] and every short list of numbers on one line.
std::string to_json_text(const Model& model);

}  // namespace cubex::voxel
