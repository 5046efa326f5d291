// Readers for the Happy Cube `.hcq` files and the JSON form.
#include "cubex/happycube/reader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "cubex/error.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace cubex::happycube {
namespace {

constexpr int kMinSize = 3, kMaxSize = 32;
constexpr std::size_t kMaxCubes = 1000;  // cubes in a structure (6000 plates at most)
const char* const kEdgeNames[4] = {"top", "right", "bottom", "left"};

// The cell of edge `e` (0 top, 1 right, 2 bottom, 3 left), bit `i` along it, in reading order.
std::pair<int, int> border_cell(int n, int e, int i) {
  switch (e) {
    case 0:
      return {0, i};
    case 1:
      return {i, n - 1};
    case 2:
      return {n - 1, n - 1 - i};
    default:
      return {n - 1 - i, 0};
  }
}

Tile solid_centre(int n) {
  Tile t(n);
  for (int r = 1; r < n - 1; ++r)
    for (int c = 1; c < n - 1; ++c) t.set(r, c, true);
  return t;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string in_quotes(std::string_view s) {
  return "'" + excerpt(s, 100) + "'";  // a whole line of a 5 x 5 tile fits
}

// ---------------------------------------------------------------------------------------------
// .hcq

class HcqParser {
 public:
  HcqParser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Spec run() {
    Spec spec;
    spec.structure = {{0, 0, 0}};
    enum { kHeader, kTiles, kDone } state = kHeader;
    long num_tiles = -1;
    int num_tiles_line = 0, line_no = 0, last_line = 0;
    std::map<std::string, int> ids;      // id -> line
    std::map<std::string, int> headers;  // header key -> line
    std::size_t pos = 0;
    while (pos <= text_.size()) {
      std::size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view raw = text_.substr(pos, end - pos);
      pos = end + 1;
      ++line_no;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      const std::string line = trim(raw);
      if (line.empty()) continue;
      last_line = line_no;
      if (state == kDone) fail(line_no, 1, "expected nothing after EOF, found " + in_quotes(line));
      if (state == kHeader) {
        if (line == "TILE_ID_BORDER_PATTERN") {
          if (num_tiles < 0) fail(line_no, 1, "expected NUM_TILES: before TILE_ID_BORDER_PATTERN");
          state = kTiles;
          continue;
        }
        const std::size_t colon = line.find(':');
        const std::string key = colon == std::string::npos ? line : trim(line.substr(0, colon));
        const std::string value = colon == std::string::npos ? "" : trim(line.substr(colon + 1));
        if (colon == std::string::npos ||
            (key != "NAME" && key != "TYPE" && key != "COMMENT" && key != "NUM_TILES")) {
          fail(line_no, 1,
               "expected a header line (NAME:, TYPE:, COMMENT:, NUM_TILES:) or "
               "TILE_ID_BORDER_PATTERN, found " +
                   in_quotes(line));
        }
        std::size_t vpos = raw.find(':') + 1;
        while (vpos < raw.size() && std::isspace(static_cast<unsigned char>(raw[vpos]))) ++vpos;
        const int vcol = static_cast<int>(vpos + 1);
        if (auto [it, fresh] = headers.emplace(key, line_no); !fresh) {
          fail(line_no, 1,
               "expected each header line once, found " + key + ": again (first on line " +
                   std::to_string(it->second) + ")");
        }
        if (!is_utf8(value)) {
          std::size_t bad = 0;
          while (utf8_length(value, bad) != 0) bad += utf8_length(value, bad);
          fail(line_no, vcol + static_cast<int>(bad),
               "expected UTF-8 text, found the byte " + excerpt(value.substr(bad, 1)));
        }
        if (key == "NAME") spec.name = value;
        if (key == "TYPE" && value != "HC_BQ_INSTANCE") {
          fail(line_no, vcol, "expected TYPE: HC_BQ_INSTANCE, found " + in_quotes(value));
        }
        if (key == "NUM_TILES") {
          const bool digits = !value.empty() && value.size() < 6 &&
                              std::all_of(value.begin(), value.end(), ::isdigit);
          if (!digits) fail(line_no, vcol, "expected a number of tiles, found " + in_quotes(value));
          num_tiles = std::stol(value);
          num_tiles_line = line_no;
          if (num_tiles < 1)
            fail(line_no, vcol, "expected at least 1 tile, found NUM_TILES: " + value);
        }
        continue;
      }
      if (line == "EOF") {
        state = kDone;
        continue;
      }
      if (!is_utf8(line)) fail(line_no, 1, "expected UTF-8 text, found " + in_quotes(line));
      PieceSpec piece = parse_tile(raw, line_no, spec);
      auto [it, fresh] = ids.emplace(piece.name, line_no);
      if (!fresh) {
        fail(line_no, 1,
             "expected a new tile id, found " + in_quotes(piece.name) + " again (first on line " +
                 std::to_string(it->second) + ")");
      }
      spec.pieces.push_back(std::move(piece));
    }
    if (state == kHeader)
      fail(line_no, 0, "expected TILE_ID_BORDER_PATTERN, found the end of the file");
    if (static_cast<long>(spec.pieces.size()) != num_tiles) {
      fail(last_line, 0,
           "expected " + std::to_string(num_tiles) + " tiles (NUM_TILES on line " +
               std::to_string(num_tiles_line) + "), found " + std::to_string(spec.pieces.size()));
    }
    if (state != kDone) {
      fail(line_no, 0,
           "expected EOF after the last tile, found the end of the file (is the file "
           "truncated?)");
    }
    if (!headers.count("NAME")) {
      fail(1, 0, "expected a NAME: header line (NAME:, TYPE:, COMMENT:, NUM_TILES:), found none");
    }
    if (spec.name.empty()) spec.name = std::filesystem::path(file_).stem().string();
    return spec;
  }

 private:
  [[noreturn]] void fail(int line, int col, const std::string& msg) const {
    throw InputError(file_, line, col, msg);
  }

  // `id [b, ...; b, ...; ...]`; the first tile fixes N (bits per edge).
  PieceSpec parse_tile(std::string_view raw, int line_no, Spec& spec) {
    std::size_t i = 0;
    auto skip_blanks = [&] {
      while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t')) ++i;
    };
    auto col = [&] { return static_cast<int>(i + 1); };
    skip_blanks();
    const std::size_t id_start = i;
    while (i < raw.size() && !std::isspace(static_cast<unsigned char>(raw[i])) && raw[i] != '[')
      ++i;
    PieceSpec piece;
    piece.name = std::string(raw.substr(id_start, i - id_start));
    skip_blanks();
    if (piece.name.empty() || i >= raw.size() || raw[i] != '[') {
      fail(line_no, col(), "expected a tile line 'id [bits]', found " + in_quotes(trim(raw)));
    }
    const std::string who = "tile " + piece.name + ": ";
    ++i;
    std::vector<std::vector<int>> edges(1);
    std::vector<int> edge_col{0};
    bool closed = false;
    while (!closed) {
      skip_blanks();
      if (edges.back().empty()) edge_col.back() = col();
      if (i >= raw.size())
        fail(line_no, col(), who + "expected a bit (0 or 1), found the end of the line");
      if (raw[i] != '0' && raw[i] != '1') {
        fail(line_no, col(), who + "expected a bit (0 or 1), found " + in_quotes(raw.substr(i, 1)));
      }
      edges.back().push_back(raw[i] - '0');
      ++i;
      skip_blanks();
      if (i >= raw.size())
        fail(line_no, col(), who + "expected ',', ';' or ']', found the end of the line");
      const char sep = raw[i++];
      if (sep == ';') {
        edges.emplace_back();
        edge_col.push_back(col());
      } else if (sep == ']') {
        closed = true;
      } else if (sep != ',') {
        fail(line_no, col() - 1,
             who + "expected ',', ';' or ']', found " + in_quotes(std::string(1, sep)));
      }
    }
    skip_blanks();
    if (i < raw.size())
      fail(line_no, col(),
           who + "expected the end of the line after ']', found " + in_quotes(raw.substr(i)));

    if (spec.pieces.empty()) {
      const int n = static_cast<int>(edges[0].size());
      if (n < kMinSize || n > kMaxSize) {
        fail(line_no, edge_col[0],
             who + "expected " + std::to_string(kMinSize) + " to " + std::to_string(kMaxSize) +
                 " bits per edge, found " + std::to_string(n));
      }
      spec.size = n;
    }
    const int n = spec.size;
    if (edges.size() != 4) {
      fail(line_no, edge_col[0],
           who + "expected 4 edges of " + std::to_string(n) + " bits (" + std::to_string(4 * n) +
               " bits) separated by ';', found " + std::to_string(edges.size()) + " edges");
    }
    for (int e = 0; e < 4; ++e) {
      if (static_cast<int>(edges[e].size()) != n) {
        fail(line_no, edge_col[e],
             who + "expected " + std::to_string(n) + " bits in the " + kEdgeNames[e] + " edge (" +
                 std::to_string(4 * n) + " in all), found " + std::to_string(edges[e].size()));
      }
    }
    for (int e = 0; e < 4; ++e) {
      const int next = (e + 1) % 4;
      if (edges[e][n - 1] != edges[next][0]) {
        fail(line_no, edge_col[next],
             who + "expected the corner between the " + kEdgeNames[e] + " and " + kEdgeNames[next] +
                 " edges to agree, found " + std::to_string(edges[e][n - 1]) +
                 " at the end of the " + kEdgeNames[e] + " edge and " +
                 std::to_string(edges[next][0]) + " at the start of the " + kEdgeNames[next] +
                 " edge");
      }
    }
    piece.tile = solid_centre(n);
    for (int e = 0; e < 4; ++e)
      for (int b = 0; b < n; ++b) {
        auto [r, c] = border_cell(n, e, b);
        piece.tile.set(r, c, edges[e][b] != 0);
      }
    return piece;
  }

  std::string_view text_;
  const std::string& file_;
};

// ---------------------------------------------------------------------------------------------
// JSON

std::string describe(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::string:
      return "the string " + excerpt(j.dump(), 60);
    case nlohmann::json::value_t::array:
      return "an array of " + std::to_string(j.size());
    case nlohmann::json::value_t::object:
      return "an object";
    default:
      return "the number " + j.dump();
  }
}

class JsonParser {
 public:
  JsonParser(const nlohmann::json& doc, const std::string& file) : doc_(doc), file_(file) {}

