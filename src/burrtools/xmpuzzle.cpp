// BurrTools .xmpuzzle files: gzip (zlib), XML (pugixml), and the mapping to the voxel model.
#include "cubex/burrtools/xmpuzzle.hpp"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <pugixml.hpp>

#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/util/files.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex::burrtools {

// ---- gzip
// ----------------------------------------------------------------------------------------

namespace {

std::string xml_size_text(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t(1) << 20) && bytes % (std::uint64_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string gunzip(std::string_view data, const std::string& file, const Limits& limits) {
  if (data.size() < 2 || static_cast<unsigned char>(data[0]) != 0x1f ||
      static_cast<unsigned char>(data[1]) != 0x8b) {
    if (data.size() > limits.max_xml_bytes) {
      throw InputError(file, "expected at most " + xml_size_text(limits.max_xml_bytes) +
                                 " of XML, found " + std::to_string(data.size()) +
                                 " bytes (raise the limit with --max-xml-bytes)");
    }
    return std::string(data);  // plain XML, as BurrTools also accepts
  }
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
    throw std::runtime_error("zlib: inflateInit2 failed");
  std::string out;
  char buf[1 << 16];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  const std::uint64_t max = limits.max_xml_bytes;
  std::size_t member = 0;  // where the current gzip member starts in `data`
  int rc = Z_OK;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t got = sizeof buf - zs.avail_out;
    if (out.size() + got > max) {  // refused while inflating: at most `max` bytes are kept
      inflateEnd(&zs);
      throw InputError(file, "expected at most " + xml_size_text(max) +
                                 " of XML after decompression, found more (raise the limit "
                                 "with --max-xml-bytes)");
    }
    out.append(buf, got);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      member = data.size() - zs.avail_in;
      inflateReset(&zs);  // another gzip member follows
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      inflateEnd(&zs);
      throw InputError(file, "expected a complete gzip stream, found it cut off after " +
                                 std::to_string(data.size()) + " bytes (truncated file?)");
    }
    const std::string why = zs.msg ? zs.msg : "error " + std::to_string(rc);
    const bool trailing = member > 0 && zs.total_out == 0;  // no gzip member after the first
    const std::size_t at = member + std::size_t(zs.total_in);
    inflateEnd(&zs);
    if (trailing) {
      throw InputError(file, "expected nothing after the gzip stream, found " +
                                 std::to_string(data.size() - member) + " more bytes at byte " +
                                 std::to_string(member) + " (" + why + ")");
    }
    throw InputError(file, "expected gzip-compressed XML, found corrupt gzip data at byte " +
                               std::to_string(at) + " (" + why + ")");
  }
  inflateEnd(&zs);
  return out;
}

std::string gzip(std::string_view text) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  std::string out;
  char buf[1 << 16];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  int rc = Z_OK;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = deflate(&zs, Z_FINISH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK || (rc == Z_BUF_ERROR && zs.avail_out == 0));
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib: deflate failed");
  return out;
}

// ---- reading
// -------------------------------------------------------------------------------------

namespace {

const char* const kGridNames[] = {"cubes", "triangular prisms", "spheres", "rhombic dodecahedra",
                                  "tetrahedra-octahedra"};

class Reader {
 public:
  Reader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  // Line and column (1-based) of a byte offset into the text.
  std::pair<int, int> line_col(std::ptrdiff_t offset) const {
    if (offset < 0) return {0, 0};
    const std::size_t end = std::min<std::size_t>(std::size_t(offset), text_.size());
    int line = 1, col = 1;
    for (std::size_t i = 0; i < end; ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return {line, col};
  }

  [[noreturn]] void fail_at(std::ptrdiff_t offset, const std::string& message) const {
    const auto [line, col] = line_col(offset);
    if (line == 0) throw InputError(file_, message);
    throw InputError(file_, line, col, message);
  }
  [[noreturn]] void fail(const pugi::xml_node& node, const std::string& message) const {
    // offset_debug points at the name; step back to the '<'.
    std::ptrdiff_t at = node.offset_debug();
    if (at > 0 && node.type() == pugi::node_element) --at;
    fail_at(at, message);
  }

  static std::string where(const pugi::xml_node& node) {
    return "<" + std::string(node.name()) + ">";
  }

  // An integer attribute in [lo, hi]; `fallback` when absent (or an error when it is required).
  long integer(const pugi::xml_node& node, const char* attr, long lo, long hi,
               std::optional<long> fallback = std::nullopt) const {
    const pugi::xml_attribute a = node.attribute(attr);
    if (!a) {
      if (fallback) return *fallback;
      fail(node, where(node) + ": expected the attribute " + attr + ", found none");
    }
    const std::string_view v = a.value();
    long n = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || ptr != v.data() + v.size() || n < lo || n > hi) {
      fail(node, where(node) + ": expected " + attr + " to be an integer from " +
                     std::to_string(lo) + " to " + std::to_string(hi) + ", found \"" + excerpt(v) +
                     "\"");
    }
    return n;
  }

