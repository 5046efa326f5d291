// Streamed --json and --jsonl output of `cubex solve` (cubex/output/solve_output.hpp).
#include "cubex/output/solve_output.hpp"

#include "cubex/util/json.hpp"

#include <stdexcept>

#include "cubex/geometry.hpp"

namespace cubex {
namespace {

bool holds_object(const nlohmann::json& j) {
  if (j.is_object()) return true;
  if (j.is_array())
    for (const auto& e : j)
      if (holds_object(e)) return true;
  return false;
}

// `j` for people and for diff: an object or array without objects inside on one line (a
// matrix, the counts), larger ones a member per line, every line after the first indented by
// `indent`.
std::string pretty(const nlohmann::json& j, const std::string& indent) {
  bool flat = !j.is_structured();
  if (j.is_array()) flat = !holds_object(j);
  if (j.is_object()) {
    flat = true;
    for (const auto& [k, v] : j.items()) flat = flat && !holds_object(v);
  }
  if (flat) return dump_json(j);
  const std::string inner = indent + "  ";
  std::string out(1, j.is_array() ? '[' : '{');
  bool first = true;
  for (const auto& [key, value] : j.items()) {
    out += first ? "\n" : ",\n";
    first = false;
    out += inner;
    if (j.is_object()) out += dump_json(nlohmann::json(key)) + ": ";
    out += pretty(value, inner);
  }
  out += (first ? "" : "\n" + indent) + (j.is_array() ? "]" : "}");
  return out;
}

// The members of object `j` without its braces, compact: "\"a\":1,\"b\":2" ("" when empty).
std::string members(const nlohmann::json& j) {
  if (!j.is_object()) throw std::logic_error("SolveStream: expected a JSON object");
  const std::string text = dump_json(j);
  return text.substr(1, text.size() - 2);
}

}  // namespace

SolveStream::SolveStream(const std::string& path, StreamFormat format)
    : out_(path), format_(format) {}

void SolveStream::begin(const nlohmann::json& header) {
  if (format_ == StreamFormat::kJsonl) {
    const std::string rest = members(header);
    out_.write(std::string("{\"schema\":\"") + kSolveSchema + "\",\"type\":\"header\"" +
               (rest.empty() ? "" : ",") + rest + "}\n");
    return;
  }
  std::string text = std::string("{\n  \"schema\": \"") + kSolveSchema + "\"";
  for (const auto& [key, value] : header.items()) {
    text += ",\n  " + dump_json(nlohmann::json(key)) + ": " + pretty(value, "  ");
  }
  text += ",\n  \"solutions\": [";
  out_.write(text);
}

bool SolveStream::solution(const nlohmann::json& s) {
  const std::string rest = members(s);
  if (format_ == StreamFormat::kJsonl) {
    ++written_;
    return out_.write("{\"type\":\"solution\"" + std::string(rest.empty() ? "" : ",") + rest +
                      "}\n");
  }
  const bool first = written_++ == 0;
  return out_.write((first ? "\n    {" : ",\n    {") + rest + "}");
}

void SolveStream::end(const nlohmann::json& footer) {
  if (format_ == StreamFormat::kJsonl) {
    const std::string rest = members(footer);
    out_.write(std::string("{\"schema\":\"") + kSolveSchema + "\",\"type\":\"end\"" +
               (rest.empty() ? "" : ",") + rest + "}\n");
  } else {
    std::string text = written_ ? "\n  ]" : "]";
    for (const auto& [key, value] : footer.items()) {
      text += ",\n  " + dump_json(nlohmann::json(key)) + ": " + pretty(value, "  ");
    }
    text += "\n}\n";
    out_.write(text);
  }
  out_.commit();
}

nlohmann::json group_json(const Puzzle& puzzle, const CubeGroup& group) {
  const auto pieces = puzzle.piece_items();
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t k = 0; k < group.group.order(); ++k) {
    const int idx = k < group.symmetry.size() ? group.symmetry[k] : 0;
    const Mat3& m = cube_symmetries()[static_cast<std::size_t>(idx)];
    nlohmann::json perm = nlohmann::json::array();
    for (const auto& [name, item] : pieces) {
      const ItemId to = group.group.perm[k][item];
      std::string to_name = "?";
      for (const auto& [n2, i2] : pieces)
        if (i2 == to) to_name = n2;
      perm.push_back({name, to_name});
    }
    out.push_back({{"element", k},
                   {"symmetry", idx},
                   {"matrix", {m.m[0], m.m[1], m.m[2]}},
                   {"reflection", idx >= 24},
                   {"pieces", std::move(perm)}});
  }
  return out;
}

}  // namespace cubex
