// cubex/happycube/reader.hpp - the two Happy Cube input forms.
//
// `.hcq` (the seed files): header lines NAME:, TYPE: HC_BQ_INSTANCE, COMMENT:, NUM_TILES:, then
// TILE_ID_BORDER_PATTERN, one line per tile `id [b, b, b, b, b; b, ...]` and EOF. The 4N bits are
// the four N-bit edges clockwise from the top-left corner (top left to right, right top to bottom,
// bottom right to left, left bottom to top); each corner appears twice and both must agree.
//
// JSON: {"kind": "happy-cube", "size": 5, "pieces": [{"name": "1", "rows": ["..#..", ...],
// "count": 1, "flip": true}], "flip": true, "structure": [[0,0,0],[1,0,0]],
// "sets": [{"name": "blue", "pieces": [...]}]}. Rows are drawn top row first, '#' filled and '.'
// empty. Pieces of a set are named "set/name".
//
// Any number of plates is read (NUM_TILES at least 1): more plates than faces are spare plates,
// fewer leave the puzzle without a solution (Model::infeasible says so).
//
// Both throw InputError naming the line and column, or the JSON path, of the first problem.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "cubex/happycube/model.hpp"

namespace cubex::happycube {

// Parses `.hcq` text; `file` is used in error messages and as the name when NAME: is missing.
Spec parse_hcq(std::string_view text, const std::string& file);
Spec read_hcq(const std::string& path, const Limits& limits = {});

// Reads the JSON form (a parsed document whose "kind" is "happy-cube").
Spec parse_json(const nlohmann::json& doc, const std::string& file);

// The `.hcq` text of a single-cube Spec whose pieces all have count 1 (for tools and tests).
std::string to_hcq(const Spec& spec);
// The JSON form of a Spec (rows drawn with '#' and '.').
nlohmann::json to_json(const Spec& spec);

}  // namespace cubex::happycube