  struct Shape {
    Vec3 size;
    std::string name;
    int weight = 1;  // for disassembly only
    // Per cell (x fastest): state 0 empty, 1 filled, 2 variable; and the colour.
    std::vector<std::uint8_t> state, colour;
    pugi::xml_node node;
  };

  Shape shape(const pugi::xml_node& v, std::size_t index) const {
    Shape s;
    s.node = v;
    const long x = integer(v, "x", 1, 1000), y = integer(v, "y", 1, 1000),
               z = integer(v, "z", 1, 1000);
    if (x * y * z > 1000000)
      fail(v, "<voxel> (shape " + std::to_string(index) + "): expected at most 1000000 cells");
    s.size = {int(x), int(y), int(z)};
    integer(v, "type", 0, 0);
    s.name = v.attribute("name").value();
    s.weight = int(integer(v, "weight", 0, 1 << 30, 1));
    const std::size_t n = std::size_t(x * y * z);
    const pugi::xml_node textnode = v.first_child();
    const std::string_view t = textnode ? textnode.value() : "";
    const std::ptrdiff_t base = textnode ? textnode.offset_debug() : v.offset_debug();
    std::size_t i = 0;
    while (i < t.size()) {
      const char ch = t[i];
      const std::uint8_t st = ch == '_' ? 0 : ch == '#' ? 1 : ch == '+' ? 2 : 3;
      if (st == 3) {
        fail_at(base + std::ptrdiff_t(i), "shape " + std::to_string(index) +
                                              ": expected '_', '#' or '+' (and colour digits) "
                                              "in the voxel string, found '" +
                                              excerpt(t.substr(i, 1)) + "'");
      }
      ++i;
      int colour = 0;
      const std::size_t digits = i;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9' && i - digits < 3)
        colour = colour * 10 + (t[i++] - '0');
      if (colour > 63) {
        fail_at(base + std::ptrdiff_t(digits), "shape " + std::to_string(index) +
                                                   ": expected a colour from 0 to 63, found " +
                                                   std::to_string(colour));
      }
      if (s.state.size() == n) {
        fail_at(base + std::ptrdiff_t(i - 1),
                "shape " + std::to_string(index) + ": expected " + std::to_string(n) +
                    " cells (x*y*z = " + std::to_string(x) + "*" + std::to_string(y) + "*" +
                    std::to_string(z) + "), found more");
      }
      s.state.push_back(st);
      s.colour.push_back(std::uint8_t(colour));
    }
    if (s.state.size() != n) {
      fail(v, "shape " + std::to_string(index) + ": expected " + std::to_string(n) +
                  " cells (x*y*z = " + std::to_string(x) + "*" + std::to_string(y) + "*" +
                  std::to_string(z) + "), found " + std::to_string(s.state.size()));
    }
    return s;
  }

  static Vec3 cell_at(const Shape& s, std::size_t k) {
    const std::size_t sx = std::size_t(s.size.x), sy = std::size_t(s.size.y);
    return {int(k % sx), int(k / sx % sy), int(k / (sx * sy))};
  }

