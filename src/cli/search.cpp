// run_search: threads, progress, checkpoint/resume and shards for `cubex solve` (search.hpp).
//
// Checkpoint file (JSON, written atomically at the end, on Ctrl-C/SIGTERM and every
// --checkpoint-every seconds):
//   {"cubex": "checkpoint", "version": 1,
//    "puzzle": {"file", "fingerprint", "items", "options"},
//    "backend": "bitset" | "links", "cut": 4096, "units": <number of units>, "shard": "K/N",
//    "complete": false, "counts": {"total", "unique", "symmetric", "group_order"} (of the done
//    units), "nodes": ...,
//    "done": [[unit, solutions, nodes, unique, total, symmetric], ...]}
// `solutions` are the solutions the search met in the unit; unique/total/symmetric its classes
// up to symmetry (with --symmetry none: unique = total = solutions, symmetric = 0). With a
// symmetry group the searched matrix is the restricted one (symmetry.hpp), and the fingerprint
// names the group's order too.
// A resumed run rebuilds the same units (the cut is deterministic), skips the done ones and adds
// their counts.
#include "search.hpp"

#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "cli.hpp"
#include "cubex/core/parallel.hpp"
#include "cubex/error.hpp"
#include "cubex/io/files.hpp"
#include "cubex/io/json.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

double g_checkpoint_every = 60;

const char* backend_name(Backend b) {
  return b == Backend::kBitset ? "bitset" : "links";
}

struct Shard {
  std::uint32_t k = 0, n = 1;
  std::string text() const { return std::to_string(k) + "/" + std::to_string(n); }
};

Shard parse_shard(const std::string& s) {
  Shard sh;
  const auto slash = s.find('/');
  auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (slash == std::string::npos || !digits(s.substr(0, slash)) || !digits(s.substr(slash + 1))) {
    throw UsageError("expected --shard K/N with 0 <= K < N, found '" + s + "'");
  }
  sh.k = static_cast<std::uint32_t>(std::stoul(s.substr(0, slash)));
  sh.n = static_cast<std::uint32_t>(std::stoul(s.substr(slash + 1)));
  if (sh.n == 0 || sh.k >= sh.n) {
    throw UsageError("expected --shard K/N with 0 <= K < N, found '" + s + "'");
  }
  return sh;
}

std::string clock_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%" PRIu64 ":%02u:%02u", s / 3600,
                  static_cast<unsigned>(s / 60 % 60), static_cast<unsigned>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%u:%02u", static_cast<unsigned>(s / 60),
                  static_cast<unsigned>(s % 60));
  }
  return buf;
}

std::string short_count(std::uint64_t n) {
  char buf[32];
  if (n >= 10'000'000'000ULL) {
    std::snprintf(buf, sizeof buf, "%.1fG", static_cast<double>(n) / 1e9);
  } else if (n >= 10'000'000) {
    std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(n) / 1e6);
  } else {
    return with_commas(n);
  }
  return buf;
}

// Reads a checkpoint and checks that it belongs to this puzzle and cut.
struct Saved {
  std::vector<bool> done;
  UnitResult counts;
  Tally tally;
  Shard shard;
};

void add(Tally& t, const Tally& u) {
  t.unique += u.unique;
  t.total += u.total;
  t.symmetric += u.symmetric;
}

