// cubex merge RESULT.json... [--json OUT]: adds the counts of shard results (`cubex solve
// --shard K/N --json RESULT.json`, or their checkpoints) of one puzzle.
#include <boost/program_options.hpp>
#include <iostream>
#include <map>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/io/files.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

struct Part {
  std::string file, fingerprint, shard, name;
  std::uint32_t k = 0, n = 1;
  std::uint64_t units = 0, nodes = 0;
  bool complete = false;
  nlohmann::json counts;
};

Part read_part(const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("expected a cubex result (JSON), found: ") + e.what());
  }
  if (!j.is_object()) throw InputError(path, "expected a JSON object");
  Part p;
  p.file = path;
  auto need = [&](const nlohmann::json& obj, const std::string& where,
                  const char* key) -> const nlohmann::json& {
    if (!obj.is_object() || !obj.contains(key)) {
      throw InputError(path, where.empty() ? key : where + "." + key,
                       "expected this key (a result of cubex solve --json with --shard, or a "
                       "checkpoint), found none");
    }
    return obj[key];
  };
  const bool checkpoint = j.value("cubex", "") == "checkpoint";
  const nlohmann::json& search = checkpoint ? j : need(j, "", "search");
  const std::string where = checkpoint ? "" : "search";
  const nlohmann::json& fp = checkpoint ? need(need(j, "", "puzzle"), "puzzle", "fingerprint")
                                        : need(search, where, "fingerprint");
  const nlohmann::json& shard = need(search, where, "shard");
  const nlohmann::json& units = need(search, where, "units");
  if (!fp.is_string()) throw InputError(path, "fingerprint", "expected a string");
  if (!units.is_number_unsigned()) throw InputError(path, "units", "expected a count");
  p.fingerprint = fp.get<std::string>();
  p.units = units.get<std::uint64_t>();
  p.shard = shard.is_string() ? shard.get<std::string>() : "";
  const auto slash = p.shard.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    p.k = static_cast<std::uint32_t>(std::stoul(p.shard.substr(0, slash)));
    p.n = static_cast<std::uint32_t>(std::stoul(p.shard.substr(slash + 1)));
  } catch (const std::exception&) {
    throw InputError(path, where.empty() ? "shard" : "search.shard",
                     "expected \"K/N\", found " + shard.dump());
  }
  if (p.n == 0 || p.k >= p.n) {
    throw InputError(path, where.empty() ? "shard" : "search.shard",
                     "expected K < N, found " + shard.dump());
  }
  p.counts = need(j, "", "counts");
  if (!p.counts.is_object()) throw InputError(path, "counts", "expected an object");
  for (auto it = p.counts.begin(); it != p.counts.end(); ++it) {
    if (!it->is_number_unsigned()) {
      throw InputError(path, "counts." + it.key(), "expected a count, found " + it->dump());
    }
  }
  if (checkpoint) {
    p.complete = j.value("complete", false);
    p.nodes = j.value("nodes", std::uint64_t{0});
    p.name = j["puzzle"].value("file", "");
  } else {
    const auto& stats = need(j, "", "stats");
    p.complete = stats.value("complete", false);
    p.nodes = stats.value("nodes", std::uint64_t{0});
    p.name = j.contains("puzzle") && j["puzzle"].is_object() ? j["puzzle"].value("name", "") : "";
  }
  return p;
}

}  // namespace

int cmd_merge(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex merge RESULT.json... [--json OUT]\n\n"
      "Adds the counts of the shard results of one puzzle (cubex solve FILE --shard K/N --json\n"
      "RESULT.json, run for K = 0..N-1, or their --checkpoint files) and says whether every\n"
      "shard is there and complete.\n\n"
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
  std::map<std::uint32_t, const Part*> by_shard;
  nlohmann::json counts = nlohmann::json::object();
  std::uint64_t nodes = 0;
  bool all_complete = true;
  for (const Part& p : parts) {
    if (p.fingerprint != a.fingerprint) {
      throw InputError(
          p.file, "search.fingerprint",
          "expected " + a.fingerprint + " (the puzzle of " + a.file + "), found " + p.fingerprint);
    }
    if (p.n != a.n || p.units != a.units) {
      throw InputError(p.file, "search.shard",
                       "expected a shard of " + std::to_string(a.n) + " over " +
                           std::to_string(a.units) + " units (as " + a.file + "), found " +
                           p.shard + " over " + std::to_string(p.units));
    }
    if (!by_shard.emplace(p.k, &p).second) {
      throw InputError(p.file, "search.shard",
                       "expected each shard once, found " + p.shard + " again (also in " +
                           by_shard[p.k]->file + ")");
    }
    for (auto it = p.counts.begin(); it != p.counts.end(); ++it) {
      if (it.key() == "group_order") {  // the same group in every shard: not a count to add
        if (counts.contains("group_order") && counts["group_order"] != *it) {
          throw InputError(p.file, "counts.group_order",
                           "expected " + counts["group_order"].dump() + " (as " + a.file +
                               "), found " + it->dump());
        }
        counts["group_order"] = *it;
        continue;
      }
      std::uint64_t sum = 0;
      if (__builtin_add_overflow(counts.value(it.key(), std::uint64_t{0}), it->get<std::uint64_t>(),
                                 &sum)) {
        throw InputError(p.file, "counts." + it.key(),
                         "expected counts whose sum fits in 64 bits, found " + it->dump() +
                             " more than that allows");
      }
      counts[it.key()] = sum;
    }
    nodes += p.nodes;
    all_complete = all_complete && p.complete;
  }
  std::vector<std::uint32_t> missing;
  for (std::uint32_t k = 0; k < a.n; ++k)
    if (!by_shard.count(k)) missing.push_back(k);
  const bool complete = all_complete && missing.empty();

  std::cout << "merged " << parts.size() << " of " << a.n << " shards"
            << (a.name.empty() ? "" : " of " + a.name) << "\n";
  for (auto it = counts.begin(); it != counts.end(); ++it) {
    std::cout << (it.key() == "total" ? std::string("solutions") : it.key()) << ": "
              << with_commas(it->get<std::uint64_t>()) << "\n";
  }
  if (complete) {
    std::cout << "complete: every shard is there and finished\n";
  } else {
    std::cout << "incomplete:";
    for (std::uint32_t k : missing) std::cout << " shard " << k << "/" << a.n << " missing;";
    for (const Part& p : parts)
      if (!p.complete) std::cout << " " << p.file << " unfinished;";
    std::cout << "\n";
  }
  if (!json_out.empty()) {
    nlohmann::json shards = nlohmann::json::array();
    for (const auto& [k, p] : by_shard) shards.push_back({{"shard", p->shard}, {"file", p->file}});
    write_json(json_out, {{"puzzle", {{"name", a.name}, {"fingerprint", a.fingerprint}}},
                          {"counts", counts},
                          {"nodes", nodes},
                          {"shards", shards},
                          {"complete", complete}});
  }
  return kExitOk;
}

}  // namespace cubex::cli
