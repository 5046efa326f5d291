// cubex verify PUZZLE SOLUTIONS.json [--json OUT] - re-checks every solution of a
// `cubex solve --json` (or --jsonl) file.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/output/solve_output.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

// The solutions of a `cubex solve --json` document or a `--jsonl` stream (recognised by its
// first line: an object with "type": "header").
nlohmann::json read_solutions(const std::string& path) {
  const std::string text = read_file(path);
  const std::size_t eol = text.find('\n');
  const nlohmann::json first =
      nlohmann::json::parse(text.substr(0, eol), nullptr, /*allow_exceptions=*/false);
  if (eol != std::string::npos && first.is_object() && first.value("type", "") == "header") {
    nlohmann::json sols = nlohmann::json::array();
    std::size_t start = 0;
    int line = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      ++line;
      const std::string_view row(text.data() + start, end - start);
      start = end + 1;
      if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      nlohmann::json j = nlohmann::json::parse(row, nullptr, /*allow_exceptions=*/false);
      if (!j.is_object() || !j.contains("type")) {
        throw InputError(path, line, 1,
                         "expected a JSON object with a \"type\" per line (cubex solve --jsonl)");
      }
      if (j["type"] == "solution") sols.push_back(std::move(j));
    }
    return nlohmann::json{{"schema", first.value("schema", "")}, {"solutions", std::move(sols)}};
  }
  return parse_json_text(text, path);
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex verify PUZZLE SOLUTIONS.json [--json OUT]\n\n"
      "Re-checks every solution in SOLUTIONS.json (written by 'cubex solve PUZZLE --all --json',\n"
      "or --jsonl) against PUZZLE from scratch. Exit status 0 when all are valid, 2 otherwise.\n\n"
      "options");
  std::uint64_t max_nodes = Limits{}.max_nodes;
  std::string json_out;
  XmlLimitFlags xml;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("quiet,q", "print only failures and the summary")
    ("json", po::value(&json_out),
     "also write the result to OUT as JSON (schema cubex-verify/1; '-': standard output, the "
     "text then goes to stderr)")
    ("max-nodes", po::value(&max_nodes), "as for 'cubex solve': the largest matrix to build");
  // clang-format on
  add_xml_limit_options(opts, xml);
  std::vector<std::string> files;
  po::options_description hidden;
  hidden.add_options()("files", po::value(&files));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "files", 2, vm)) return kExitOk;
  if (files.size() != 2) throw UsageError("expected PUZZLE and SOLUTIONS.json");

  LoadOptions load;
  set_max_nodes(load.limits, max_nodes);
  apply_xml_limits(xml, load.limits);
  if (!json_out.empty()) refuse_overwriting_input("json", json_out, files);
  g_activity = "reading and compiling the puzzle";
  std::unique_ptr<Puzzle> puzzle = load_puzzle(files[0], load);
  g_activity = "reading and checking the solutions";
  const nlohmann::json doc = read_solutions(files[1]);
  if (!doc.is_object() || !doc.contains("solutions") || !doc["solutions"].is_array()) {
    throw InputError(files[1], "", "expected an object with a \"solutions\" array");
  }
  if (doc.contains("schema") && doc["schema"] != kSolveSchema) {
    throw InputError(
        files[1], "schema",
        std::string("expected \"") + kSolveSchema + "\", found " + doc["schema"].dump());
  }
  std::ostream& text = json_out == "-" ? std::cerr : std::cout;
  nlohmann::json invalid = nlohmann::json::array();
  const auto& sols = doc["solutions"];
  std::size_t bad = 0;
  for (std::size_t k = 0; k < sols.size(); ++k) {
    std::string why = puzzle->verify_solution(sols[k]);
    if (!why.empty()) {
      ++bad;
      std::cerr << "cubex: " << printable(files[1]) << ": solutions[" << k
                << "]: " << printable(why, true) << "\n";
      invalid.push_back({{"index", k}, {"reason", why}});
    } else if (!vm.count("quiet")) {
      text << "solution " << k + 1 << ": ok\n";
    }
  }
  text << sols.size() - bad << " of " << sols.size() << " solutions valid\n";
  if (!json_out.empty()) {
    const nlohmann::json out = {{"schema", kVerifySchema},    {"puzzle", files[0]},
                                {"solutions_file", files[1]}, {"checked", sols.size()},
                                {"valid", sols.size() - bad}, {"invalid", std::move(invalid)}};
    if (json_out == "-") {
      std::cout << dump_json(out, 2) << "\n";
    } else {
      write_json(json_out, out);
    }
  }
  return bad ? kExitBadInput : kExitOk;
}

}  // namespace cubex::cli
