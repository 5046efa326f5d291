// SVG pictures of a solution. The isometric views project unit cubes onto the triangle lattice:
// every visible cube face is a rhombus made of two lattice triangles, so each lattice triangle is
// given to the face nearest to the viewer covering it, and nothing is painted over anything else.
#include "cubex/render/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "cubex/error.hpp"
#include "cubex/puzzle/colour.hpp"
#include "cubex/render/steps.hpp"

namespace cubex::render {
namespace {

constexpr double kCos30 = 0.86602540378443864676;
// Line widths: the seams between the cells of one piece, and the boundaries of pieces (between
// two pieces, and around the outside), four times as heavy.
constexpr double kSeam = 0.6, kHeavy = 2.4;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s == "-0.0") s = "0.0";
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

// A point of the triangle lattice: screen x = u * cos 30, y = w / 2 (one cube edge = 1). The
// viewer is at +x +y +z with z up; +x runs to the lower left, +y to the lower right (a proper view,
// not a mirror image: mirror-image pieces stay told apart).
struct Lp {
  int u = 0, w = 0;
  friend auto operator<=>(const Lp&, const Lp&) = default;
};

Lp project(const Vec3& p) {
  return {p.y - p.x, p.x + p.y - 2 * p.z};
}

struct Box {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  void add(double x, double y) {
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
  }
  double w() const { return x1 > x0 ? x1 - x0 : 0; }
  double h() const { return y1 > y0 ? y1 - y0 : 0; }
};

// A drawing in its own coordinates (pixels) with its bounding box.
struct Drawing {
  std::vector<std::string> piece_svg;  // the shapes of each piece (without the <g>)
  std::string outline;                 // path data of the heavy lines
  Box box;
};

// The isometric view (seen from +x +y +z, z up) of `pieces` (indices into scene.pieces) with
// cube edge `s` pixels.
Drawing iso(const Scene& scene, const std::vector<std::size_t>& pieces, double s) {
  std::map<Vec3, std::size_t> occupied;
  for (std::size_t p : pieces)
    for (const Vec3& c : scene.pieces[p].cells) occupied.emplace(c, p);

  struct Face {
    std::size_t piece;
    int dir;
    std::array<Lp, 4> v;
    int owned = 0;
    bool tri_owned[2] = {false, false};
    std::array<std::array<Lp, 3>, 2> tri;
  };
  std::vector<Face> faces;
  struct Owner {
    std::size_t face;
    int tri;
    int depth;
  };
  std::map<Lp, Owner> owner;  // keyed by the sum of a triangle's three corners
  static constexpr Vec3 kDir[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (const auto& [c, p] : occupied) {
    for (int d = 0; d < 3; ++d) {
      if (occupied.count(c + kDir[d])) continue;  // hidden behind a neighbour
      std::array<Vec3, 4> q;
      const int x = c.x, y = c.y, z = c.z;
      if (d == 0)
        q = {{{x + 1, y, z}, {x + 1, y + 1, z}, {x + 1, y + 1, z + 1}, {x + 1, y, z + 1}}};
      if (d == 1)
        q = {{{x, y + 1, z}, {x + 1, y + 1, z}, {x + 1, y + 1, z + 1}, {x, y + 1, z + 1}}};
      if (d == 2)
        q = {{{x, y, z + 1}, {x + 1, y, z + 1}, {x + 1, y + 1, z + 1}, {x, y + 1, z + 1}}};
      Face f{p, d, {}, 0, {false, false}, {}};
      for (int i = 0; i < 4; ++i) f.v[std::size_t(i)] = project(q[std::size_t(i)]);
      // Split along the diagonal that is a lattice edge (the short one).
      const Lp a = f.v[0], cc = f.v[2];
      const int du = a.u - cc.u, dw = a.w - cc.w;
      const bool ac = (std::abs(du) == 1 && std::abs(dw) == 1) || (du == 0 && std::abs(dw) == 2);
      const int s0 = ac ? 0 : 1;
      std::array<int, 3> t0 = {s0, s0 + 1, (s0 + 2) % 4}, t1 = {s0, (s0 + 2) % 4, (s0 + 3) % 4};
      const std::size_t fi = faces.size();
      for (int t = 0; t < 2; ++t) {
        const auto& idx = t == 0 ? t0 : t1;
        Lp key;
        int depth = 0;
        for (int k = 0; k < 3; ++k) {
          const Lp& v = f.v[std::size_t(idx[std::size_t(k)])];
          f.tri[std::size_t(t)][std::size_t(k)] = v;
          key.u += v.u;
          key.w += v.w;
          const Vec3& v3 = q[std::size_t(idx[std::size_t(k)])];
          depth += v3.x + v3.y + v3.z;
        }
        auto it = owner.find(key);
        if (it == owner.end() || it->second.depth < depth) owner[key] = {fi, t, depth};
      }
      faces.push_back(f);
    }
  }
  for (const auto& [key, o] : owner) {
    faces[o.face].tri_owned[o.tri] = true;
    ++faces[o.face].owned;
  }

  Drawing out;
  std::map<std::size_t, std::size_t> slot;
  for (std::size_t i = 0; i < pieces.size(); ++i) slot[pieces[i]] = i;
  out.piece_svg.resize(pieces.size());
  auto px = [s](const Lp& p) { return std::pair<double, double>{p.u * kCos30 * s, p.w * 0.5 * s}; };
  auto points = [&](auto begin, auto end) {
    std::string pts;
    for (auto it = begin; it != end; ++it) {
      const auto [x, y] = px(*it);
      out.box.add(x, y);
      if (!pts.empty()) pts += ' ';
      pts += num(x) + "," + num(y);
    }
    return pts;
  };
  static constexpr double kShade[3] = {0.62, 0.8, 1.0};  // +x left, +y right, +z top
  for (const Face& f : faces) {
    if (f.owned == 0) continue;
    const Rgb fill = shade(scene.pieces[f.piece].colour, kShade[f.dir]);
    const std::string style =
        "\" fill=\"" + hex(fill) + "\" stroke=\"" + hex(shade(fill, 0.6)) + "\"/>";
    std::string& dst = out.piece_svg[slot[f.piece]];
    if (f.owned == 2) {
      dst += "<polygon points=\"" + points(f.v.begin(), f.v.end()) + style;
    } else {
      const auto& t = f.tri[f.tri_owned[0] ? 0 : 1];
      dst += "<polygon points=\"" + points(t.begin(), t.end()) + style;
    }
  }
  // Heavy lines where a triangle borders another piece or the background.
  for (const auto& [key, o] : owner) {
    const Face& f = faces[o.face];
    const auto& t = f.tri[std::size_t(o.tri)];
    for (int k = 0; k < 3; ++k) {
      const Lp& p = t[std::size_t(k)];
      const Lp& q = t[std::size_t((k + 1) % 3)];
      const Lp& r = t[std::size_t((k + 2) % 3)];
      const Lp other{2 * (p.u + q.u) - r.u, 2 * (p.w + q.w) - r.w};
      auto it = owner.find(other);
      const bool edge =
          it == owner.end() || (faces[it->second.face].piece != f.piece && key < other);
      if (!edge) continue;
      const auto [x0, y0] = px(p);
      const auto [x1, y1] = px(q);
      out.outline += "M" + num(x0) + " " + num(y0) + "L" + num(x1) + " " + num(y1);
    }
  }
  return out;
}

// A plain 2-D drawing of a flat voxel puzzle: the thin axis dropped, cells as squares.
Drawing flat(const Scene& scene, double s) {
  int thin = 2;
  for (int a = 2; a >= 0; --a) {
    const auto [lo, hi] =
        std::minmax_element(scene.container.begin(), scene.container.end(),
                            [a](const Vec3& p, const Vec3& q) { return p[a] < q[a]; });
    if ((*lo)[a] == (*hi)[a]) thin = a;
  }
  const int ax = thin == 0 ? 1 : 0, ay = thin == 2 ? 1 : 2;
  const int ysign = ay == 2 ? -1 : 1;  // z is drawn upward, y downward as in the text drawing
  auto cell = [&](const Vec3& c) { return std::pair<int, int>{c[ax], ysign * c[ay]}; };
  std::map<std::pair<int, int>, std::size_t> owner;
  const std::size_t kEmpty = scene.pieces.size();
  for (const Vec3& c : scene.container) owner[cell(c)] = kEmpty;
  for (std::size_t p = 0; p < scene.pieces.size(); ++p)
    for (const Vec3& c : scene.pieces[p].cells) owner[cell(c)] = p;

  Drawing out;
  out.piece_svg.resize(scene.pieces.size());
  std::string empty;
  for (const auto& [xy, p] : owner) {
    const double x = xy.first * s, y = xy.second * s;
    out.box.add(x, y);
    out.box.add(x + s, y + s);
    const std::string rect = "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(s) +
                             "\" height=\"" + num(s) + "\" fill=\"";
    if (p == kEmpty) {
      empty += rect + "#eeeeee\" stroke=\"#bbbbbb\"/>";
      continue;
    }
    const Rgb fill = scene.pieces[p].colour;
    out.piece_svg[p] += rect + hex(fill) + "\" stroke=\"" + hex(shade(fill, 0.6)) + "\"/>";
  }
  // Names at the cell nearest each piece's centre.
  for (std::size_t p = 0; p < scene.pieces.size(); ++p) {
    const auto& cells = scene.pieces[p].cells;
    if (cells.empty()) continue;
    double mx = 0, my = 0;
    for (const Vec3& c : cells) {
      mx += cell(c).first;
      my += cell(c).second;
    }
    mx /= double(cells.size());
    my /= double(cells.size());
    std::pair<int, int> best = cell(cells[0]);
    double bd = 1e300;
    for (const Vec3& c : cells) {
      const auto xy = cell(c);
      const double d = (xy.first - mx) * (xy.first - mx) + (xy.second - my) * (xy.second - my);
      if (d < bd) {
        bd = d;
        best = xy;
      }
    }
    const double luma = 0.299 * scene.pieces[p].colour.r + 0.587 * scene.pieces[p].colour.g +
                        0.114 * scene.pieces[p].colour.b;
    out.piece_svg[p] += "<text x=\"" + num((best.first + 0.5) * s) + "\" y=\"" +
                        num((best.second + 0.5) * s + 4.5) + "\" text-anchor=\"middle\" fill=\"" +
                        (luma > 140 ? "#000000" : "#ffffff") + "\">" +
                        xml_escape(scene.pieces[p].name) + "</text>";
  }
  if (!empty.empty()) out.piece_svg.push_back(empty);  // the last entry: empty cells
  // Heavy lines between different owners and around the outside.
  for (const auto& cell : owner) {
    // (no structured bindings here: clang 14 cannot capture them in the lambdas below)
    const int x = cell.first.first, y = cell.first.second;
    const auto p = cell.second;
    const std::pair<int, int> right{x + 1, y}, down{x, y + 1}, left{x - 1, y}, up{x, y - 1};
    auto differs = [&](const std::pair<int, int>& n) {
      auto it = owner.find(n);
      return it == owner.end() || it->second != p;
    };
    auto seg = [&](double x0, double y0, double x1, double y1) {
      out.outline += "M" + num(x0 * s) + " " + num(y0 * s) + "L" + num(x1 * s) + " " + num(y1 * s);
    };
    if (differs(right)) seg(x + 1, y, x + 1, y + 1);
    if (differs(down)) seg(x, y + 1, x + 1, y + 1);
    if (!owner.count(left)) seg(x, y, x, y + 1);
    if (!owner.count(up)) seg(x, y, x + 1, y);
  }
  return out;
}

// The Happy Cube nets: every cube's cross, side by side under its caption, every plate as an
// n x n block of squares in its place; a face where the cube joins another one is a dashed
// square.
Drawing net(const Scene& scene, double s) {
  const int n = scene.net_size;
  const double block = n * s, gap = s * 1.6;
  const double group_width = 3 * (block + gap) + gap;
  const bool captions = scene.net_groups.size() > 1;
  const double top = captions ? gap * 1.6 : 0;
  auto origin = [&](int group, int row, int col) {
    return std::pair<double, double>{group * group_width + col * (block + gap),
                                     top + row * (block + gap) + gap};
  };
  Drawing out;
  out.piece_svg.resize(scene.pieces.size());
  std::string extra;  // captions and gaps: drawn with the empty cells, not with any piece
  if (captions) {
    for (std::size_t g = 0; g < scene.net_groups.size(); ++g) {
      const double x = double(g) * group_width;
      extra += "<text x=\"" + num(x) + "\" y=\"" + num(top - gap * 0.9) +
               "\" font-weight=\"bold\">" + xml_escape(scene.net_groups[g]) + "</text>";
      out.box.add(x, top - gap * 1.9);
    }
  }
  for (const NetGap& g : scene.net_gaps) {
    const auto [bx, by] = origin(g.group, g.row, g.col);
    extra += "<rect x=\"" + num(bx) + "\" y=\"" + num(by) + "\" width=\"" + num(block) +
             "\" height=\"" + num(block) +
             "\" fill=\"#f4f4f4\" stroke=\"#999999\" stroke-dasharray=\"3 3\"/><text x=\"" +
             num(bx + block / 2) + "\" y=\"" + num(by + block / 2 + 4) +
             "\" text-anchor=\"middle\" font-size=\"10\" fill=\"#666666\">" + xml_escape(g.label) +
             "</text>";
    out.box.add(bx, by);
    out.box.add(bx + block, by + block);
  }
  for (const NetPlate& plate : scene.net) {
    const auto [bx, by] = origin(plate.group, plate.row, plate.col);
    std::string& dst = out.piece_svg[plate.piece];
    const Rgb fill = scene.pieces[plate.piece].colour;
    dst += "<text x=\"" + num(bx) + "\" y=\"" + num(by - 4) + "\">" + xml_escape(plate.label) +
           "</text>";
    dst += "<rect x=\"" + num(bx) + "\" y=\"" + num(by) + "\" width=\"" + num(block) +
           "\" height=\"" + num(block) +
           "\" fill=\"none\" stroke=\"#cccccc\" stroke-dasharray=\"2 2\"/>";
    auto filled = [&](int r, int c) {
      return r >= 0 && c >= 0 && r < n && c < n && plate.grid[std::size_t(r * n + c)];
    };
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        if (!filled(r, c)) continue;
        const double x = bx + c * s, y = by + r * s;
        dst += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(s) +
               "\" height=\"" + num(s) + "\" fill=\"" + hex(fill) + "\" stroke=\"" +
               hex(shade(fill, 0.6)) + "\"/>";
        auto seg = [&](double x0, double y0, double x1, double y1) {
          out.outline += "M" + num(x0) + " " + num(y0) + "L" + num(x1) + " " + num(y1);
        };
        if (!filled(r, c + 1)) seg(x + s, y, x + s, y + s);
        if (!filled(r, c - 1)) seg(x, y, x, y + s);
        if (!filled(r + 1, c)) seg(x, y + s, x + s, y + s);
        if (!filled(r - 1, c)) seg(x, y, x + s, y);
      }
    }
    out.box.add(bx, by - s * 1.2);
    out.box.add(bx + std::max(block, 7.5 * double(plate.label.size())), by + block);
  }
  if (!extra.empty()) out.piece_svg.push_back(extra);  // the last entry, as in flat()
  return out;
}

