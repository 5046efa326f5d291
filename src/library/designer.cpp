// The designer's questions (cubex/library/designer.hpp).
#include "cubex/library/designer.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "cubex/solve.hpp"

namespace cubex::library {

std::string UniqueVerdict::text() const {
  if (!complete) return "unknown (stopped)";
  return classes == 0 ? "no solution" : classes == 1 ? "unique" : "not unique (at least 2 classes)";
}

std::string UniqueVerdict::json_value() const {
  if (!complete) return "unknown";
  return classes == 0 ? "none" : classes == 1 ? "unique" : "not unique";
}

UniqueVerdict unique_verdict(const Puzzle& puzzle, Options options) {
  UniqueVerdict v;
  options.limit = 0;
  options.expand = false;
  std::uint64_t classes = 0;
  // One solution per class is listed: the second ends the search.
  const Result r = solve(puzzle, options, [&](const Solution&) { return ++classes < 2; });
  v.classes = classes;
  v.nodes = r.nodes;
  v.complete = !r.interrupted || classes >= 2;
  return v;
}

Forced forced_options(const Puzzle& puzzle, Options options) {
  Forced f;
  options.symmetry = Symmetry::none;  // every solution, not one per class
  options.limit = 0;
  options.expand = false;
  std::vector<std::uint64_t> seen(puzzle.problem().num_options(), 0);
  std::uint64_t n = 0;
  // The sink runs on the calling thread (cubex/solve.hpp): no lock.
  const Result r = solve(puzzle, options, [&](const Solution& s) {
    for (OptionId o : s.options) ++seen[o];
    if (n++ == 0) f.first.assign(s.options.begin(), s.options.end());
    return true;
  });
  f.solutions = n;
  f.complete = r.counts.complete && !r.interrupted;
  f.nodes = r.nodes;
  if (n == 0) return f;
  for (std::size_t o = 0; o < seen.size(); ++o)
    if (seen[o] == n) f.options.push_back(static_cast<OptionId>(o));
  return f;
}

ForcedReport describe_forced(const Puzzle& puzzle, const Forced& forced) {
  ForcedReport r;
  std::map<std::string, int> copies;  // piece -> forced placements
  for (OptionId o : forced.options) {
    r.placements.push_back(puzzle.option_label(o));
    const OptionId one[] = {o};
    const nlohmann::json j = puzzle.solution_json(one);
    if (j.contains("placements") && j["placements"].size() == 1 &&
        j["placements"][0].contains("piece") && j["placements"][0]["piece"].is_string())
      ++copies[j["placements"][0]["piece"].get<std::string>()];
  }
  // A piece is fixed when each of its copies is placed by a forced option: the number of its
  // placements in any solution (the first one's) equals its forced ones.
  std::map<std::string, int> used;
  if (!copies.empty()) {
    const nlohmann::json j = puzzle.solution_json(forced.first);
    for (const auto& p : j.value("placements", nlohmann::json::array()))
      if (p.contains("piece") && p["piece"].is_string()) ++used[p["piece"].get<std::string>()];
  }
  for (const auto& [piece, n] : copies)
    if (used[piece] == n) r.fixed_pieces.push_back(piece);
  return r;
}

namespace {
std::string commas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
  return s;
}
}  // namespace

CheckResult check_counts(const Expect& expect, std::uint64_t total, std::uint64_t unique) {
  CheckResult r;
  std::string got, want;
  auto one = [&](const char* what, const std::optional<std::uint64_t>& e, std::uint64_t n,
                 bool compare) {
    got += std::string(got.empty() ? "" : ", ") + what + " " + commas(n);
    if (!e) return;
    if (compare && *e != n) {
      r.agree = false;
      want += std::string(want.empty() ? "" : ", ") + what + " " + commas(*e);
    }
  };
  one("total", expect.total, total, true);
  one("unique", expect.unique, unique, expect.cubex_issue.empty());
  r.text = r.agree ? "agree: " + got : "DISAGREE: cubex " + got + ", published " + want;
  r.text += " (" + expect.source + ")";
  if (!expect.cubex_issue.empty() && expect.unique && *expect.unique != unique) {
    r.text += "; unique not compared, published " + commas(*expect.unique) +
              ": a known cubex issue: " + expect.cubex_issue;
  }
  return r;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_header() {
  return "file,name,kind,items,options,total,unique,symmetric,nodes,seconds,complete,error";
}

std::string csv_line(const CsvRow& r) {
  std::string out = csv_field(r.file) + "," + csv_field(r.name) + "," + csv_field(r.kind) + ",";
  if (!r.error.empty()) return out + ",,,,,,," + "false," + csv_field(r.error);
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", r.seconds);
  for (std::uint64_t v : {r.items, r.options, r.total, r.unique, r.symmetric, r.nodes})
    out += std::to_string(v) + ",";
  return out + secs + "," + (r.complete ? "true" : "false") + ",";
}

}  // namespace cubex::library