  // Counts elements and attributes and measures attribute values before parsing, so that
  // pugixml's document (tens of bytes per element and attribute) stays within the limits. Tags
  // are found as the parser finds them: comments, CDATA sections, declarations and end tags are
  // skipped.
  void check_size(const Limits& lim) const {
    const std::string_view t = text_;
    std::uint64_t elements = 0, attributes = 0;
    auto skip_past = [&](std::size_t from, std::string_view end) {
      const std::size_t at = t.find(end, from);
      return at == std::string_view::npos ? t.size() : at + end.size();
    };
    std::size_t i = 0;
    while ((i = t.find('<', i)) != std::string_view::npos) {
      if (t.compare(i, 4, "<!--") == 0) {
        i = skip_past(i + 4, "-->");
        continue;
      }
      if (t.compare(i, 9, "<![CDATA[") == 0) {
        i = skip_past(i + 9, "]]>");
        continue;
      }
      if (i + 1 < t.size() && (t[i + 1] == '/' || t[i + 1] == '?' || t[i + 1] == '!')) {
        i = skip_past(i + 1, ">");
        continue;
      }
      if (++elements > lim.max_xml_elements) {
        fail_at(std::ptrdiff_t(i), "expected at most " + std::to_string(lim.max_xml_elements) +
                                       " XML elements, found more (raise the limit with "
                                       "--max-xml-elements)");
      }
      std::size_t j = i + 1;
      while (j < t.size() && t[j] != '>') {
        if (t[j] != '"' && t[j] != '\'') {
          ++j;
          continue;
        }
        const std::size_t close = t.find(t[j], j + 1);
        const std::size_t end = close == std::string_view::npos ? t.size() : close;
        if (end - j - 1 > lim.max_xml_attribute_bytes) {
          fail_at(std::ptrdiff_t(j), "expected an attribute value of at most " +
                                         xml_size_text(lim.max_xml_attribute_bytes) + ", found " +
                                         std::to_string(end - j - 1) + " bytes");
        }
        if (++attributes > lim.max_xml_attributes) {
          fail_at(std::ptrdiff_t(j), "expected at most " + std::to_string(lim.max_xml_attributes) +
                                         " XML attributes, found more (raise the limit with "
                                         "--max-xml-elements)");
        }
        j = end + 1;
      }
      i = j;
    }
  }

  Loaded read(const LoadOptions& options) const {
    check_size(options.limits);
    pugi::xml_document doc;
    const pugi::xml_parse_result res =
        doc.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!res) fail_at(res.offset, std::string("expected well-formed XML: ") + res.description());
    const pugi::xml_node puzzle = doc.child("puzzle");
    if (!puzzle) {
      fail(doc.first_child(), "expected a BurrTools <puzzle> element, found " +
                                  (doc.first_child() ? where(doc.first_child()) : "nothing"));
    }
    integer(puzzle, "version", 1, 2);
    if (const pugi::xml_node grid = puzzle.child("gridType")) {
      const long type = integer(grid, "type", 0, 1000, 0);
      if (type != 0) {
        const std::string name = type < 5 ? kGridNames[type] : "unknown";
        fail(grid, "expected the cube grid (gridType 0), found gridType " + std::to_string(type) +
                       " (" + name + "): cubex solves cube puzzles only");
      }
    }
    int colours = 0;
    for (pugi::xml_node c = puzzle.child("colors").child("color"); c; c = c.next_sibling("color"))
      ++colours;

    std::vector<Shape> shapes;
    for (pugi::xml_node v = puzzle.child("shapes").child("voxel"); v; v = v.next_sibling("voxel"))
      shapes.push_back(shape(v, shapes.size()));

