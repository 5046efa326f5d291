// The text drawing of a solution: layers side by side, one letter per placed piece.
#include <algorithm>

#include "cubex/error.hpp"
#include "cubex/puzzle/colour.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex::voxel {

std::string draw(const Model& model, std::span<const PlacedPiece> placed, bool colour) {
  static constexpr char kLetters[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  // Piece names serve as letters when they are distinct single characters; the other copies of a
  // piece with several get the next free letters, and the legend says which is which.
  bool own = true;
  std::string used;
  for (const Piece& p : model.pieces) {
    const char ch = p.name.size() == 1 ? p.name[0] : '\0';
    own = own && ch > ' ' && ch < 0x7f && ch != '.' && ch != '+' && ch != '?' &&
          used.find(ch) == std::string::npos;
    used += ch;
  }
  if (!own) used.clear();
  std::size_t next = 0;
  std::vector<char> letter(placed.size());
  std::string legend;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const Piece& piece = model.pieces[std::size_t(placed[i].piece)];
    if (own && placed[i].copy == 0) {
      letter[i] = piece.name[0];
    } else {
      while (next + 1 < sizeof kLetters && used.find(kLetters[next]) != std::string::npos) ++next;
      letter[i] = next + 1 < sizeof kLetters ? kLetters[next] : '*';
      used += letter[i];
    }
    if (own && piece.count == 1) continue;
    std::string entry(1, letter[i]);
    entry += '=';
    entry += printable(piece.name);
    if (piece.count > 1) {
      entry += '#';
      entry += std::to_string(placed[i].copy);
    }
    const std::size_t line_start =
        legend.rfind('\n') == std::string::npos ? 0 : legend.rfind('\n') + 1;
    if (!legend.empty()) legend += legend.size() - line_start + entry.size() > 98 ? "\n" : " ";
    legend += entry;
  }

  Vec3 lo = model.cells.front(), hi = model.cells.front();
  for (const Vec3& c : model.cells) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const int w = hi.x - lo.x + 1, h = hi.y - lo.y + 1, layers = hi.z - lo.z + 1;
  // chars[z][y][x]
  std::vector<std::string> rows(std::size_t(layers) * h, std::string(std::size_t(w), '.'));
  auto at = [&](const Vec3& c) -> char& {
    return rows[std::size_t(c.z - lo.z) * h + std::size_t(c.y - lo.y)][std::size_t(c.x - lo.x)];
  };
  for (std::size_t k = 0; k < model.cells.size(); ++k)
    at(model.cells[k]) = model.optional[k] ? '+' : '?';
  for (std::size_t i = 0; i < placed.size(); ++i)
    for (const Vec3& c : placed[i].cells) at(c) = letter[i];
  // With colour: the escape that starts each letter's colour (letters are unique per placement).
  std::string escape[256];
  if (colour) {
    std::vector<std::vector<Vec3>> cells;
    for (const PlacedPiece& p : placed) cells.push_back(p.cells);
    const std::vector<int> c = render::assign_colours(cells);
    for (std::size_t i = 0; i < placed.size(); ++i) {
      escape[static_cast<unsigned char>(letter[i])] =
          render::ansi_colour(render::palette()[std::size_t(c[i])]);
    }
  }
  auto paint = [&](const std::string& row) {
    if (!colour) return row;
    std::string s;
    for (char ch : row) {
      const std::string& e = escape[static_cast<unsigned char>(ch)];
      s += e.empty() ? std::string(1, ch) : e + ch + render::kAnsiReset;
    }
    return s;
  };

  // Layers side by side, as many per band as fit in 100 columns.
  std::string out;
  const int col = std::max(w, int(std::to_string(hi.z).size()) + 2) + 2;
  const int per_band = std::max(1, 100 / col);
  for (int z0 = 0; z0 < layers; z0 += per_band) {
    const int z1 = std::min(layers, z0 + per_band);
    if (z0 > 0) out += "\n";
    std::string line;
    for (int z = z0; z < z1; ++z) {
      std::string head = "z=" + std::to_string(lo.z + z);
      line += head + std::string(std::size_t(col) - head.size(), ' ');
    }
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    for (int y = 0; y < h; ++y) {
      line.clear();
      for (int z = z0; z < z1; ++z) {
        line += paint(rows[std::size_t(z) * h + std::size_t(y)]) +
                (z + 1 < z1 ? std::string(std::size_t(col - w), ' ') : "");
      }
      out += line + "\n";
    }
  }
  if (!legend.empty()) out += legend + "\n";
  return out;
}

}  // namespace cubex::voxel