  Spec run() {
    if (!doc_.is_object()) fail("", "expected an object, found " + describe(doc_));
    only_keys(doc_, "",
              {"kind", "name", "comment", "size", "flip", "structure", "pieces", "sets", "expect"});
    if (!doc_.contains("kind") || doc_["kind"] != "happy-cube") {
      fail("kind", "expected \"happy-cube\", found " +
                       (doc_.contains("kind") ? describe(doc_["kind"]) : std::string("nothing")));
    }
    Spec spec;
    spec.name = doc_.contains("name") ? string_at(doc_["name"], "name")
                                      : std::filesystem::path(file_).stem().string();
    if (!doc_.contains("size")) fail("", "expected a \"size\" (the plates are size x size)");
    spec.size = int_at(doc_["size"], "size", kMinSize, kMaxSize);
    const bool flip = doc_.contains("flip") ? bool_at(doc_["flip"], "flip") : true;
    spec.structure =
        doc_.contains("structure") ? structure(doc_["structure"]) : std::vector<Vec3>{{0, 0, 0}};

    std::map<std::string, std::string> names;  // name -> path of its first use
    const bool has_pieces = doc_.contains("pieces");
    if (has_pieces) pieces(doc_["pieces"], "pieces", "", flip, spec, names);
    if (doc_.contains("sets")) {
      const auto& sets = doc_["sets"];
      if (!sets.is_array()) fail("sets", "expected an array of sets, found " + describe(sets));
      for (std::size_t k = 0; k < sets.size(); ++k) {
        const std::string where = "sets[" + std::to_string(k) + "]";
        const auto& s = sets[k];
        if (!s.is_object())
          fail(where, "expected an object {\"name\", \"pieces\"}, found " + describe(s));
        only_keys(s, where, {"name", "pieces"});
        if (!s.contains("name")) fail(where, "expected a \"name\"");
        if (!s.contains("pieces")) fail(where, "expected \"pieces\"");
        const std::string set_name = string_at(s["name"], where + ".name");
        pieces(s["pieces"], where + ".pieces", set_name + "/", flip, spec, names);
      }
    }
    if (!has_pieces && !doc_.contains("sets")) fail("", "expected \"pieces\" or \"sets\"");

    // Any number of plates: spare ones stay unused, too few leave the puzzle without a solution
    // (the model says why).
    return spec;
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& msg) const {
    throw InputError(file_, path, msg);
  }