    std::vector<pugi::xml_node> problems;
    Loaded out;
    for (pugi::xml_node p = puzzle.child("problems").child("problem"); p;
         p = p.next_sibling("problem")) {
      problems.push_back(p);
      std::string name = p.attribute("name").value();
      out.problems.push_back(name.empty() ? "problem " + std::to_string(problems.size()) : name);
    }
    if (problems.empty()) {
      fail(puzzle, "expected at least one <problem> in <problems>, found none");
    }
    // The problem: by its exact name, else (spaces around it ignored) by its 1-based number, as
    // "N" or "problem N", or by its name.
    std::size_t chosen = 0;
    if (!options.problem.empty()) {
      const std::string& asked = options.problem;
      const std::size_t first = asked.find_first_not_of(" \t\r\n");
      const std::string want =
          first == std::string::npos
              ? std::string()
              : asked.substr(first, asked.find_last_not_of(" \t\r\n") - first + 1);
      std::optional<std::size_t> found;
      for (std::size_t k = 0; k < problems.size() && !found; ++k)
        if (out.problems[k] == asked) found = k;
      auto number = [&](std::string_view t) {
        std::size_t idx = 0;
        const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), idx);
        if (ec == std::errc() && ptr == t.data() + t.size() && !t.empty() && idx >= 1 &&
            idx <= problems.size())
          found = idx - 1;
      };
      if (!found) number(want);
      for (std::size_t k = 0; k < problems.size() && !found; ++k)
        if (out.problems[k] == want) found = k;
      if (!found && want.rfind("problem ", 0) == 0) number(std::string_view(want).substr(8));
      if (!found) {
        std::string list;
        for (std::size_t k = 0; k < problems.size(); ++k)
          list += (k ? ", " : "") + std::to_string(k + 1) + " \"" + excerpt(out.problems[k]) + "\"";
        throw InputError(file_,
                         "expected --problem to name a problem of the file (exactly) or give its "
                         "number from 1 to " +
                             std::to_string(problems.size()) + ", found \"" + excerpt(asked) +
                             "\"; the file holds " + list);
      }
      chosen = *found;
    }
    out.chosen = chosen;
    const pugi::xml_node prob = problems[chosen];
    const std::string pname =
        "problem " + std::to_string(chosen + 1) + " \"" + out.problems[chosen] + "\"";

    voxel::Model& m = out.model;
    m.name = prob.attribute("name").value();
    m.comment = puzzle.child("comment").child_value();
    m.coloured = colours > 0;

    // The result shape.
    const pugi::xml_node result = prob.child("result");
    if (!result) fail(prob, pname + ": expected a <result id=...> element, found none");
    const long rid = integer(result, "id", 0, 1 << 30);
    if (shapes.empty()) {
      fail(result, pname +
                       ": expected a result shape, but the file has no shapes (no <voxel> in "
                       "<shapes>)");
    }
    if (std::size_t(rid) >= shapes.size()) {
      fail(result, pname + ": expected a result id from 0 to " +
                       std::to_string(long(shapes.size()) - 1) + " (the file has " +
                       std::to_string(shapes.size()) + " shapes), found " + std::to_string(rid));
    }
    const Shape& rs = shapes[std::size_t(rid)];
    bool any_colour = false;
    for (std::size_t k = 0; k < rs.state.size(); ++k) {
      if (rs.state[k] == 0) continue;
      m.cells.push_back(cell_at(rs, k));
      m.optional.push_back(rs.state[k] == 2);
      m.cell_colour.push_back(rs.colour[k]);
      any_colour = any_colour || rs.colour[k];
    }
    if (!any_colour) m.cell_colour.clear();
    if (m.cells.empty()) fail(rs.node, pname + ": expected a result shape with cells, found none");

    // The pieces.
    std::map<std::string, int> names;
    bool groups = false;
    const pugi::xml_node parts = prob.child("shapes");
    for (pugi::xml_node sh = parts.child("shape"); sh; sh = sh.next_sibling("shape")) {
      const long id = integer(sh, "id", 0, 1 << 30);
      if (std::size_t(id) >= shapes.size()) {
        fail(sh, pname + ": expected a shape id from 0 to " +
                     std::to_string(long(shapes.size()) - 1) + " (the file has " +
                     std::to_string(shapes.size()) + " shapes), found " + std::to_string(id));
      }
      voxel::Piece p;
      if (sh.attribute("count")) {
        p.count = int(integer(sh, "count", 0, 1000000));
      } else if (sh.attribute("min") || sh.attribute("max")) {
        p.min_count = int(integer(sh, "min", 0, 1000000));
        p.count = int(integer(sh, "max", 0, 1000000));
        if (p.min_count > p.count) {
          fail(sh, pname + ": expected min <= max, found min " + std::to_string(p.min_count) +
                       " > max " + std::to_string(p.count));
        }
      }
      groups = groups || integer(sh, "group", 0, 1 << 30, 0) != 0 || sh.child("group");
      if (const long g = integer(sh, "group", 0, 1 << 30, 0); g != 0) p.groups.push_back({int(g), p.count});
      for (pugi::xml_node gr = sh.child("group"); gr; gr = gr.next_sibling("group")) {
        const long g = integer(gr, "group", 0, 1 << 30, 0);
        if (g != 0) p.groups.push_back({int(g), int(integer(gr, "count", 0, 1000000, 1))});
      }
      if (p.count == 0) {
        out.notes.push_back("shape " + std::to_string(id) + " is listed with count 0 and left out");
        continue;
      }
      const Shape& s = shapes[std::size_t(id)];
      bool coloured = false;
      for (std::size_t k = 0; k < s.state.size(); ++k) {
        if (s.state[k] == 0) continue;
        if (s.state[k] == 2) {
          fail(s.node,
               "shape " + std::to_string(id) + " (a piece of " + pname +
                   "): expected only '#' and '_' in a piece, found a variable cell '+' at " +
                   voxel::cell_text(cell_at(s, k)));
        }
        p.cells.push_back(cell_at(s, k));
        p.colours.push_back(s.colour[k]);
        coloured = coloured || s.colour[k];
      }
      if (!coloured) p.colours.clear();
      p.weight = s.weight;
      p.distinct = p.distinct || !p.groups.empty() || p.weight != 1;
      if (p.cells.empty())
        fail(s.node, "shape " + std::to_string(id) + " (a piece of " + pname +
                         "): expected at least one filled cell, found none");
      std::string name = s.name.empty() ? "S" + std::to_string(id + 1) : s.name;
      if (int& seen = names[name]; seen++ > 0) name += "_" + std::to_string(seen);
      p.name = name;
      m.pieces.push_back(std::move(p));
    }
    if (m.pieces.empty())
      fail(prob, pname + ": expected at least one piece in <shapes>, found none");
    for (pugi::xml_node pr = prob.child("bitmap").child("pair"); pr; pr = pr.next_sibling("pair")) {
      m.colour_pairs.push_back(
          {int(integer(pr, "piece", 0, 62)) + 1, int(integer(pr, "result", 0, 62)) + 1});
    }
    if (prob.attribute("maxHoles")) m.max_holes = int(integer(prob, "maxHoles", 0, 1000000));

    try {
      voxel::canonicalize(m);
    } catch (const voxel::ModelError& e) {
      fail(prob, pname + ": " + e.what());
    }

    // What the file says about itself.
    if (problems.size() > 1) {
      std::string others;
      for (std::size_t k = 0; k < problems.size(); ++k) {
        if (k == chosen) continue;
        others +=
            (others.empty() ? "" : ", ") + std::to_string(k + 1) + " \"" + out.problems[k] + "\"";
      }
      out.notes.push_back("BurrTools file with " + std::to_string(problems.size()) +
                          " problems: solving " + pname + "; --problem NAME|INDEX for " + others);
    }
    if (groups) {
      out.notes.push_back(
          "piece groups (pieces that may stay together when taken apart) only "
          "matter to disassembly (--disassemble); cubex counts assemblies without them");
    }
    const long state = integer(prob, "state", 0, 2, 0);
    if (state != 0 && (prob.attribute("assemblies") || prob.attribute("solutions"))) {
      Puzzle::RecordedCounts rc;
      rc.source = state == 2 ? "BurrTools (search complete)" : "BurrTools (search unfinished)";
      auto count = [&](const char* attr) -> std::optional<std::uint64_t> {
        if (!prob.attribute(attr)) return std::nullopt;
        return std::uint64_t(integer(prob, attr, 0, std::numeric_limits<long>::max()));
      };
      rc.assemblies = count("assemblies");
      rc.solutions = count("solutions");
      out.recorded = rc;
    }
    return out;
  }

 private:
  std::string_view text_;
  std::string file_;
};

