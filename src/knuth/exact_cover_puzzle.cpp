// The exact-cover front end: Knuth's format in, options out.
#include <algorithm>
#include <filesystem>

#include "cubex/error.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/puzzle.hpp"

namespace cubex {
namespace {

class ExactCoverPuzzle final : public Puzzle {
 public:
  ExactCoverPuzzle(KnuthFile f, std::string name) : f_(std::move(f)), name_(std::move(name)) {}

  std::string kind() const override { return "exact-cover"; }
  std::string name() const override { return name_; }
  const Problem& problem() const override { return f_.problem; }
  // A matrix says nothing of its puzzle's shape: memo and search are each tried briefly.
  MemoHint memo_hint() const override { return MemoHint::kTrial; }

  nlohmann::json solution_json(std::span<const OptionId> solution) const override {
    nlohmann::json options = nlohmann::json::array();
    for (OptionId o : sorted(solution)) {
      nlohmann::json names = nlohmann::json::array();
      nlohmann::json colours = nlohmann::json::object();  // item -> colour, coloured items only
      const auto items = f_.problem.option(o);
      const auto cols = f_.problem.option_colours(o);
      for (std::size_t k = 0; k < items.size(); ++k) {
        names.push_back(f_.problem.item(items[k]).name);
        if (cols[k]) colours[f_.problem.item(items[k]).name] = f_.problem.colour_name(cols[k]);
      }
      options.push_back({{"option", o}, {"line", f_.option_line[o]}, {"items", names}});
      if (!colours.empty()) options.back()["colours"] = std::move(colours);
    }
    return {{"options", options}};
  }

  // Checks that every listed option is an option of the file (its items as a set) and that the
  // items are covered within their ranges, by counting names.
  std::string verify_solution(const nlohmann::json& solution) const override {
    const Problem& pb = f_.problem;
    if (!solution.is_object() || !solution.contains("options") || !solution["options"].is_array()) {
      return "expected an object with an \"options\" array";
    }
    std::vector<OptionId> chosen;
    const auto& opts = solution["options"];
    for (std::size_t k = 0; k < opts.size(); ++k) {
      const std::string where = "options[" + std::to_string(k) + "]";
      const auto& o = opts[k];
      if (!o.is_object() || !o.contains("option") || !o["option"].is_number_unsigned() ||
          !o.contains("items") || !o["items"].is_array()) {
        return where + ": expected {\"option\": N, \"items\": [...]}";
      }
      const auto id = o["option"].get<std::uint64_t>();
      if (id >= pb.num_options())
        return where + ": option " + std::to_string(id) + " does not exist";
      std::vector<std::string> listed, actual;
      for (const auto& n : o["items"]) {
        if (!n.is_string()) return where + ".items: expected item names";
        listed.push_back(n.get<std::string>());
      }
      for (ItemId i : pb.option(static_cast<OptionId>(id))) actual.push_back(pb.item(i).name);
      std::sort(listed.begin(), listed.end());
      std::sort(actual.begin(), actual.end());
      if (listed != actual)
        return where + ": its items are not those of option " + std::to_string(id);
      chosen.push_back(static_cast<OptionId>(id));
    }
    return check_solution(pb, chosen);
  }

  std::string solution_text(std::span<const OptionId> solution) const override {
    std::string out;
    for (OptionId o : sorted(solution)) {
      const auto items = f_.problem.option(o);
      const auto cols = f_.problem.option_colours(o);
      for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out += ' ';
        out += printable(f_.problem.item(items[k]).name);  // no raw control bytes
        if (cols[k]) out += ':' + f_.problem.colour_name(cols[k]);
      }
      out += '\n';
    }
    return out;
  }

 private:
  static std::vector<OptionId> sorted(std::span<const OptionId> s) {
    std::vector<OptionId> v(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    return v;
  }
  KnuthFile f_;
  std::string name_;
};

}  // namespace

std::unique_ptr<Puzzle> make_exact_cover(KnuthFile file, std::string name) {
  return std::make_unique<ExactCoverPuzzle>(std::move(file), std::move(name));
}

std::unique_ptr<Puzzle> load_exact_cover(const std::string& path, const Limits& limits) {
  return std::make_unique<ExactCoverPuzzle>(read_knuth_file(path, limits),
                                            std::filesystem::path(path).filename().string());
}

}  // namespace cubex
