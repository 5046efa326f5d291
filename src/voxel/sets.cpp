// Named piece sets and containers (cubex/voxel/sets.hpp), parsed once from the compiled-in
// puzzles/sets/*.json.
#include "cubex/voxel/sets.hpp"

#include <algorithm>
#include <stdexcept>

#include "piece_sets_data.hpp"

namespace cubex::voxel {
namespace {

struct Tables {
  std::vector<PieceSet> sets;
  std::vector<NamedContainer> containers;
};

// The compiled-in files are checked by tests/test_piece_sets.cpp; a mistake in them is a bug
// in cubex, reported as an internal error naming the file.
Tables parse_tables() {
  Tables t;
  for (const generated::SetFile& f : generated::kSetFiles) {
    const std::string where = "puzzles/sets/" + std::string(f.stem) + ".json";
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(f.text);
    } catch (const nlohmann::json::exception& e) {
      throw std::logic_error(where + ": " + e.what());
    }
    if (doc.contains("containers")) {
      for (const auto& [name, c] : doc["containers"].items()) {
        t.containers.push_back({name, c.value("comment", ""), c.at("container")});
      }
      continue;
    }
    PieceSet s;
    s.name = doc.at("set").get<std::string>();
    if (s.name != f.stem) throw std::logic_error(where + ": \"set\" differs from the file name");
    s.comment = doc.value("comment", "");
    s.source = doc.value("source", "");
    s.flat = doc.value("flat", false);
    s.turn_over = doc.value("turn_over", true);
    s.pieces = doc.at("pieces");
    t.sets.push_back(std::move(s));
  }
  std::sort(t.sets.begin(), t.sets.end(),
            [](const PieceSet& a, const PieceSet& b) { return a.name < b.name; });
  std::sort(t.containers.begin(), t.containers.end(),
            [](const NamedContainer& a, const NamedContainer& b) { return a.name < b.name; });
  return t;
}

const Tables& tables() {
  static const Tables t = parse_tables();  // immutable once built (thread-safe initialisation)
  return t;
}

template <class T>
std::string name_list(const std::vector<T>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += i + 1 == v.size() ? " or " : ", ";
    out += "\"" + v[i].name + "\"";
  }
  return out;
}

}  // namespace

const std::vector<PieceSet>& piece_sets() {
  return tables().sets;
}

const PieceSet* find_piece_set(std::string_view name) {
  for (const PieceSet& s : piece_sets())
    if (s.name == name) return &s;
  return nullptr;
}

const std::vector<NamedContainer>& named_containers() {
  return tables().containers;
}

const NamedContainer* find_named_container(std::string_view name) {
  for (const NamedContainer& c : named_containers())
    if (c.name == name) return &c;
  return nullptr;
}

std::string piece_set_names() {
  return name_list(piece_sets());
}
std::string named_container_names() {
  return name_list(named_containers());
}

}  // namespace cubex::voxel