// A voxel puzzle with what the file says about itself.
class XmPuzzle final : public Puzzle {
 public:
  XmPuzzle(std::unique_ptr<Puzzle> inner, Loaded loaded)
      : inner_(std::move(inner)), notes_(std::move(loaded.notes)), recorded_(loaded.recorded) {
    for (std::string& n : inner_->notes()) notes_.push_back(std::move(n));
  }
  std::string kind() const override { return inner_->kind(); }
  std::string name() const override { return inner_->name(); }
  const Problem& problem() const override { return inner_->problem(); }
  nlohmann::json solution_json(std::span<const OptionId> s) const override {
    return inner_->solution_json(s);
  }
  std::string solution_text(std::span<const OptionId> s) const override {
    return inner_->solution_text(s);
  }
  std::string coloured_solution_text(std::span<const OptionId> s) const override {
    return inner_->coloured_solution_text(s);
  }
  std::string verify_solution(const nlohmann::json& s) const override {
    return inner_->verify_solution(s);
  }
  CubeGroup symmetry_group(SymmetryMode mode, const Watch& watch = {}) const override {
    return inner_->symmetry_group(mode, watch);
  }
  std::optional<render::Scene> scene(const nlohmann::json& s) const override {
    return inner_->scene(s);
  }
  std::string option_label(OptionId o) const override { return inner_->option_label(o); }
  std::vector<std::pair<std::string, ItemId>> piece_items() const override {
    return inner_->piece_items();
  }
  std::string infeasible() const override { return inner_->infeasible(); }
  std::vector<std::string> notes() const override { return notes_; }
  std::optional<RecordedCounts> recorded_counts() const override { return recorded_; }
  std::optional<disassembly::Input> assembly(std::span<const OptionId> s) const override {
    return inner_->assembly(s);
  }