// Places a drawing's pieces and outline in <g> elements at (x, y) for its top-left corner.
std::string place(const Scene& scene, const Drawing& d, const std::string& id, double x, double y) {
  // Cell seams thin (inherited by every square), piece boundaries heavy (the outline).
  std::string out = "<g class=\"view\" id=\"" + id + "\" stroke-width=\"" + num(kSeam) +
                    "\" transform=\"translate(" + num(x - d.box.x0) + "," + num(y - d.box.y0) +
                    ")\">\n";
  for (std::size_t p = 0; p < d.piece_svg.size(); ++p) {
    if (p >= scene.pieces.size()) {
      out += "<g class=\"empty\">" + d.piece_svg[p] + "</g>\n";
      continue;
    }
    out += "<g class=\"piece\" data-piece=\"" + xml_escape(scene.pieces[p].name) + "\">" +
           d.piece_svg[p] + "</g>\n";
  }
  out += "<path class=\"outline\" fill=\"none\" stroke=\"#000000\" stroke-width=\"" + num(kHeavy) +
         "\" stroke-linecap=\"round\" d=\"" + d.outline + "\"/>\n</g>\n";
  return out;
}

// The scene turned over: the rotation (x, y, z) -> (-y, -x, -z) (a half turn about the axis
// x = -y) brings the faces -x, -y, -z into the view of iso().
Scene turned_over(const Scene& scene) {
  Scene back = scene;
  for (ScenePiece& p : back.pieces) {
    for (Vec3& c : p.cells) c = {-c.y - 1, -c.x - 1, -c.z - 1};  // unit cube [c, c+1] turned
    std::sort(p.cells.begin(), p.cells.end());
  }
  return back;
}