  void only_keys(const nlohmann::json& obj, const std::string& where,
                 std::initializer_list<const char*> keys) const {
    for (const auto& entry : obj.items()) {
      const std::string& key = entry.key();  // clang 14 cannot capture a structured binding
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
        std::string list;
        for (const char* k : keys) list += (list.empty() ? "\"" : ", \"") + std::string(k) + "\"";
        fail(where, "expected only the keys " + list + ", found \"" + excerpt(key) + "\"");
      }
    }
  }

  std::string string_at(const nlohmann::json& j, const std::string& path) const {
    if (!j.is_string() || j.get<std::string>().empty()) {
      fail(path, "expected a non-empty string, found " + describe(j));
    }
    return j.get<std::string>();
  }

  bool bool_at(const nlohmann::json& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, "expected true or false, found " + describe(j));
    return j.get<bool>();
  }

  int int_at(const nlohmann::json& j, const std::string& path, long lo, long hi) const {
    const std::optional<std::int64_t> v = json_int(j, lo, hi);
    if (!v) {
      fail(path, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     ", found " + describe(j));
    }
    return static_cast<int>(*v);
  }

  std::vector<Vec3> structure(const nlohmann::json& j) const {
    if (!j.is_array() || j.empty())
      fail("structure", "expected a non-empty array of [x, y, z], found " + describe(j));
    if (j.size() > kMaxCubes) {
      fail("structure", "expected at most " + std::to_string(kMaxCubes) + " cubes, found " +
                            std::to_string(j.size()));
    }
    std::vector<Vec3> cubes;
    std::map<Vec3, std::size_t> seen;
    for (std::size_t k = 0; k < j.size(); ++k) {
      const std::string where = "structure[" + std::to_string(k) + "]";
      const auto& c = j[k];
      if (!c.is_array() || c.size() != 3) fail(where, "expected [x, y, z], found " + describe(c));
      int xyz[3];
      for (int a = 0; a < 3; ++a)
        xyz[a] = int_at(c[a], where + "[" + std::to_string(a) + "]", -1000, 1000);
      const Vec3 v{xyz[0], xyz[1], xyz[2]};
      auto [it, fresh] = seen.emplace(v, k);
      if (!fresh)
        fail(where, "expected a new cube, found the cube of structure[" +
                        std::to_string(it->second) + "] again");
      cubes.push_back(v);
    }
    return cubes;
  }

  void pieces(const nlohmann::json& list, const std::string& where, const std::string& prefix,
              bool flip, Spec& spec, std::map<std::string, std::string>& names) const {
    if (!list.is_array()) fail(where, "expected an array of pieces, found " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string at = where + "[" + std::to_string(k) + "]";
      const auto& p = list[k];
      if (!p.is_object()) fail(at, "expected a piece {\"name\", \"rows\"}, found " + describe(p));
      only_keys(p, at, {"name", "rows", "count", "flip"});
      PieceSpec piece;
      piece.name = prefix + (p.contains("name") ? string_at(p["name"], at + ".name")
                                                : std::to_string(k + 1));
      auto [it, fresh] = names.emplace(piece.name, at);
      if (!fresh)
        fail(at + ".name", "expected a new piece name, found \"" + piece.name +
                               "\" again (first at " + it->second + ")");
      piece.count = p.contains("count") ? int_at(p["count"], at + ".count", 1, 10000) : 1;
      piece.may_flip = p.contains("flip") ? bool_at(p["flip"], at + ".flip") : flip;
      if (!p.contains("rows")) fail(at, "expected \"rows\" (the drawing of the piece)");
      piece.tile = rows(p["rows"], at + ".rows", spec.size);
      spec.pieces.push_back(std::move(piece));
    }
  }

  Tile rows(const nlohmann::json& j, const std::string& where, int n) const {
    if (!j.is_array() || static_cast<int>(j.size()) != n) {
      fail(where, "expected an array of " + std::to_string(n) + " rows, found " + describe(j));
    }
    Tile t(n);
    for (int r = 0; r < n; ++r) {
      const std::string at = where + "[" + std::to_string(r) + "]";
      if (!j[r].is_string()) fail(at, "expected a row such as \"#.#.#\", found " + describe(j[r]));
      const std::string row = j[r].get<std::string>();
      if (static_cast<int>(row.size()) != n) {
        fail(at, "expected " + std::to_string(n) + " characters, found " +
                     std::to_string(row.size()) + " in \"" + excerpt(row) + "\"");
      }
      for (int c = 0; c < n; ++c) {
        const std::string col = "column " + std::to_string(c + 1) + ": ";
        if (row[c] != '#' && row[c] != '.') {
          fail(at, col + "expected '#' (filled) or '.' (empty), found '" +
                       excerpt(row.substr(c, 1)) + "'");
        }
        if (t.in_centre(r, c) && row[c] != '#') {
          fail(at, col + "expected '#' in the solid centre, found a hole '.'");
        }
        t.set(r, c, row[c] == '#');
      }
    }
    return t;
  }

  const nlohmann::json& doc_;
  const std::string& file_;
};

}  // namespace