 private:
  std::unique_ptr<Puzzle> inner_;
  std::vector<std::string> notes_;
  std::optional<RecordedCounts> recorded_;
};

}  // namespace

Loaded parse_xmpuzzle(std::string_view text, const std::string& file, const LoadOptions& options) {
  return Reader(text, file).read(options);
}

Loaded read_xmpuzzle(const std::string& path, const LoadOptions& options) {
  // A regular file larger than the XML it may hold (gzip never grows data by more than a few
  // bytes per 16 KiB block) is refused before it is read.
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  const std::uint64_t max = options.limits.max_xml_bytes;
  if (!ec && std::filesystem::is_regular_file(path, ec) && size > max + max / 1000 + 4096) {
    throw InputError(path, "expected a BurrTools file of at most " + xml_size_text(max) +
                               " of XML, found a file of " + std::to_string(size) +
                               " bytes (raise the limit with --max-xml-bytes)");
  }
  const std::string text = gunzip(read_file(path, options.limits), path, options.limits);
  return parse_xmpuzzle(text, path, options);
}

std::unique_ptr<Puzzle> load_xmpuzzle(const std::string& path, const LoadOptions& options) {
  Loaded loaded = read_xmpuzzle(path, options);
  std::unique_ptr<Puzzle> inner = voxel::make_puzzle(loaded.model, path, false, options.limits);
  return std::make_unique<XmPuzzle>(std::move(inner), std::move(loaded));
}

voxel::Model load_xmpuzzle_model(const std::string& path, const LoadOptions& options) {
  return read_xmpuzzle(path, options).model;
}

// ---- writing
// -------------------------------------------------------------------------------------

namespace {

// XML text for an attribute value or element content. Tab, newline and carriage return are
// written as character references (an attribute would otherwise read them as spaces); the other
// control characters cannot be written in XML 1.0 at all, and are refused (InputError naming
// `path` and `what`), so that a written file always reads back.
std::string escape(std::string_view s, const std::string& path, const std::string& what) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20) || c == 0x7f) {
          char code[8];
          std::snprintf(code, sizeof code, "U+%04X",
                        static_cast<unsigned>(static_cast<unsigned char>(c)));
          throw InputError(path, "cannot write " + what + ": it holds the control character " +
                                     code + ", which BurrTools' XML cannot hold");
        }
        out += c;
    }
  }
  return out;
}

