// cubex/voxel/read.hpp - reading voxel puzzles: the JSON format and the wooden-cube text format.
//
// JSON (`.json`, see docs/formats.md, "Voxel puzzles"):
//   {"name": ..., "kind": "voxel", "comment": ...,
//    "container": {"box": [x,y,z]} | {"cells": [[x,y,z],...], "optional": [...]} | {"layers":
//    [...]}, "pieces": [{"name": ..., "cells": [...] | "layers": [...], "count": n}, ...],
//    "mirror": false}
// Text (`.txt`): one piece per line as a flat list `x y z x y z ...`; `#` starts a comment; the
// container is the bounding box of all the cells; congruent lines are one piece with a count.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "cubex/puzzle.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex::voxel {

// Builds a canonical model from a parsed JSON document; `file` names it in errors. Throws
// InputError with the JSON path of the mistake.
Model model_from_json(const nlohmann::json& doc, const std::string& file);
// Parses the text format. Throws InputError with line and column.
Model model_from_txt(std::string_view text, const std::string& file);

// A Puzzle for the CLI over a model: merges congruent pieces (merge_congruent, reported in
// notes() with warnings()), compiles it, and reports in infeasible() why it cannot have a
// solution. Throws InputError (naming `file`) when the model cannot be compiled.
// `json_paths`: name the place of a model error by its JSON path (off for the text format).
std::unique_ptr<Puzzle> make_puzzle(Model model, const std::string& file, bool json_paths = true,
                                    const Limits& limits = {});

// Reads a `.json` voxel puzzle from a parsed document, or a `.txt` file.
std::unique_ptr<Puzzle> load_json(const nlohmann::json& doc, const std::string& file,
                                  const Limits& limits = {});
std::unique_ptr<Puzzle> load_txt(const std::string& path, const Limits& limits = {});

}  // namespace cubex::voxel
