// Checkpoints as JSON (cubex/output/checkpoint.hpp).
#include "cubex/output/checkpoint.hpp"

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "cubex/error.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace cubex {

namespace {

std::string checksum(const nlohmann::json& j) {
  nlohmann::json copy = j;
  copy.erase("checksum");
  const std::string text = dump_json(copy);  // as written: bytes that are not UTF-8 as U+FFFD
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

nlohmann::json path_json(const TreePath& p) {
  return nlohmann::json(p);
}

struct Reader {
  const std::string& path;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw InputError(path, where, what);
  }
  const nlohmann::json& need(const nlohmann::json& obj, const std::string& where,
                             const char* key) const {
    if (!obj.is_object() || !obj.contains(key)) {
      fail(where.empty() ? key : where + "." + key,
           "expected this key of a cubex checkpoint, found none");
    }
    return obj[key];
  }
  static std::string at(const std::string& where, const char* key) {
    return where.empty() ? key : where + "." + key;
  }
  std::uint64_t count(const nlohmann::json& obj, const std::string& where, const char* key) const {
    const auto& v = need(obj, where, key);
    if (!v.is_number_unsigned()) fail(at(where, key), "expected a count, found " + v.dump());
    return v.get<std::uint64_t>();
  }
  std::string text(const nlohmann::json& obj, const std::string& where, const char* key) const {
    const auto& v = need(obj, where, key);
    if (!v.is_string()) fail(at(where, key), "expected a string, found " + v.dump());
    return v.get<std::string>();
  }
  double number(const nlohmann::json& obj, const std::string& where, const char* key) const {
    const auto& v = need(obj, where, key);
    if (!v.is_number() || !(v.get<double>() >= 0)) {
      fail(at(where, key), "expected a number >= 0, found " + v.dump());
    }
    return v.get<double>();
  }
  TreePath tree_path(const nlohmann::json& v, const std::string& where) const {
    if (!v.is_array() || v.size() > 100000) fail(where, "expected a path (array of indices)");
    TreePath p;
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (!v[k].is_number_unsigned() || v[k].get<std::uint64_t>() >= UINT32_MAX) {
        fail(where + "[" + std::to_string(k) + "]", "expected a child index, found " + v[k].dump());
      }
      p.push_back(v[k].get<std::uint32_t>());
    }
    return p;
  }
};

}  // namespace

nlohmann::json tree_identity_json(const TreeIdentity& id) {
  return {{"fingerprint", id.fingerprint},
          {"items", id.items},
          {"options", id.options},
          {"order", id.order},
          {"rule", id.rule},
          {"judge", id.judge},
          {"cut", id.cut},
          {"shard", std::to_string(id.shard_index) + "/" + std::to_string(id.shard_count)}};
}

nlohmann::json checkpoint_json(const JobState& st, const CheckpointRun& run) {
  nlohmann::json pending = nlohmann::json::array();
  for (const TreeSpan& s : st.pending) {
    pending.push_back({{"begin", path_json(s.begin)},
                       {"end", s.to_end ? nlohmann::json(nullptr) : path_json(s.end)},
                       {"weight", s.weight}});
  }
  nlohmann::json j = {
      {"cubex", "checkpoint"},
      {"schema", "cubex-checkpoint/1"},
      {"version", JobState::kVersion},
      {"puzzle", {{"file", run.file}}},
      {"run",
       {{"symmetry", run.symmetry}, {"backend", run.backend}, {"group_order", run.group_order}}},
      {"tree", tree_identity_json(st.tree)},
      {"complete", st.complete()},
      {"counts",
       {{"total", st.counts.total},
        {"unique", st.counts.unique},
        {"symmetric", st.counts.symmetric},
        {"solutions", st.counts.solutions},
        {"nodes", st.counts.nodes},
        {"updates", st.counts.updates}}},
      {"progress",
       {{"weight_total", st.weight_total},
        {"weight_done", st.weight_done},
        {"seconds", st.seconds}}},
      {"pending", std::move(pending)}};
  if (run.split) j["counts"]["split"] = st.counts.split;  // (likewise, and only where counted)
  if (st.nodes_left >= 0) {  // (added after version 2 first shipped: optional when read)
    j["progress"]["nodes_left"] = st.nodes_left;
    j["progress"]["samples"] = st.estimate_samples;
  }
  j["checksum"] = checksum(j);
  return j;
}

