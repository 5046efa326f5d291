// Shared helpers for the voxel tests.
#pragma once

#include <string>

#include "cubex/core/solver.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"

namespace vxtest {

inline std::string shipped(const std::string& file) {
  return std::string(CUBEX_SOURCE_DIR) + "/puzzles/voxel/" + file;
}

// A model from JSON text, canonical (throws InputError like the file reader).
inline cubex::voxel::Model model(const std::string& json_text) {
  return cubex::voxel::model_from_json(nlohmann::json::parse(json_text), "test.json");
}

inline std::uint64_t count(const cubex::voxel::Model& m) {
  cubex::voxel::Compiled c = cubex::voxel::compile(m);
  cubex::Solver solver(c.problem);
  return solver.count().solutions;
}

}  // namespace vxtest