Spec parse_hcq(std::string_view text, const std::string& file) {
  std::string storage;
  return HcqParser(unix_newlines(text, storage), file).run();
}

Spec read_hcq(const std::string& path, const Limits& limits) {
  return parse_hcq(read_text_file(path, limits), path);
}

Spec parse_json(const nlohmann::json& doc, const std::string& file) {
  return JsonParser(doc, file).run();
}

std::string to_hcq(const Spec& spec) {
  std::string out = "NAME: " + spec.name + "\nTYPE: HC_BQ_INSTANCE\n" +
                    "COMMENT: Build 3D-Cube out of 6 Happy Cube (R) tiles\nNUM_TILES: " +
                    std::to_string(spec.pieces.size()) + "\nTILE_ID_BORDER_PATTERN\n";
  for (const PieceSpec& p : spec.pieces) {
    out += p.name + " [";
    for (int e = 0; e < 4; ++e)
      for (int b = 0; b < spec.size; ++b) {
        auto [r, c] = border_cell(spec.size, e, b);
        out += (p.tile.at(r, c) ? "1" : "0");
        out += b + 1 < spec.size ? ", " : e < 3 ? "; " : "]\n";
      }
  }
  return out + "EOF\n";
}

nlohmann::json to_json(const Spec& spec) {
  nlohmann::json pieces = nlohmann::json::array();
  for (const PieceSpec& p : spec.pieces) {
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < spec.size; ++r) {
      std::string row;
      for (int c = 0; c < spec.size; ++c) row += p.tile.at(r, c) ? '#' : '.';
      rows.push_back(row);
    }
    nlohmann::json j = {{"name", p.name}, {"rows", rows}};
    if (p.count != 1) j["count"] = p.count;
    if (!p.may_flip) j["flip"] = false;
    pieces.push_back(j);
  }
  nlohmann::json doc = {{"kind", "happy-cube"}, {"name", spec.name}, {"size", spec.size}};
  if (spec.structure.size() != 1 || spec.structure[0] != Vec3{0, 0, 0}) {
    nlohmann::json s = nlohmann::json::array();
    for (const Vec3& c : spec.structure) s.push_back({c.x, c.y, c.z});
    doc["structure"] = s;
  }
  doc["pieces"] = pieces;
  return doc;
}

}  // namespace cubex::happycube