Saved read_checkpoint(const std::string& path, const Problem& pb, const ParallelSolver& ps,
                      const std::string& fingerprint) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("expected a cubex checkpoint (JSON), found: ") + e.what());
  }
  auto need = [&](const char* key) -> const nlohmann::json& {
    if (!j.is_object() || !j.contains(key)) {
      throw InputError(path, key, "expected this key of a cubex checkpoint, found none");
    }
    return j[key];
  };
  if (need("cubex") != "checkpoint") {
    throw InputError(path, "cubex", "expected \"checkpoint\", found " + j["cubex"].dump());
  }
  const auto& puzzle = need("puzzle");
  if (!puzzle.is_object() || puzzle.value("fingerprint", "") != fingerprint) {
    throw InputError(
        path, "puzzle.fingerprint",
        "expected " + fingerprint + " (this puzzle, " + std::to_string(pb.num_items()) +
            " items, " + std::to_string(pb.num_options()) + " options), found " +
            (puzzle.is_object() && puzzle.contains("fingerprint") ? puzzle["fingerprint"].dump()
                                                                  : std::string("none")));
  }
  if (need("backend") != backend_name(ps.backend())) {
    throw InputError(path, "backend",
                     std::string("expected \"") + backend_name(ps.backend()) +
                         "\" (the backend this machine uses for the puzzle), found " +
                         j["backend"].dump());
  }
  if (!need("units").is_number_unsigned() || j["units"] != ps.units().size()) {
    throw InputError(
        path, "units",
        "expected " + std::to_string(ps.units().size()) + ", found " + j["units"].dump());
  }
  Saved s;
  if (!need("shard").is_string()) {
    throw InputError(path, "shard", "expected \"K/N\", found " + j["shard"].dump());
  }
  try {
    s.shard = parse_shard(j["shard"].get<std::string>());
  } catch (const UsageError&) {
    throw InputError(path, "shard", "expected \"K/N\", found " + j["shard"].dump());
  }
  s.done.assign(ps.units().size(), false);
  const auto& done = need("done");
  if (!done.is_array()) throw InputError(path, "done", "expected an array");
  for (std::size_t k = 0; k < done.size(); ++k) {
    const auto& e = done[k];
    const std::string where = "done[" + std::to_string(k) + "]";
    bool ok = e.is_array() && e.size() == 6;
    for (std::size_t f = 0; ok && f < 6; ++f) ok = e[f].is_number_unsigned();
    if (!ok) {
      throw InputError(
          path, where,
          "expected [unit, solutions, nodes, unique, total, symmetric], found " + e.dump());
    }
    const auto u = e[0].get<std::uint64_t>();
    if (u >= s.done.size() || s.done[u] || u % s.shard.n != s.shard.k) {
      throw InputError(path, where,
                       "expected a unit of shard " + s.shard.text() + " below " +
                           std::to_string(s.done.size()) + " listed once, found " + e[0].dump());
    }
    s.done[u] = true;
    s.counts.solutions += e[1].get<std::uint64_t>();
    s.counts.nodes += e[2].get<std::uint64_t>();
    add(s.tally, {e[3].get<std::uint64_t>(), e[4].get<std::uint64_t>(), e[5].get<std::uint64_t>()});
  }
  return s;
}

}  // namespace

std::string problem_fingerprint(const Problem& pb) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
  auto mix = [&](std::uint64_t v) {
    for (int k = 0; k < 8; ++k) {
      h ^= (v >> (8 * k)) & 0xFF;
      h *= 1099511628211ULL;
    }
  };
  mix(pb.num_items());
  for (const Item& it : pb.items()) {
    for (char c : it.name) mix(static_cast<unsigned char>(c));
    mix(it.primary);
    mix(it.lo);
    mix(it.hi);
  }
  mix(pb.num_options());
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    mix(pb.option(o).size());
    for (ItemId i : pb.option(o)) mix(i);
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

void add_search_options(po::options_description& opts, SearchOptions& o) {
  // clang-format off
  opts.add_options()
    ("threads", po::value(&o.threads), "worker threads (default 0: all cores)")
    ("checkpoint", po::value(&o.checkpoint),
     "save the finished work units to FILE (at the end, on Ctrl-C/SIGTERM, every minute)")
    ("checkpoint-every", po::value(&g_checkpoint_every)->default_value(60, "60"),
     "seconds between checkpoints")
    ("resume", po::value(&o.resume), "continue the run saved in FILE (and keep saving there)")
    ("shard", po::value(&o.shard), "K/N: solve only the work units with index = K mod N");
  // clang-format on
}

