// A voxel model as the project's JSON.
#include "cubex/voxel/write.hpp"

#include <algorithm>

namespace cubex::voxel {
namespace {

using nlohmann::json;

json cell(const Vec3& c) {
  return json::array({c.x, c.y, c.z});
}

// The cells as `layers[z][y]`, strings over x ('#' a cell, '+' an optional one, '.' none), where
// no coordinate is below 0 and the cells fill at least an eighth of the box from the origin to
// their far corner; else null (the caller writes the list).
json layers(const std::vector<Vec3>& cells, const std::vector<std::uint8_t>& optional) {
  Vec3 hi{0, 0, 0};
  for (const Vec3& c : cells) {
    if (c.x < 0 || c.y < 0 || c.z < 0) return nullptr;
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const std::size_t nx = std::size_t(hi.x) + 1, ny = std::size_t(hi.y) + 1,
                    nz = std::size_t(hi.z) + 1;
  if (nx * ny * nz > 8 * cells.size()) return nullptr;
  std::vector<std::string> rows(nz * ny, std::string(nx, '.'));
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Vec3& c = cells[k];
    rows[std::size_t(c.z) * ny + std::size_t(c.y)][std::size_t(c.x)] =
        k < optional.size() && optional[k] ? '+' : '#';
  }
  json out = json::array();
  for (std::size_t z = 0; z < nz; ++z) {
    json layer = json::array();
    for (std::size_t y = 0; y < ny; ++y) layer.push_back(rows[z * ny + y]);
    out.push_back(layer);
  }
  return out;
}

}  // namespace

json to_json(const Model& model) {
  json doc = json::object();
  if (!model.name.empty()) doc["name"] = model.name;
  doc["kind"] = "voxel";
  if (!model.comment.empty()) doc["comment"] = model.comment;

  // The container: a box when it is one.
  Vec3 lo = model.cells.front(), hi = model.cells.front();
  for (const Vec3& c : model.cells) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const std::size_t box =
      std::size_t(hi.x - lo.x + 1) * std::size_t(hi.y - lo.y + 1) * std::size_t(hi.z - lo.z + 1);
  bool coloured_cells = false;
  for (std::uint8_t c : model.cell_colour) coloured_cells = coloured_cells || c;
  json container = json::object();
  const json drawn = coloured_cells ? json(nullptr) : layers(model.cells, model.optional);
  if (lo == Vec3{} && box == model.cells.size() && model.num_must_fill() == model.cells.size() &&
      !coloured_cells) {
    container["box"] = json::array({hi.x + 1, hi.y + 1, hi.z + 1});
  } else if (!drawn.is_null()) {
    container["layers"] = drawn;
  } else {
    json must = json::array(), optional = json::array(), colours = json::array();
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t k = 0; k < model.cells.size(); ++k) {
        if (model.optional[k] != pass) continue;
        (pass ? optional : must).push_back(cell(model.cells[k]));
        colours.push_back(model.cell_colour.empty() ? 0 : model.cell_colour[k]);
      }
    container["cells"] = must;
    if (!optional.empty()) container["optional"] = optional;
    if (coloured_cells) container["colours"] = colours;
  }
  doc["container"] = container;

  json pieces = json::array();
  for (const Piece& p : model.pieces) {
    json j = json::object();
    j["name"] = p.name;
    const json drawn = p.colours.empty() ? layers(p.cells, {}) : json(nullptr);
    if (!drawn.is_null()) {
      j["layers"] = drawn;
    } else {
      json cells = json::array();
      for (const Vec3& c : p.cells) cells.push_back(cell(c));
      j["cells"] = cells;
    }
    if (p.ranged()) {
      j["count"] = json::array({p.fewest(), p.count});
    } else if (p.count != 1) {
      j["count"] = p.count;
    }
    if (!p.colours.empty()) j["colours"] = p.colours;
    if (p.distinct) j["distinct"] = true;
    if (p.turn_over && *p.turn_over != model.turn_over) j["turn_over"] = *p.turn_over;
    pieces.push_back(j);
  }
  doc["pieces"] = pieces;
  if (model.mirror) doc["mirror"] = true;
  if (!model.turn_over) doc["turn_over"] = false;
  if (model.coloured) {
    json pairs = json::array();
    for (const auto& [p, r] : model.colour_pairs) pairs.push_back(json::array({p, r}));
    doc["colour_pairs"] = pairs;
  }
  if (model.max_holes >= 0) doc["max_holes"] = model.max_holes;
  return doc;
}

namespace {

// Printed on one line: an array of numbers, strings (a layer's rows) or cells (up to three
// numbers each).
bool flat(const json& j) {
  if (!j.is_array()) return false;
  for (const json& e : j) {
    if (e.is_number() || e.is_string()) continue;
    if (!e.is_array() || e.size() > 3) return false;
    for (const json& n : e)
      if (!n.is_number()) return false;
  }
  return true;
}

void print(const json& j, int indent, std::string& out) {
  const std::string pad(std::size_t(indent) * 2, ' '), inner(std::size_t(indent + 1) * 2, ' ');
  if (j.is_object()) {
    static const char* const order[] = {"name",   "kind",    "comment",      "container",
                                        "box",    "cells",   "optional",     "layers",
                                        "count",  "colours", "distinct",     "turn_over",
                                        "pieces", "mirror",  "colour_pairs", "max_holes"};
    std::vector<std::string> keys;
    for (const char* k : order)
      if (j.contains(k)) keys.push_back(k);
    for (const auto& [k, v] : j.items())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    out += "{\n";
    for (std::size_t i = 0; i < keys.size(); ++i) {
      out += inner + json(keys[i]).dump() + ": ";
      print(j[keys[i]], indent + 1, out);
      out += i + 1 < keys.size() ? ",\n" : "\n";
    }
    out += pad + "}";
  } else if (j.is_array() && !flat(j)) {
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      out += inner;
      print(j[i], indent + 1, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += pad + "]";
  } else if (j.is_array()) {
    out += "[";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + j[i].dump();
    out += "]";
  } else {
    out += j.dump();
  }
}

}  // namespace

std::string to_json_text(const Model& model) {
  std::string out;
  print(to_json(model), 0, out);
  return out + "\n";
}

}  // namespace cubex::voxel