TreeIdentity tree_identity_from_json(const nlohmann::json& j, const std::string& path,
                                     const std::string& where) {
  const Reader rd{path};
  TreeIdentity id;
  id.fingerprint = rd.text(j, where, "fingerprint");
  id.items = rd.count(j, where, "items");
  id.options = rd.count(j, where, "options");
  id.order = rd.text(j, where, "order");
  id.rule = rd.text(j, where, "rule");
  id.judge = rd.text(j, where, "judge");
  const std::uint64_t cut = rd.count(j, where, "cut");
  if (cut > UINT32_MAX) rd.fail(Reader::at(where, "cut"), "expected at most 2^32-1");
  id.cut = static_cast<std::uint32_t>(cut);
  const std::string shard = rd.text(j, where, "shard");
  unsigned long long k = 0, n = 0;
  char extra = 0;
  if (std::sscanf(shard.c_str(), "%llu/%llu%c", &k, &n, &extra) != 2 || n == 0 || k >= n ||
      n > UINT32_MAX || shard.find_first_not_of("0123456789/") != std::string::npos) {
    rd.fail(Reader::at(where, "shard"),
            "expected \"K/N\" with 0 <= K < N, found \"" + excerpt(shard) + "\"");
  }
  id.shard_index = static_cast<std::uint32_t>(k);
  id.shard_count = static_cast<std::uint32_t>(n);
  return id;
}