SearchOutcome run_search(const Problem& original, const std::string& file, OrbitVisitor* visit,
                         const SolveLimits& limits, const SearchOptions& o,
                         const SymmetricSolver* sym) {
  SearchOutcome out;
  const Problem& pb = sym ? sym->restricted() : original;
  // A solution of pb as a class: its options in `original`, its class size, symmetric or not;
  // orbit 0 when it is not the canonical solution of its class.
  struct Judged {
    std::span<const OptionId> solution;
    SymmetricSolver::Verdict v;
  };
  auto judge = [&](std::span<const OptionId> s, std::vector<OptionId>& buf) -> Judged {
    if (!sym) return {s, {1, false}};
    const auto v = sym->judge(s, buf);
    return {buf, v};
  };
  auto count_in = [](Tally& t, const SymmetricSolver::Verdict& v) {
    ++t.unique;
    t.total += v.orbit;
    t.symmetric += v.symmetric;
  };
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const std::string checkpoint = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  const bool units = !checkpoint.empty() || !o.shard.empty() ||
                     ((threads > 1 || tty) && limits.max_solutions != 1);
  if (!units) {  // one thread, nothing to save: the plain search
    Solver solver(pb);
    if (!visit && !sym) {
      out.st = solver.count(limits);
      out.tally = {out.st.solutions, out.st.solutions, 0};
    } else {
      std::vector<OptionId> buf;
      auto each = [&](std::span<const OptionId> s) {
        const Judged j = judge(s, buf);
        if (!j.v.orbit) return true;
        count_in(out.tally, j.v);
        if (visit && !(*visit)(j.solution, j.v.orbit)) return false;
        return !(limits.max_solutions && out.tally.unique >= limits.max_solutions);
      };
      SolveLimits inner;
      inner.stop = limits.stop;
      out.st = solver.solve(each, inner);
    }
    out.threads = 1;
    out.json = {{"backend", backend_name(solver.backend())}, {"threads", 1}};
    return out;
  }

  Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  const std::string fingerprint =
      problem_fingerprint(pb) + (sym ? "-g" + std::to_string(sym->group_order()) : "");
  ParallelSolver ps(pb);
  Saved saved;
  saved.done.assign(ps.units().size(), false);
  if (!o.resume.empty()) {
    saved = read_checkpoint(o.resume, pb, ps, fingerprint);
    if (!o.shard.empty() && (shard.k != saved.shard.k || shard.n != saved.shard.n)) {
      throw UsageError("--shard " + shard.text() + " differs from the checkpoint's shard " +
                       saved.shard.text());
    }
    shard = saved.shard;
  }

  // Done units and their counts (updated under the solver's lock, see parallel.hpp).
  std::vector<UnitResult> result(ps.units().size());
  std::vector<Tally> tally(ps.units().size());
  std::vector<bool> done = saved.done;
  if (!o.resume.empty()) {  // keep the saved counts unit by unit for the next checkpoint
    const auto j = nlohmann::json::parse(read_file(o.resume));
    for (const auto& e : j["done"]) {
      const auto u = e[0].get<std::size_t>();
      result[u] = {e[1].get<std::uint64_t>(), e[2].get<std::uint64_t>()};
      tally[u] = {e[3].get<std::uint64_t>(), e[4].get<std::uint64_t>(), e[5].get<std::uint64_t>()};
    }
  }
  auto checkpoint_json = [&](bool complete) {
    nlohmann::json list = nlohmann::json::array();
    UnitResult sum;
    Tally classes;
    for (std::size_t u = 0; u < done.size(); ++u) {
      if (!done[u]) continue;
      list.push_back({u, result[u].solutions, result[u].nodes, tally[u].unique, tally[u].total,
                      tally[u].symmetric});
      sum.solutions += result[u].solutions;
      sum.nodes += result[u].nodes;
      add(classes, tally[u]);
    }
    return nlohmann::json{{"cubex", "checkpoint"},
                          {"version", 1},
                          {"puzzle",
                           {{"file", file},
                            {"fingerprint", fingerprint},
                            {"items", pb.num_items()},
                            {"options", pb.num_options()}}},
                          {"backend", backend_name(ps.backend())},
                          {"cut", ps.target_units()},
                          {"units", ps.units().size()},
                          {"shard", shard.text()},
                          {"complete", complete},
                          {"counts",
                           {{"total", classes.total},
                            {"unique", classes.unique},
                            {"symmetric", classes.symmetric},
                            {"group_order", sym ? sym->group_order() : 1}}},
                          {"nodes", sum.nodes},
                          {"done", std::move(list)}};
  };

  // Compact (a line per unit would make it large), atomic: a kill leaves the previous one whole.
  auto save = [&](const nlohmann::json& j) {
    try {
      write_file_atomic(checkpoint, dump_json(j) + "\n");  // file names need not be UTF-8
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  };

  ParallelOptions opt;
  opt.threads = threads;
  opt.shard_index = shard.k;
  opt.shard_count = shard.n;
  opt.skip = &saved.done;
  opt.skipped_counts = saved.counts;
  // The workers stop on the caller's stop flag, or when the visitor is done (limit reached, or
  // it said stop).
  opt.limits.stop = limits.stop;
  opt.tick_seconds = std::min(0.25, std::max(0.001, g_checkpoint_every));

  // Solutions reach the visitor in unit order, each unit's in search order: the order of a
  // one-thread run, whatever the number of threads. A unit's solutions wait in `pending` until
  // the units before it are done. A unit counts as done for the checkpoint once all its
  // solutions were handed on.
  std::vector<std::size_t> order;
  for (std::size_t u = 0; u < ps.units().size(); ++u)
    if (u % shard.n == shard.k && !saved.done[u]) order.push_back(u);
  std::vector<bool> finished(ps.units().size(), false);
  std::map<std::size_t, std::vector<std::pair<std::vector<OptionId>, SymmetricSolver::Verdict>>>
      pending;
  std::size_t pos = 0;
  std::uint64_t emitted = 0;
  Tally emitted_tally;
  bool emit_stopped = false;
  auto emit = [&](std::span<const OptionId> sol, const SymmetricSolver::Verdict& v) {
    if (emit_stopped) return false;
    ++emitted;
    count_in(emitted_tally, v);
    if (!(*visit)(sol, v.orbit) || (limits.max_solutions && emitted >= limits.max_solutions)) {
      emit_stopped = true;
    }
    return !emit_stopped;
  };
  std::vector<OptionId> buf;  // the visitor runs under the solver's lock: one buffer will do
  auto on_solution = [&](std::size_t u, std::span<const OptionId> s) {
    if (emit_stopped) return false;
    const Judged j = judge(s, buf);
    if (!j.v.orbit) return true;
    count_in(tally[u], j.v);
    if (!visit) return true;
    if (pos < order.size() && u == order[pos]) return emit(j.solution, j.v);
    pending[u].emplace_back(std::vector<OptionId>(j.solution.begin(), j.solution.end()), j.v);
    return true;
  };
  opt.on_unit_done = [&](std::size_t u, const UnitResult& r) {
    result[u] = r;
    finished[u] = true;
    if (!sym) tally[u] = {r.solutions, r.solutions, 0};
    if (!visit) {
      done[u] = true;
      return true;
    }
    while (!emit_stopped && pos < order.size() && finished[order[pos]]) {
      done[order[pos]] = true;
      if (++pos == order.size()) break;
      auto it = pending.find(order[pos]);
      if (it == pending.end()) continue;
      for (const auto& [sol, v] : it->second)
        if (!emit(sol, v)) break;
      pending.erase(it);
    }
    return !emit_stopped;
  };
  auto last_save = std::chrono::steady_clock::now();
  std::size_t line_width = 0;
  opt.on_tick = [&](const Progress& p) {
    if (!checkpoint.empty() && std::chrono::steady_clock::now() - last_save >=
                                   std::chrono::duration<double>(g_checkpoint_every)) {
      save(checkpoint_json(false));
      last_save = std::chrono::steady_clock::now();
    }
    if (!tty) return;
    char frac[16];
    std::snprintf(frac, sizeof frac, "%5.1f%%", 100 * p.fraction);
    std::string line = std::string(frac) + "  units " + with_commas(p.units_done) + "/" +
                       with_commas(p.units_total) + "  solutions " + with_commas(p.solutions) +
                       "  nodes " + short_count(p.nodes) + "  elapsed " + clock_text(p.elapsed) +
                       "  left " + (p.eta < 0 ? std::string("?") : "~" + clock_text(p.eta));
    const std::size_t w = line.size();
    if (line.size() < line_width) line.append(line_width - line.size(), ' ');
    line_width = w;
    std::cerr << '\r' << line << std::flush;
  };

  UnitVisitor ordered(on_solution);
  const ParallelStats ps_stats = ps.solve(visit || sym ? &ordered : nullptr, opt);
  if (tty) std::cerr << "\n";
  if (!checkpoint.empty()) save(checkpoint_json(ps_stats.st.complete));

  out.st = ps_stats.st;
  out.tally = saved.tally;
  if (visit) {
    out.st.solutions = saved.counts.solutions + emitted;
    out.st.complete = ps_stats.st.complete && !emit_stopped;
    add(out.tally, emitted_tally);
  } else if (!sym) {
    out.tally = {out.st.solutions, out.st.solutions, 0};  // done, skipped and cut-short units
  } else {
    for (std::size_t u = 0; u < tally.size(); ++u)
      if (!saved.done[u]) add(out.tally, tally[u]);
  }
  out.threads = ps_stats.threads;
  std::size_t done_in_shard = 0;
  for (std::size_t u = 0; u < done.size(); ++u) done_in_shard += done[u];
  out.json = {{"backend", backend_name(ps.backend())},
              {"threads", ps_stats.threads},
              {"fingerprint", fingerprint},
              {"cut", ps.target_units()},
              {"units", ps.units().size()},
              {"shard", shard.text()},
              {"units_in_shard", ps_stats.units_total},
              {"units_done", done_in_shard}};
  return out;
}

}  // namespace cubex::cli