// One <voxel> over the bounding box of `cells` (moved so that it starts at 0).
std::string voxel_xml(const std::vector<Vec3>& cells, const std::vector<std::uint8_t>& state,
                      const std::vector<std::uint8_t>& colour, const std::string& name,
                      const std::string& path) {
  Vec3 lo = cells.front(), hi = cells.front();
  for (const Vec3& c : cells) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const Vec3 size = hi - lo + Vec3{1, 1, 1};
  std::vector<std::string> grid(std::size_t(size.x) * size.y * size.z, "_");
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Vec3 d = cells[k] - lo;
    std::string cell = state[k] == 2 ? "+" : "#";
    if (!colour.empty() && colour[k]) cell += std::to_string(colour[k]);
    grid[(std::size_t(d.z) * size.y + d.y) * size.x + d.x] = cell;
  }
  std::string out = "  <voxel x=\"" + std::to_string(size.x) + "\" y=\"" + std::to_string(size.y) +
                    "\" z=\"" + std::to_string(size.z) + "\" type=\"0\"";
  if (!name.empty())
    out += " name=\"" + escape(name, path, "the name \"" + excerpt(name) + "\"") + "\"";
  out += ">";
  for (const std::string& c : grid) out += c;
  return out + "</voxel>\n";
}

}  // namespace

