// cubex/voxel/assembly.hpp - a solution of a voxel puzzle as the input of the
// disassembler: its placed pieces in order, each with its kind (the model's piece), weight and
// disassembly groups.
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "cubex/puzzle/assembly.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex::disassembly {

// From decoded placements (voxel::decode): one piece per placement, in their order.
Input voxel_input(const voxel::Model& model, std::span<const voxel::PlacedPiece> placed);

// From the "placements" array of a solution's JSON (Puzzle::solution_json of a voxel puzzle):
// each entry's "cells", and its "piece" name looked up in the model (an unknown name is a kind of
// its own, weight 1, no groups). Throws std::invalid_argument when an entry has no cells.
Input voxel_input(const voxel::Model& model, const nlohmann::json& placements);

}  // namespace cubex::disassembly
