// The text format of the wooden-cube solvers: one piece per line, `x y z x y z ...`.
#include <algorithm>
#include <charconv>

#include "cubex/error.hpp"
#include "cubex/util/files.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex::voxel {
namespace {

// The smallest orientation (as a sorted cell list) of a piece under the rotations: equal for
// congruent pieces, so it decides which lines are copies of one piece.
std::vector<Vec3> canonical_shape(const std::vector<Vec3>& cells) {
  std::vector<Vec3> best;
  for (const Orientation& o : orientations(cells, false)) {
    if (best.empty() || o.cells < best) best = o.cells;
  }
  return best;
}

std::string piece_name(std::size_t k) {
  if (k < 26) return std::string(1, char('A' + k));
  std::string s = "P";
  s += std::to_string(k + 1);
  return s;
}

}  // namespace

Model model_from_txt(std::string_view text, const std::string& file) {
  std::string storage;
  text = unix_newlines(text, storage);
  struct Line {
    int number;
    std::vector<Vec3> cells;
  };
  std::vector<Line> lines;
  int number = 0;
  while (!text.empty()) {
    ++number;
    const std::size_t eol = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(std::min(eol + 1, text.size()));
    line = line.substr(0, std::min(line.find('#'), line.size()));
    std::vector<int> numbers;
    std::vector<int> columns;
    std::size_t pos = 0;
    while (true) {
      pos = line.find_first_not_of(" \t\r,", pos);
      if (pos == std::string_view::npos) break;
      const std::size_t end = std::min(line.find_first_of(" \t\r,", pos), line.size());
      const std::string_view token = line.substr(pos, end - pos);
      int v = 0;
      auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      if (ec != std::errc() || ptr != token.data() + token.size() || v < -1000 || v > 1000) {
        throw InputError(file, number, int(pos) + 1,
                         "expected a coordinate (an integer from -1000 to 1000), found '" +
                             excerpt(token) + "'");
      }
      numbers.push_back(v);
      columns.push_back(int(pos) + 1);
      pos = end;
    }
    if (numbers.empty()) continue;
    if (numbers.size() % 3 != 0) {
      throw InputError(file, number, 0,
                       "expected coordinates in threes (x y z x y z ...), found " +
                           std::to_string(numbers.size()) + " numbers");
    }
    Line l{number, {}};
    for (std::size_t k = 0; k < numbers.size(); k += 3) {
      const Vec3 c{numbers[k], numbers[k + 1], numbers[k + 2]};
      if (std::find(l.cells.begin(), l.cells.end(), c) != l.cells.end()) {
        throw InputError(file, number, columns[k],
                         "expected a new cell, found " + std::to_string(c.x) + " " +
                             std::to_string(c.y) + " " + std::to_string(c.z) + " again");
      }
      l.cells.push_back(c);
    }
    lines.push_back(std::move(l));
  }
  if (lines.empty()) throw InputError(file, "expected at least one piece line, found none");

  Model m;
  Vec3 lo = lines[0].cells[0], hi = lo;
  std::vector<std::vector<Vec3>> shapes;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    for (const Vec3& c : lines[k].cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    std::vector<Vec3> shape = canonical_shape(lines[k].cells);
    auto same = std::find(shapes.begin(), shapes.end(), shape);
    if (same != shapes.end()) {
      ++m.pieces[std::size_t(same - shapes.begin())].count;
    } else {
      shapes.push_back(std::move(shape));
      m.pieces.push_back({piece_name(k), lines[k].cells, 1});
    }
  }
  if (long(hi.x - lo.x + 1) * (hi.y - lo.y + 1) * (hi.z - lo.z + 1) > 1000000) {
    throw InputError(file, "expected a bounding box of at most 1000000 cells");
  }
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) m.cells.push_back({x, y, z});
  m.optional.assign(m.cells.size(), 0);
  canonicalize(m);  // cannot fail: cells were checked above
  return m;
}

std::unique_ptr<Puzzle> load_txt(const std::string& path, const Limits& limits) {
  return make_puzzle(model_from_txt(read_text_file(path, limits), path), path, false, limits);
}

}  // namespace cubex::voxel