std::string to_xml(const voxel::Model& model, const std::string& path) {
  if (model.mirror) {
    for (const voxel::Piece& p : model.pieces) {
      if (voxel::orientations(p.cells, p.colours, true).size() >
          voxel::orientations(p.cells, p.colours, false).size()) {
        throw InputError(path, "cannot write \"mirror\": true: BurrTools only turns pieces, and '" +
                                   p.name + "' differs from its mirror image");
      }
    }
  }
  // Each shape is written as its bounding box, cell by cell: the reader's limits (at most 1000
  // cells a side and 1,000,000 in all) hold before anything is built.
  auto check_box = [&](const std::vector<Vec3>& cells, const std::string& what) {
    if (cells.empty()) return;
    Vec3 lo = cells.front(), hi = cells.front();
    for (const Vec3& c : cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    const std::int64_t x = std::int64_t(hi.x) - lo.x + 1, y = std::int64_t(hi.y) - lo.y + 1,
                       z = std::int64_t(hi.z) - lo.z + 1;
    if (x > 1000 || y > 1000 || z > 1000 || x * y * z > 1000000) {
      throw InputError(path, "cannot write " + what +
                                 ": a BurrTools shape is written as its "
                                 "bounding box, here " +
                                 std::to_string(x) + "x" + std::to_string(y) + "x" +
                                 std::to_string(z) +
                                 " cells, and the limit is 1000 a side and "
                                 "1000000 cells in all");
    }
  };
  for (const voxel::Piece& p : model.pieces) check_box(p.cells, "piece '" + excerpt(p.name) + "'");
  check_box(model.cells, "the container");
  // One-sided pieces: BurrTools turns every piece over, so a piece kept face up must have no
  // more flat orientations in the container's plane than its allowed ones.
  for (std::size_t k = 0; k < model.pieces.size(); ++k) {
    const voxel::Piece& p = model.pieces[k];
    if (p.turn_over.value_or(model.turn_over)) continue;
    const auto face_up =
        voxel::orientations(p.cells, p.colours, voxel::allowed_symmetries(model, k));
    std::size_t flat = 0;
    for (const voxel::Orientation& o : voxel::orientations(p.cells, p.colours, false)) {
      bool in_plane = false;
      for (int axis = 0; axis < 3 && !in_plane; ++axis) {
        bool same = true;
        for (const Vec3& c : model.cells) same = same && c[axis] == model.cells.front()[axis];
        bool thin = true;
        for (const Vec3& c : o.cells) thin = thin && c[axis] == 0;
        in_plane = same && thin;
      }
      flat += in_plane;
    }
    if (flat > face_up.size()) {
      throw InputError(path,
                       "cannot write \"turn_over\": false: BurrTools turns every piece over, "
                       "and the one-sided piece '" +
                           excerpt(p.name) + "' differs from its mirror image (the count would change)");
    }
  }
  // Distinct congruent pieces: BurrTools counts congruent shapes as identical pieces.
  {
    voxel::Model kept = model, merged = model;
    for (voxel::Piece& p : merged.pieces) p.distinct = false;
    voxel::merge_congruent(kept);
    voxel::merge_congruent(merged);
    if (merged.pieces.size() < kept.pieces.size()) {
      for (const voxel::Model::Merged& m : merged.merged) {
        bool distinct = m.piece.distinct;
        for (const voxel::Piece& p : model.pieces)
          distinct = distinct || (p.name == m.into && p.distinct);
        if (!distinct) continue;
        throw InputError(path, "cannot write \"distinct\": true: pieces '" + excerpt(m.into) +
                                   "' and '" + excerpt(m.piece.name) +
                                   "' are congruent, and BurrTools counts congruent "
                                   "pieces as identical (the count would change)");
      }
    }
  }
  int colours = 0;
  for (const voxel::Piece& p : model.pieces)
    for (std::uint8_t c : p.colours) colours = std::max(colours, int(c));
  for (std::uint8_t c : model.cell_colour) colours = std::max(colours, int(c));
  for (const auto& [p, r] : model.colour_pairs) colours = std::max({colours, p, r});
  if (model.coloured) colours = std::max(colours, 1);  // colours defined: the rules apply

  std::string xml = "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n <gridType type=\"0\"/>\n";
  if (colours == 0) {
    xml += " <colors/>\n";
  } else {
    xml += " <colors>\n";
    for (int c = 0; c < colours; ++c) {
      // Distinct, readable colours (a fixed rotation of hues).
      const int r = (c * 97 + 200) % 256, g = (c * 53 + 60) % 256, b = (c * 151 + 120) % 256;
      xml += "  <color red=\"" + std::to_string(r) + "\" green=\"" + std::to_string(g) +
             "\" blue=\"" + std::to_string(b) + "\"/>\n";
    }
    xml += " </colors>\n";
  }
  xml += " <shapes>\n";
  for (const voxel::Piece& p : model.pieces) {
    xml +=
        voxel_xml(p.cells, std::vector<std::uint8_t>(p.cells.size(), 1), p.colours, p.name, path);
  }
  std::vector<std::uint8_t> state;
  for (std::uint8_t o : model.optional) state.push_back(o ? 2 : 1);
  xml += voxel_xml(model.cells, state, model.cell_colour, "result", path);
  xml += " </shapes>\n <problems>\n  <problem name=\"" +
         escape(model.name, path, "the name \"" + excerpt(model.name) + "\"") + "\" state=\"0\"";
  if (model.max_holes >= 0) xml += " maxHoles=\"" + std::to_string(model.max_holes) + "\"";
  xml += ">\n   <shapes>\n";
  for (std::size_t k = 0; k < model.pieces.size(); ++k) {
    const voxel::Piece& p = model.pieces[k];
    xml += "    <shape id=\"" + std::to_string(k) + "\"";
    xml += p.ranged() ? " min=\"" + std::to_string(p.fewest()) + "\" max=\"" +
                            std::to_string(p.count) + "\""
                      : " count=\"" + std::to_string(p.count) + "\"";
    xml += "/>\n";
  }
  xml += "   </shapes>\n   <result id=\"" + std::to_string(model.pieces.size()) + "\"/>\n";
  if (model.colour_pairs.empty()) {
    xml += "   <bitmap/>\n";
  } else {
    xml += "   <bitmap>\n";
    for (const auto& [p, r] : model.colour_pairs)
      xml += "    <pair piece=\"" + std::to_string(p - 1) + "\" result=\"" + std::to_string(r - 1) +
             "\"/>\n";
    xml += "   </bitmap>\n";
  }
  xml += "  </problem>\n </problems>\n";
  if (!model.comment.empty())
    xml += " <comment>" + escape(model.comment, path, "the comment") + "</comment>\n";
  xml += "</puzzle>\n";
  return xml;
}

std::string write_xmpuzzle(const voxel::Model& model, const std::string& path) {
  return gzip(to_xml(model, path));
}

}  // namespace cubex::burrtools
