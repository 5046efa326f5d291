// The JSON voxel format: every mistake is reported with its JSON path.
#include <algorithm>
#include <map>

#include "cubex/error.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/sets.hpp"

namespace cubex::voxel {
namespace {

using nlohmann::json;

constexpr int kMaxCoord = 1000;      // coordinates lie in -1000..1000
constexpr long kMaxCells = 1000000;  // container cells, and the bounding box of a box container
constexpr int kMaxCount = 1000000;   // copies of a piece

std::string found(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case json::value_t::string:
      return "the string " + excerpt(j.dump(), 60);
    case json::value_t::array:
      return "an array of " + std::to_string(j.size());
    case json::value_t::object:
      return "an object";
    default:
      return "the number " + j.dump();
  }
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw InputError(file_, path, message);
  }

  // Rejects keys outside `allowed` (a blank-separated list).
  void keys(const json& obj, const std::string& path, const std::string& allowed) const {
    for (const auto& [key, value] : obj.items()) {
      if ((" " + allowed + " ").find(" " + key + " ") == std::string::npos) {
        std::string list = allowed;
        std::replace(list.begin(), list.end(), ' ', ',');
        fail(join(path, key),
             "expected one of the keys " + list + ", found unknown key \"" + excerpt(key) + "\"");
      }
    }
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string index(const std::string& path, std::size_t k) {
    return path + "[" + std::to_string(k) + "]";
  }

  int integer(const json& j, const std::string& path, long lo, long hi,
              const std::string& what) const {
    const std::optional<std::int64_t> v = json_int(j, lo, hi);
    if (!v) {
      fail(path, "expected " + what + " (an integer from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + "), found " + found(j));
    }
    return static_cast<int>(*v);
  }

  Vec3 point(const json& j, const std::string& path) const {
    if (!j.is_array() || j.size() != 3) fail(path, "expected a cell [x, y, z], found " + found(j));
    return {integer(j[0], index(path, 0), -kMaxCoord, kMaxCoord, "a coordinate"),
            integer(j[1], index(path, 1), -kMaxCoord, kMaxCoord, "a coordinate"),
            integer(j[2], index(path, 2), -kMaxCoord, kMaxCoord, "a coordinate")};
  }

  // A list of distinct cells; `seen` maps cells already read (by another list) to their path.
  std::vector<Vec3> cells(const json& j, const std::string& path, std::map<Vec3, std::string>& seen,
                          bool may_be_empty = false) const {
    if (!j.is_array() || (j.empty() && !may_be_empty))
      fail(path, "expected a non-empty array of cells, found " + found(j));
    if (j.size() > std::size_t(kMaxCells)) fail(path, "expected at most 1000000 cells");
    std::vector<Vec3> out;
    for (std::size_t k = 0; k < j.size(); ++k) {
      const Vec3 c = point(j[k], index(path, k));
      auto [it, fresh] = seen.emplace(c, index(path, k));
      if (!fresh)
        fail(index(path, k),
             "expected a new cell, found " + j[k].dump() + " again (as " + it->second + ")");
      out.push_back(c);
    }
    return out;
  }

  // layers[z][y] strings over x. `legend` lists the allowed characters; the cells of each kind
  // but '.' are returned, with the character.
  std::vector<std::pair<Vec3, char>> layers(const json& j, const std::string& path,
                                            const std::string& legend) const {
    if (!j.is_array() || j.empty())
      fail(path, "expected a non-empty array of layers, found " + found(j));
    std::vector<std::pair<Vec3, char>> out;
    for (std::size_t z = 0; z < j.size(); ++z) {
      const std::string lp = index(path, z);
      if (!j[z].is_array())
        fail(lp, "expected a layer (an array of row strings), found " + found(j[z]));
      for (std::size_t y = 0; y < j[z].size(); ++y) {
        const std::string rp = index(lp, y);
        if (!j[z][y].is_string()) fail(rp, "expected a row string, found " + found(j[z][y]));
        const std::string row = j[z][y].get<std::string>();
        if (z >= std::size_t(kMaxCoord) || y >= std::size_t(kMaxCoord) ||
            row.size() > std::size_t(kMaxCoord)) {
          fail(rp, "expected at most 1000 layers, rows and columns");
        }
        for (std::size_t x = 0; x < row.size(); ++x) {
          if (legend.find(row[x]) == std::string::npos) {
            std::string allowed;
            for (char ch : legend)
              allowed += (allowed.empty() ? "'" : ", '") + std::string(1, ch) + "'";
            fail(rp, "expected " + allowed + " at column " + std::to_string(x + 1) + ", found '" +
                         excerpt(row.substr(x, 1)) + "'");
          }
          if (row[x] != '.') out.push_back({Vec3{int(x), int(y), int(z)}, row[x]});
        }
      }
    }
    if (out.empty()) fail(path, "expected at least one cell, found none");
    return out;
  }

  // `path`: "container" (or "box" for the top-level shorthand). A string names a container of
  // puzzles/sets/containers.json.
  void container(const json& given, Model& m, const std::string& path = "container") const {
    const json* named = &given;
    if (given.is_string()) {
      const NamedContainer* c = find_named_container(given.get<std::string>());
      if (!c) {
        fail(path, "expected a container object or one of the named containers " +
                       named_container_names() + ", found " + found(given));
      }
      named = &c->container;
    }
    const json& j = *named;
    if (!j.is_object()) fail(path, "expected an object, found " + found(j));
    keys(j, path, "box cells optional layers colours holes");
    const int forms = int(j.contains("box")) + int(j.contains("cells")) + int(j.contains("layers"));
    if (forms != 1)
      fail(path, "expected exactly one of \"box\", \"cells\" and \"layers\", found " +
                     std::to_string(forms));
    if (j.contains("holes") && !j.contains("box"))
      fail(join(path, "holes"), "expected \"holes\" only beside \"box\"");
    if (j.contains("optional") && !j.contains("cells")) {
      fail(join(path, "optional"),
           "expected \"optional\" only beside \"cells\" (layers mark optional cells with '+')");
    }
    if (j.contains("box")) {
      const json& b = j["box"];
      const std::string bp = join(path, "box");
      if (!b.is_array() || (b.size() != 3 && b.size() != 2))
        fail(bp, "expected [x, y, z] or flat [x, y] sizes, found " + found(b));
      int n[3] = {1, 1, 1};
      for (std::size_t k = 0; k < b.size(); ++k)
        n[k] = integer(b[k], index(bp, k), 1, kMaxCoord, "a size");
      if (long(n[0]) * n[1] * n[2] > kMaxCells) fail(bp, "expected at most 1000000 cells");
      // "holes": cells of the box left out, [x, y] or [x, y, z] each.
      std::map<Vec3, std::string> holes;
      if (j.contains("holes")) {
        const json& h = j["holes"];
        const std::string hp = join(path, "holes");
        if (!h.is_array()) fail(hp, "expected an array of cells, found " + found(h));
        for (std::size_t k = 0; k < h.size(); ++k) {
          const std::string cp = index(hp, k);
          if (!h[k].is_array() || (h[k].size() != 2 && h[k].size() != 3))
            fail(cp, "expected a cell [x, y] or [x, y, z] of the box, found " + found(h[k]));
          int c[3] = {0, 0, 0};
          for (std::size_t i = 0; i < h[k].size(); ++i)
            c[i] = integer(h[k][i], index(cp, i), 0, n[i] - 1, "a coordinate inside the box");
          if (!holes.emplace(Vec3{c[0], c[1], c[2]}, cp).second)
            fail(cp, "expected a new cell, found " + h[k].dump() + " again");
        }
        if (holes.size() >= std::size_t(n[0]) * n[1] * n[2])
          fail(hp, "expected at least one cell of the box left");
      }
      // In the order canonicalize() keeps (x, then y, then z), so that it has nothing to sort.
      for (int x = 0; x < n[0]; ++x)
        for (int y = 0; y < n[1]; ++y)
          for (int z = 0; z < n[2]; ++z)
            if (!holes.count({x, y, z})) m.cells.push_back({x, y, z});
      m.optional.assign(m.cells.size(), 0);
    } else if (j.contains("cells")) {
      std::map<Vec3, std::string> seen;
      // Only optional cells: "cells": [] beside a non-empty "optional".
      m.cells = cells(j["cells"], join(path, "cells"), seen, j.contains("optional"));
      m.optional.assign(m.cells.size(), 0);
      if (j.contains("optional")) {
        for (const Vec3& c : cells(j["optional"], join(path, "optional"), seen)) {
          m.cells.push_back(c);
          m.optional.push_back(1);
        }
      }
    } else {
      for (const auto& [c, ch] : layers(j["layers"], join(path, "layers"), "#+.")) {
        m.cells.push_back(c);
        m.optional.push_back(ch == '+');
      }
    }
    if (j.contains("colours")) {
      if (!j.contains("cells"))
        fail(join(path, "colours"), "expected \"colours\" only beside \"cells\"");
      m.cell_colour = colours(j["colours"], join(path, "colours"), m.cells.size());
    }
    Vec3 lo = m.cells.front(), hi = m.cells.front();
    for (const Vec3& c : m.cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    if (long(hi.x - lo.x + 1) * (hi.y - lo.y + 1) * (hi.z - lo.z + 1) > 16 * kMaxCells) {
      fail(path, "expected cells within a bounding box of at most 16000000 cells");
    }
  }

  // One colour (0..63, 0 = neutral) per cell.
  std::vector<std::uint8_t> colours(const json& j, const std::string& path, std::size_t n) const {
    if (!j.is_array() || j.size() != n)
      fail(path, "expected an array of " + std::to_string(n) + " colours (one per cell), found " +
                     found(j));
    std::vector<std::uint8_t> out;
    for (std::size_t k = 0; k < n; ++k)
      out.push_back(std::uint8_t(integer(j[k], index(path, k), 0, 63, "a colour")));
    return out;
  }

  Piece piece(const json& j, const std::string& path) const {
    if (!j.is_object()) fail(path, "expected a piece object, found " + found(j));
    keys(j, path, "name cells layers count distinct turn_over colours");
    Piece p;
    if (!j.contains("name")) fail(path, "expected a \"name\", found none");
    if (!j["name"].is_string() || j["name"].get<std::string>().empty()) {
      fail(join(path, "name"), "expected a non-empty string, found " + found(j["name"]));
    }
    p.name = j["name"].get<std::string>();
    if (j.contains("cells") == j.contains("layers")) {
      fail(path, "expected exactly one of \"cells\" and \"layers\"");
    }
    if (j.contains("cells")) {
      std::map<Vec3, std::string> seen;
      p.cells = cells(j["cells"], join(path, "cells"), seen);
    } else {
      for (const auto& [c, ch] : layers(j["layers"], join(path, "layers"), "#."))
        p.cells.push_back(c);
    }
    if (j.contains("colours")) {
      if (!j.contains("cells"))
        fail(join(path, "colours"), "expected \"colours\" only beside \"cells\"");
      p.colours = colours(j["colours"], join(path, "colours"), p.cells.size());
    }
    if (j.contains("count")) count(j["count"], join(path, "count"), p);
    for (const char* key : {"distinct", "turn_over"}) {
      if (j.contains(key) && !j[key].is_boolean())
        fail(join(path, key), "expected true or false, found " + found(j[key]));
    }
    if (j.contains("distinct")) p.distinct = j["distinct"].get<bool>();
    if (j.contains("turn_over")) p.turn_over = j["turn_over"].get<bool>();
    return p;
  }

  // A count n or a range [min, max] of copies (a spare piece: [0, 1]).
  void count(const json& c, const std::string& cp, Piece& p) const {
    if (c.is_array()) {
      if (c.size() != 2) fail(cp, "expected a count or a range [min, max], found " + found(c));
      p.min_count = integer(c[0], index(cp, 0), 0, kMaxCount, "the fewest copies");
      p.count = integer(c[1], index(cp, 1), 1, kMaxCount, "the most copies");
      if (p.min_count > p.count) {
        fail(cp, "expected a range [min, max] with min <= max, found " + c.dump());
      }
      if (p.min_count == p.count) p.min_count = -1;
    } else {
      p.min_count = -1;
      p.count = integer(c, cp, 1, kMaxCount, "a count");
    }
  }

  // {"set": NAME, "except": [names], "count": n | {name: n | [min, max]}, "prefix": text,
  // "turn_over": bool, "distinct": bool}: the pieces of a named set (puzzles/sets/NAME.json),
  // each with the JSON path `path` and its name in the set for messages.
  void set_entry(const json& j, const std::string& path, std::vector<Piece>& out,
                 std::vector<std::string>& where) const {
    keys(j, path, "set except count prefix turn_over distinct");
    const std::string sp = join(path, "set");
    if (!j["set"].is_string()) fail(sp, "expected a set name (a string), found " + found(j["set"]));
    const PieceSet* set = find_piece_set(j["set"].get<std::string>());
    if (!set) {
      fail(sp,
           "expected one of the piece sets " + piece_set_names() + ", found " + found(j["set"]));
    }
    std::vector<Piece> pieces;
    for (std::size_t k = 0; k < set->pieces.size(); ++k) {
      // (the compiled-in data is checked by the tests: a mistake there names the set's file)
      pieces.push_back(
          piece(set->pieces[k], "set " + set->name + " pieces[" + std::to_string(k) + "]"));
      if (!set->turn_over) pieces.back().turn_over = false;
    }
    auto find = [&](const json& name, const std::string& np) -> std::size_t {
      if (name.is_string()) {
        for (std::size_t k = 0; k < pieces.size(); ++k)
          if (pieces[k].name == name.get<std::string>()) return k;
      }
      std::string names;
      for (const Piece& p : pieces) names += (names.empty() ? "" : " ") + p.name;
      fail(np, "expected the name of a piece of the set \"" + set->name + "\" (" + names +
                   "), found " + found(name));
    };
    std::vector<bool> left_out(pieces.size(), false);
    if (j.contains("except")) {
      const json& e = j["except"];
      const std::string ep = join(path, "except");
      if (!e.is_array()) fail(ep, "expected an array of piece names, found " + found(e));
      for (std::size_t k = 0; k < e.size(); ++k) left_out[find(e[k], index(ep, k))] = true;
    }
    if (j.contains("count")) {
      const json& c = j["count"];
      const std::string cp = join(path, "count");
      if (c.is_object()) {
        for (const auto& [name, value] : c.items()) {
          const std::size_t k = find(json(name), join(cp, name));
          if (left_out[k])
            fail(join(cp, name),
                 "expected a piece not left out by \"except\", found \"" + name + "\"");
          count(value, join(cp, name), pieces[k]);
        }
      } else {
        if (!c.is_number() && !c.is_array())
          fail(cp, "expected a count, a range [min, max] or an object {name: count}, found " +
                       found(c));
        for (Piece& p : pieces) count(c, cp, p);
      }
    }
    std::string prefix;
    if (j.contains("prefix")) {
      if (!j["prefix"].is_string())
        fail(join(path, "prefix"), "expected a string, found " + found(j["prefix"]));
      prefix = j["prefix"].get<std::string>();
    }
    for (const char* key : {"distinct", "turn_over"}) {
      if (j.contains(key) && !j[key].is_boolean())
        fail(join(path, key), "expected true or false, found " + found(j[key]));
    }
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      if (left_out[k]) continue;
      Piece& p = pieces[k];
      where.push_back(path + " (piece \"" + p.name + "\" of the set \"" + set->name + "\")");
      p.name = prefix + p.name;
      if (j.contains("distinct")) p.distinct = j["distinct"].get<bool>();
      if (j.contains("turn_over")) p.turn_over = j["turn_over"].get<bool>();
      out.push_back(std::move(p));
    }
    if (std::find(left_out.begin(), left_out.end(), false) == left_out.end())
      fail(join(path, "except"), "expected at least one piece of the set left");
  }

  // The JSON path of each piece of the model read by model() (a set entry gives several).
  std::vector<std::string> piece_paths;

  Model model(const json& doc) {
    if (!doc.is_object()) fail("", "expected a JSON object, found " + found(doc));
    keys(doc, "",
         "name kind comment container box pieces mirror turn_over colour_pairs max_holes expect");
    Model m;
    if (doc.contains("kind") && doc["kind"] != "voxel") {
      fail("kind", "expected \"voxel\" (or \"happy-cube\" for Happy Cube puzzles), found " +
                       found(doc["kind"]));
    }
    for (const char* key : {"name", "comment"}) {
      if (doc.contains(key) && !doc[key].is_string())
        fail(key, "expected a string, found " + found(doc[key]));
    }
    if (doc.contains("name")) m.name = doc["name"].get<std::string>();
    if (doc.contains("comment")) m.comment = doc["comment"].get<std::string>();
    if (doc.contains("mirror")) {
      if (!doc["mirror"].is_boolean())
        fail("mirror", "expected true or false, found " + found(doc["mirror"]));
      m.mirror = doc["mirror"].get<bool>();
    }
    if (doc.contains("colour_pairs")) {
      const json& cp = doc["colour_pairs"];
      if (!cp.is_array()) fail("colour_pairs", "expected an array of [piece, cell] colour pairs");
      m.coloured = true;
      for (std::size_t k = 0; k < cp.size(); ++k) {
        const std::string pp = index("colour_pairs", k);
        if (!cp[k].is_array() || cp[k].size() != 2)
          fail(pp, "expected a pair [piece colour, cell colour], found " + found(cp[k]));
        m.colour_pairs.push_back({integer(cp[k][0], index(pp, 0), 1, 63, "a colour"),
                                  integer(cp[k][1], index(pp, 1), 1, 63, "a colour")});
      }
    }
    if (doc.contains("max_holes"))
      m.max_holes = integer(doc["max_holes"], "max_holes", 0, kMaxCells, "a number of holes");
    if (doc.contains("turn_over")) {
      if (!doc["turn_over"].is_boolean())
        fail("turn_over", "expected true or false, found " + found(doc["turn_over"]));
      m.turn_over = doc["turn_over"].get<bool>();
    }
    if (doc.contains("container") && doc.contains("box")) {
      fail("box", "expected either \"container\" or its shorthand \"box\", found both");
    }
    if (!doc.contains("container") && !doc.contains("box"))
      fail("", "expected a \"container\" key, found none");
    if (doc.contains("box")) {
      container(json{{"box", doc["box"]}}, m, "box");
    } else {
      container(doc["container"], m);
    }
    if (!doc.contains("pieces")) fail("", "expected a \"pieces\" key, found none");
    const json& ps = doc["pieces"];
    if (!ps.is_array() || ps.empty())
      fail("pieces", "expected a non-empty array of pieces, found " + found(ps));
    std::map<std::string, std::string> names;
    for (std::size_t k = 0; k < ps.size(); ++k) {
      const std::string pp = index("pieces", k);
      const std::size_t first = m.pieces.size();
      if (ps[k].is_object() && ps[k].contains("set")) {
        set_entry(ps[k], pp, m.pieces, piece_paths);
      } else {
        m.pieces.push_back(piece(ps[k], pp));
        piece_paths.push_back(pp);
      }
      for (std::size_t p = first; p < m.pieces.size(); ++p) {
        auto [it, fresh] = names.emplace(m.pieces[p].name, piece_paths[p]);
        if (!fresh) {
          const bool from_set =
              piece_paths[p] != pp || it->second.find(" of the set ") != std::string::npos;
          fail(piece_paths[p] == pp ? pp + ".name" : pp,
               "expected a name not used before, found \"" + it->first + "\" (also " + it->second +
                   (from_set ? "; a set entry's \"prefix\" renames its pieces)" : ")"));
        }
      }
    }
    return m;
  }

 private:
  std::string file_;
};

}  // namespace

Model model_from_json(const nlohmann::json& doc, const std::string& file) {
  Reader reader(file);
  Model m = reader.model(doc);
  try {
    canonicalize(m);
  } catch (const ModelError& e) {
    // A piece's path "pieces[p]..." counts the model's pieces; a set entry makes several of one
    // JSON entry, so the path is the entry's.
    std::string path = e.path();
    const std::string head = "pieces[" + std::to_string(e.piece()) + "]";
    if (e.piece() >= 0 && std::size_t(e.piece()) < reader.piece_paths.size() &&
        path.rfind(head, 0) == 0) {
      path = reader.piece_paths[std::size_t(e.piece())] + path.substr(head.size());
    }
    throw InputError(file, path, e.what());
  }
  return m;
}

std::unique_ptr<Puzzle> load_json(const nlohmann::json& doc, const std::string& file,
                                  const Limits& limits) {
  return make_puzzle(model_from_json(doc, file), file, true, limits);
}

}  // namespace cubex::voxel