std::string document(const Scene& scene, const std::string& caption, const std::string& body,
                     double width, double height) {
  const double margin = 20;
  // The legend: one swatch and name per piece, in rows.
  std::string legend = "<g class=\"legend\" id=\"legend\">\n";
  const double ly = height + 24;
  double lx = margin, row = 0;
  const double legend_width = std::max(width - margin, 360.0);
  for (const ScenePiece& p : scene.pieces) {
    const double w = 30 + 8.0 * double(p.name.size());
    if (lx + w > legend_width && lx > margin) {
      lx = margin;
      ++row;
    }
    const double y = ly + row * 22;
    legend += "<rect x=\"" + num(lx) + "\" y=\"" + num(y - 12) +
              "\" width=\"14\" height=\"14\" fill=\"" + hex(p.colour) +
              "\" stroke=\"#000000\"/><text x=\"" + num(lx + 19) + "\" y=\"" + num(y) + "\">" +
              xml_escape(p.name) + "</text>\n";
    lx += w;
  }
  legend += "</g>\n";
  height = ly + row * 22 + 16;
  width = std::max(width, legend_width + margin);

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(std::ceil(width)) +
         "\" height=\"" + num(std::ceil(height)) + "\" viewBox=\"0 0 " + num(std::ceil(width)) +
         " " + num(std::ceil(height)) +
         "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\" "
         "stroke-linejoin=\"round\">\n";
  out += "<title>" + xml_escape(scene.title + ": " + caption) + "</title>\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += "<text x=\"" + num(margin) + "\" y=\"26\" font-size=\"17\" font-weight=\"bold\">" +
         xml_escape(scene.title) + "</text>\n";
  out += "<text x=\"" + num(margin) + "\" y=\"45\" fill=\"#555555\">" + xml_escape(caption) +
         "</text>\n";
  out += body + legend + "</svg>\n";
  return out;
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (const std::size_t len = utf8_length(s, i); len != 1) {
      // A multi-byte character as it is; a byte that is not UTF-8 (a file name in a legacy
      // encoding) as U+FFFD, so that the document stays well-formed.
      out += len == 0 ? std::string("\xef\xbf\xbd") : s.substr(i, len);
      i += len == 0 ? 0 : len - 1;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string svg(const Scene& scene, const std::string& caption) {
  const double margin = 20, top = 62;
  std::string body;
  double width = 0, height = 0;
  std::vector<std::size_t> all(scene.pieces.size());
  for (std::size_t p = 0; p < all.size(); ++p) all[p] = p;

  if (scene.net_size > 0) {  // Happy Cube: the net, then the folded cube
    const Drawing n = net(scene, 14);
    const double s = std::clamp(160.0 / (scene.net_size * 2), 6.0, 18.0);
    const Drawing folded = iso(scene, all, s), back = iso(turned_over(scene), all, s);
    body += place(scene, n, "net", margin, top);
    const double fx = margin + n.box.w() + 50;
    body += "<text x=\"" + num(fx) + "\" y=\"" + num(top + 8) + "\">folded</text>\n";
    body += place(scene, folded, "assembled", fx, top + 20);
    const double by = top + 20 + folded.box.h() + 40;
    body += "<text x=\"" + num(fx) + "\" y=\"" + num(by - 12) + "\">turned over</text>\n";
    body += place(scene, back, "turned-over", fx, by);
    width = fx + std::max(folded.box.w(), back.box.w()) + margin;
    height = top + std::max(n.box.h(), by - top + back.box.h());
  } else if (scene.flat()) {
    const Drawing d = flat(scene, 28);
    body += place(scene, d, "flat", margin, top);
    width = margin * 2 + d.box.w();
    height = top + d.box.h();
  } else {  // the assembled puzzle, then every piece alone in its place
    const Drawing whole = iso(scene, all, 26), back = iso(turned_over(scene), all, 26);
    body += place(scene, whole, "assembled", margin, top);
    const double by = top + whole.box.h() + 40;
    body += "<text x=\"" + num(margin) + "\" y=\"" + num(by - 12) + "\">turned over</text>\n";
    body += place(scene, back, "turned-over", margin, by);
    std::vector<Drawing> parts;
    double cw = 0, ch = 0;
    for (std::size_t p : all) {
      parts.push_back(iso(scene, {p}, 18));
      cw = std::max(cw, parts.back().box.w());
      ch = std::max(ch, parts.back().box.h());
    }
    cw += 24;
    ch += 34;
    const double gx = margin + std::max(whole.box.w(), back.box.w()) + 50;
    const std::size_t cols = std::max<std::size_t>(
        1, std::min<std::size_t>(all.size(), std::size_t(std::max(1.0, 620 / cw))));
    std::string gallery = "<g class=\"view\" id=\"pieces\">\n";
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const double x = gx + double(p % cols) * cw, y = top + double(p / cols) * ch;
      const Drawing& d = parts[p];
      const double ox = x + (cw - 24 - d.box.w()) / 2 - d.box.x0, oy = y - d.box.y0;
      gallery += "<g class=\"piece\" data-piece=\"" + xml_escape(scene.pieces[p].name) +
                 "\" stroke-width=\"" + num(kSeam) + "\" transform=\"translate(" + num(ox) + "," +
                 num(oy) + ")\">" + d.piece_svg[0] +
                 "<path class=\"outline\" fill=\"none\" stroke=\"#000000\" stroke-width=\"" +
                 num(kHeavy) + "\" stroke-linecap=\"round\" d=\"" + d.outline + "\"/></g>\n";
      gallery += "<text x=\"" + num(x + (cw - 24) / 2) + "\" y=\"" + num(y + ch - 14) +
                 "\" text-anchor=\"middle\">" + xml_escape(scene.pieces[p].name) + "</text>\n";
    }
    body += gallery + "</g>\n";
    const double rows = double((parts.size() + cols - 1) / cols);
    width = std::max(gx + double(cols) * cw, margin * 2 + std::max(whole.box.w(), back.box.w()));
    height = std::max(by + back.box.h(), top + rows * ch);
  }

  return document(scene, caption, body, width, height);
}

std::string svg_steps(const Scene& scene, const Steps& steps, const std::string& caption) {
  if (steps.moves.empty()) throw std::invalid_argument("svg_steps: no moves to draw");
  const double margin = 20, top = 62, cell = 15, pad = 26, label = 34;
  // Panel 0: the assembled puzzle; panel k: the part that move k takes apart, after the move,
  // the moving group in its colours and the rest paled.
  struct Panel {
    Drawing d;
    Scene sc;  // the pieces drawn (the names of their <g>)
    std::string text;
  };
  std::vector<Panel> panels;
  double pw = 0, ph = 0;
  for (std::size_t k = 0; k <= steps.moves.size(); ++k) {
    Panel panel;
    panel.sc.kind = scene.kind;
    std::vector<std::size_t> shown;
    std::vector<bool> moving(scene.pieces.size(), false);
    if (k == 0) {
      for (std::size_t p = 0; p < scene.pieces.size(); ++p) shown.push_back(p);
      panel.text = "assembled";
    } else {
      const SceneMove& m = steps.moves[k - 1];
      shown = m.part;
      for (std::size_t p : m.pieces) moving[p] = true;
      panel.text = std::to_string(k) + ". " + m.text;
    }
    const std::vector<Vec3> at = offsets_after(steps, scene.pieces.size(), k, false);
    for (std::size_t p : shown) {
      ScenePiece piece = scene.pieces[p];
      for (Vec3& c : piece.cells) c = c + at[p];
      if (k > 0 && !moving[p]) {
        const Rgb c = piece.colour;
        auto pale = [](std::uint8_t v) { return std::uint8_t(v + (255 - v) * 0.6); };
        piece.colour = {pale(c.r), pale(c.g), pale(c.b)};
      }
      panel.sc.pieces.push_back(std::move(piece));
    }
    std::vector<std::size_t> all(panel.sc.pieces.size());
    for (std::size_t p = 0; p < all.size(); ++p) all[p] = p;
    panel.d = iso(panel.sc, all, cell);
    pw = std::max(pw, panel.d.box.w());
    ph = std::max(ph, panel.d.box.h());
    panels.push_back(std::move(panel));
  }
  pw = std::max(pw + pad, 150.0);
  ph += label + pad;
  const std::size_t cols =
      std::max<std::size_t>(1, std::min(panels.size(), std::size_t(std::max(1.0, 1000 / pw))));
  std::string body = "<text x=\"" + num(margin) + "\" y=\"" + num(top - 4) + "\">takes apart in " +
                     std::to_string(steps.moves.size()) +
                     (steps.moves.size() == 1 ? " move" : " moves") + ", level " +
                     xml_escape(steps.level) + "</text>\n";
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const Panel& p = panels[k];
    const double x = margin + double(k % cols) * pw, y = top + 16 + double(k / cols) * ph;
    body += "<g class=\"step\" data-step=\"" + std::to_string(k) + "\">\n";
    body += place(p.sc, p.d, "step-" + std::to_string(k), x + (pw - pad - p.d.box.w()) / 2,
                  y + (ph - label - pad - p.d.box.h()) / 2);
    body += "<text x=\"" + num(x + (pw - pad) / 2) + "\" y=\"" + num(y + ph - pad - 8) +
            "\" text-anchor=\"middle\">" + xml_escape(p.text) + "</text>\n</g>\n";
  }
  const double rows = double((panels.size() + cols - 1) / cols);
  return document(scene, caption, body, margin * 2 + double(cols) * pw - pad, top + 16 + rows * ph);
}

}  // namespace cubex::render
