// A voxel solution as disassembler input (cubex/voxel/assembly.hpp).
#include "cubex/voxel/assembly.hpp"

#include <stdexcept>
#include <string>

namespace cubex::disassembly {

namespace {

void add_kinds(const voxel::Model& model, Input& in) {
  in.groups.resize(model.pieces.size());
  for (std::size_t k = 0; k < model.pieces.size(); ++k) {
    for (const auto& [group, count] : model.pieces[k].groups)
      in.groups[k].push_back(GroupShare{group, count});
  }
}

}  // namespace

Input voxel_input(const voxel::Model& model, std::span<const voxel::PlacedPiece> placed) {
  Input in;
  add_kinds(model, in);
  for (const voxel::PlacedPiece& p : placed) {
    Piece piece;
    piece.cells = p.cells;
    piece.kind = p.piece;
    if (p.piece >= 0 && std::size_t(p.piece) < model.pieces.size())
      piece.weight = model.pieces[std::size_t(p.piece)].weight;
    in.pieces.push_back(std::move(piece));
  }
  return in;
}

Input voxel_input(const voxel::Model& model, const nlohmann::json& placements) {
  Input in;
  add_kinds(model, in);
  int extra = int(model.pieces.size());
  for (const nlohmann::json& p : placements) {
    if (!p.contains("cells") || !p["cells"].is_array() || p["cells"].empty())
      throw std::invalid_argument("disassembly: a placement without cells");
    Piece piece;
    for (const nlohmann::json& c : p["cells"])
      piece.cells.push_back({c.at(0).get<int>(), c.at(1).get<int>(), c.at(2).get<int>()});
    piece.kind = -1;
    const std::string name = p.value("piece", std::string());
    for (std::size_t k = 0; k < model.pieces.size(); ++k) {
      if (model.pieces[k].name == name) {
        piece.kind = int(k);
        piece.weight = model.pieces[k].weight;
        break;
      }
    }
    if (piece.kind < 0) piece.kind = extra++;
    in.pieces.push_back(std::move(piece));
  }
  return in;
}

}  // namespace cubex::disassembly