JobState checkpoint_from_json(const nlohmann::json& j, const std::string& path,
                              CheckpointRun* run) {
  const Reader rd{path};
  if (!j.is_object() || j.value("cubex", "") != "checkpoint") {
    rd.fail("cubex", "expected \"checkpoint\" (a file written by cubex solve --checkpoint)");
  }
  const auto& version = rd.need(j, "", "version");
  if (version != JobState::kVersion) {
    rd.fail("version",
            "expected " + std::to_string(JobState::kVersion) +
                " (the checkpoint format of this cubex), found " + version.dump() +
                (version == 1 ? ": a checkpoint of an older cubex cannot be resumed" : ""));
  }
  const std::string sum = rd.text(j, "", "checksum");
  if (sum != checksum(j)) {
    rd.fail("checksum", "the checkpoint was changed after cubex wrote it (its checksum " + sum +
                            " does not match its content); it cannot be trusted");
  }
  JobState st;
  st.tree = tree_identity_from_json(rd.need(j, "", "tree"), path, "tree");
  const auto& c = rd.need(j, "", "counts");
  st.counts.total = rd.count(c, "counts", "total");
  st.counts.unique = rd.count(c, "counts", "unique");
  st.counts.symmetric = rd.count(c, "counts", "symmetric");
  const bool has_split = c.contains("split");  // (not in older files, nor where not counted)
  if (has_split) st.counts.split = rd.count(c, "counts", "split");
  st.counts.solutions = rd.count(c, "counts", "solutions");
  st.counts.nodes = rd.count(c, "counts", "nodes");
  st.counts.updates = rd.count(c, "counts", "updates");
  const auto& pr = rd.need(j, "", "progress");
  st.weight_total = rd.number(pr, "progress", "weight_total");
  st.weight_done = rd.number(pr, "progress", "weight_done");
  st.seconds = rd.number(pr, "progress", "seconds");
  if (pr.contains("nodes_left")) {  // checkpoints of version 2 written before it lack it
    st.nodes_left = rd.number(pr, "progress", "nodes_left");
    st.estimate_samples = rd.count(pr, "progress", "samples");
  }
  const auto& pending = rd.need(j, "", "pending");
  if (!pending.is_array()) rd.fail("pending", "expected an array of spans");
  for (std::size_t k = 0; k < pending.size(); ++k) {
    const std::string where = "pending[" + std::to_string(k) + "]";
    const auto& e = pending[k];
    TreeSpan s;
    s.begin = rd.tree_path(rd.need(e, where, "begin"), where + ".begin");
    const auto& end = rd.need(e, where, "end");
    s.to_end = end.is_null();
    if (!s.to_end) s.end = rd.tree_path(end, where + ".end");
    s.weight = rd.number(e, where, "weight");
    if (!s.to_end && !(s.begin < s.end)) rd.fail(where, "expected begin before end");
    if (!st.pending.empty()) {
      const TreeSpan& prev = st.pending.back();
      if (prev.to_end || s.begin < prev.end) {
        rd.fail(where, "expected spans in tree order that do not overlap");
      }
    }
    st.pending.push_back(std::move(s));
  }
  // The counts must be consistent with each other and leave room to grow: a resumed run adds to
  // them, and no count of a real search comes near 2^63 (a billion solutions a second would take
  // 292 years), so a larger one is a changed file, not a result that may wrap.
  constexpr std::uint64_t kMostCount = std::uint64_t(1) << 63;
  const std::pair<const char*, std::uint64_t> all[] = {
      {"total", st.counts.total},         {"unique", st.counts.unique},
      {"symmetric", st.counts.symmetric}, {"split", st.counts.split},
      {"solutions", st.counts.solutions}, {"nodes", st.counts.nodes},
      {"updates", st.counts.updates}};
  for (const auto& [key, v] : all) {
    if (v >= kMostCount) {
      rd.fail(std::string("counts.") + key,
              "expected a count below 2^63 (9223372036854775808), found " + std::to_string(v) +
                  ": counting on from it could overflow");
    }
  }
  const std::uint64_t group = rd.count(rd.need(j, "", "run"), "run", "group_order");
  const JobCounts& n = st.counts;
  if (group < 1) rd.fail("run.group_order", "expected at least 1, found 0");
  const std::uint64_t least_classes = n.total / group + (n.total % group != 0);  // no overflow
  if (n.symmetric > n.unique || n.unique > n.solutions || n.unique > n.total ||
      least_classes > n.unique) {
    rd.fail("counts",
            "expected symmetric <= unique <= solutions, and unique <= total <= unique x " +
                std::to_string(group) + " (the group's order), found symmetric " +
                std::to_string(n.symmetric) + ", unique " + std::to_string(n.unique) +
                ", solutions " + std::to_string(n.solutions) + ", total " +
                std::to_string(n.total));
  }
  if (n.split > n.unique) {
    rd.fail("counts.split", "expected at most unique (" + std::to_string(n.unique) + "), found " +
                                std::to_string(n.split));
  }
  // What is done and what is pending make up this shard's share of the tree (their weights are
  // estimates, settled with the search; a span dropped from `pending` leaves a gap).
  double pending_weight = 0;
  for (const TreeSpan& s : st.pending) pending_weight += s.weight;
  if (st.weight_done > st.weight_total * (1 + 1e-9) + 1e-12 ||
      st.weight_done + pending_weight < st.weight_total * (1 - 1e-9) - 1e-12) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "expected the weight done (%.17g) and the pending spans' weights (%.17g) to "
                  "make up weight_total (%.17g)",
                  st.weight_done, pending_weight, st.weight_total);
    rd.fail("progress", std::string(buf) + ": a span is missing, the checkpoint cannot be trusted");
  }
  const auto& complete = rd.need(j, "", "complete");
  if (!complete.is_boolean() || complete.get<bool>() != st.pending.empty()) {
    rd.fail("complete", "expected " + std::string(st.pending.empty() ? "true" : "false") +
                            " (whether spans are pending), found " + complete.dump());
  }
  if (run) {
    run->file = rd.text(rd.need(j, "", "puzzle"), "puzzle", "file");
    const auto& r = rd.need(j, "", "run");
    run->symmetry = rd.text(r, "run", "symmetry");
    run->backend = rd.text(r, "run", "backend");
    run->group_order = rd.count(r, "run", "group_order");
    run->split = has_split;
  }
  return st;
}

JobState read_checkpoint(const std::string& path, CheckpointRun* run) {
  return checkpoint_from_json(read_json_file(path), path, run);
}

}  // namespace cubex
