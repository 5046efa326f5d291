// cubex merge RESULT.json... [--json OUT]: adds up the shards of one search. Each RESULT is a
// finished shard's checkpoint (`cubex solve FILE --shard K/N --checkpoint RESULT.json`) or its
// result (`--json RESULT.json`). Every shard of the same tree must be there once and finished.
#include <boost/program_options.hpp>
#include <iostream>
#include <map>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

// A shard set that does not add up (missing, duplicated, unfinished, another tree): exit 3.
constexpr int kExitIncomplete = 3;

struct Part {
  std::string file, name;
  TreeIdentity tree;
  JobCounts counts;
  std::uint64_t group_order = 1;
  bool complete = false;
};

Part read_part(const std::string& path) {
  const nlohmann::json j = read_json_file(path);
  Part p;
  p.file = path;
  if (j.is_object() && j.contains("cubex") && j["cubex"] == "checkpoint") {
    CheckpointRun run;
    const JobState st = checkpoint_from_json(j, path, &run);
    p.tree = st.tree;
    p.counts = st.counts;
    p.complete = st.complete();
    p.name = run.file;
    p.group_order = run.group_order;
    return p;
  }
  auto need = [&](const nlohmann::json& obj, const std::string& where,
                  const char* key) -> const nlohmann::json& {
    if (!obj.is_object() || !obj.contains(key)) {
      throw InputError(path, where.empty() ? key : where + "." + key,
                       "expected this key (a result of cubex solve --shard K/N --json, or a "
                       "checkpoint), found none");
    }
    return obj[key];
  };
  const auto& search = need(j, "", "search");
  p.tree = tree_identity_from_json(need(search, "search", "tree"), path, "search.tree");
  const auto& counts = need(j, "", "counts");
  const auto& stats = need(j, "", "stats");
  auto count = [&](const nlohmann::json& obj, const std::string& where, const char* key) {
    const auto& v = need(obj, where, key);
    if (!v.is_number_unsigned()) {
      throw InputError(path, where + "." + key, "expected a count, found " + v.dump());
    }
    return v.get<std::uint64_t>();
  };
  p.counts.total = count(counts, "counts", "total");
  p.counts.unique = count(counts, "counts", "unique");
  p.counts.symmetric = count(counts, "counts", "symmetric");
  p.counts.nodes = count(stats, "stats", "nodes");
  p.group_order = count(counts, "counts", "group_order");
  const auto& complete = need(stats, "stats", "complete");
  if (!complete.is_boolean()) throw InputError(path, "stats.complete", "expected true or false");
  p.complete = complete.get<bool>();
  if (j.contains("puzzle") && j["puzzle"].is_object() && j["puzzle"].contains("name") &&
      j["puzzle"]["name"].is_string()) {
    p.name = j["puzzle"]["name"].get<std::string>();
  }
  return p;
}

void add_checked(std::uint64_t& sum, std::uint64_t v, const Part& p, const char* key) {
  if (__builtin_add_overflow(sum, v, &sum)) {
    throw InputError(p.file, std::string("counts.") + key,
                     "expected counts whose sum fits in 64 bits, found " + std::to_string(v) +
                         " more than that allows");
  }
}

}  // namespace

int cmd_merge(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex merge RESULT.json... [--json OUT]\n\n"
      "Adds up the shards of one search: cubex solve FILE --shard K/N, run for K = 0..N-1, each\n"
      "with --checkpoint RESULT.json or --json RESULT.json. Exit status 3 (and nothing written)\n"
      "when a shard is missing, listed twice, unfinished or from another search.\n\n"
      "options");
  std::vector<std::string> files;
  std::string json_out;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("json", po::value(&json_out), "write the merged counts to OUT as JSON");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("files", po::value(&files));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "files", -1, vm)) return kExitOk;
  if (files.empty()) throw UsageError("expected one or more RESULT.json files");
  if (!json_out.empty()) refuse_overwriting_input("json", json_out, files);

  std::vector<Part> parts;
  for (const std::string& f : files) parts.push_back(read_part(f));
  const Part& a = parts.front();
  const std::uint32_t n = a.tree.shard_count;
  std::map<std::uint32_t, const Part*> by_shard;
  std::vector<std::string> problems;
  auto shard_text = [&](const Part& p) {
    return std::to_string(p.tree.shard_index) + "/" + std::to_string(p.tree.shard_count);
  };
  JobCounts sum;
  for (const Part& p : parts) {
    const std::string d = a.tree.difference(p.tree, true);
    if (!d.empty()) {
      problems.push_back(p.file + ": from another search than " + a.file + " (" + d + ")");
      continue;
    }
    if (!by_shard.emplace(p.tree.shard_index, &p).second) {
      problems.push_back(p.file + ": shard " + shard_text(p) + " again (also in " +
                         by_shard[p.tree.shard_index]->file + ")");
      continue;
    }
    if (p.group_order != a.group_order) {
      problems.push_back(p.file + ": a symmetry group of " + std::to_string(p.group_order) +
                         " elements, not " + std::to_string(a.group_order) + " as " + a.file);
    }
    if (!p.complete) {
      problems.push_back(p.file + ": shard " + shard_text(p) +
                         " is unfinished (resume it: cubex solve ... --resume)");
    }
    add_checked(sum.total, p.counts.total, p, "total");
    add_checked(sum.unique, p.counts.unique, p, "unique");
    add_checked(sum.symmetric, p.counts.symmetric, p, "symmetric");
    add_checked(sum.nodes, p.counts.nodes, p, "nodes");
  }
  for (std::uint32_t k = 0; k < n; ++k) {
    if (!by_shard.count(k)) {
      problems.push_back("shard " + std::to_string(k) + "/" + std::to_string(n) + " is missing");
    }
  }
  if (!problems.empty()) {
    std::cerr << "cubex merge: these shards do not add up to the whole search:\n";
    for (const std::string& s : problems) std::cerr << "  " << s << "\n";
    std::cerr << "cubex merge: nothing merged\n";
    return kExitIncomplete;
  }
  std::cout << "merged " << n << " of " << n << " shards" << (a.name.empty() ? "" : " of " + a.name)
            << ": all there and finished\n";
  std::cout << "solutions: " << with_commas(sum.total) << "\n";
  if (!a.tree.judge.empty()) std::cout << "unique: " << with_commas(sum.unique) << "\n";
  std::cout << "symmetric: " << with_commas(sum.symmetric) << "\n";
  std::cout << "nodes: " << with_commas(sum.nodes) << "\n";
  if (!json_out.empty()) {
    nlohmann::json shards = nlohmann::json::array();
    for (const auto& [k, p] : by_shard)
      shards.push_back({{"shard", shard_text(*p)}, {"file", p->file}});
    nlohmann::json tree = tree_identity_json(a.tree);
    tree.erase("shard");
    write_json(json_out, {{"schema", "cubex-merge/1"},
                          {"puzzle", {{"name", a.name}, {"fingerprint", a.tree.fingerprint}}},
                          {"tree", tree},
                          {"counts",
                           {{"total", sum.total},
                            {"unique", sum.unique},
                            {"group_order", a.group_order},
                            {"symmetric", sum.symmetric}}},
                          {"nodes", sum.nodes},
                          {"shards", shards},
                          {"complete", true}});
  }
  return kExitOk;
}

}  // namespace cubex::cli
