// cubex/voxel/sets.hpp - named piece sets and named containers, defined in data.
//
// Each set is one file puzzles/sets/NAME.json (docs/library-puzzles.md): its pieces with their
// standard names, a comment and a note of its source. The files are compiled into the library
// (a generated header), so a voxel JSON file may say {"set": "pentominoes"} in its piece list on
// any installation without a data path. puzzles/sets/containers.json holds the named containers
// ("container": "8x8-centre-hole").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace cubex::voxel {

struct PieceSet {
  std::string name;       // "pentominoes": lower-case words joined by hyphens
  std::string comment;    // what the set is
  std::string source;     // where its pieces and names come from
  bool flat = false;      // every piece is one cell thick (polyominoes)
  bool turn_over = true;  // false: one-sided pieces, each read with "turn_over": false
  nlohmann::json pieces;  // the pieces, in the voxel JSON piece syntax
};

// Every named set, sorted by name.
const std::vector<PieceSet>& piece_sets();
// The set called `name`, or nullptr.
const PieceSet* find_piece_set(std::string_view name);

struct NamedContainer {
  std::string name;          // "8x8-centre-hole"
  std::string comment;       // what it is and where it comes from
  nlohmann::json container;  // a container object of the voxel JSON format
};
// Every named container, sorted by name.
const std::vector<NamedContainer>& named_containers();
const NamedContainer* find_named_container(std::string_view name);

// "a, b or c" of the names, for messages.
std::string piece_set_names();
std::string named_container_names();

}  // namespace cubex::voxel
