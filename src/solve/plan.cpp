// The solve layer (cubex/solve.hpp): the checks, memo or search, symmetry, threads, checkpoints.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <thread>

#include "cubex/core/memo.hpp"
#include "cubex/core/memo_order.hpp"
#include "cubex/core/tree_estimate.hpp"
#include "cubex/error.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/output/solve_output.hpp"
#include "cubex/solve.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace cubex {

namespace {

SymmetryMode to_mode(Symmetry s) {
  switch (s) {
    case Symmetry::none: return SymmetryMode::kNone;
    case Symmetry::rotations: return SymmetryMode::kRotations;
    default: return SymmetryMode::kAuto;
  }
}

// Throws a UsageError when the file `path` could not be created or replaced: its folder is
// missing or not writable. Checked before any work, so that a long search does not end in an
// error at its first checkpoint.
void check_writable(const std::string& flag, const std::string& path) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw UsageError("--" + flag + " " + excerpt(path, 200) + ": the folder " +
                     excerpt(dir.string(), 200) + " does not exist");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw UsageError("--" + flag + " " + excerpt(path, 200) + ": cannot write in " +
                     excerpt(dir.string(), 200) + ": " + std::strerror(errno));
  }
  if (fs::is_directory(path, ec)) {
    throw UsageError("--" + flag + " " + excerpt(path, 200) + " is a folder, not a file");
  }
}

nlohmann::json search_json(const char* backend, unsigned threads, const TreeIdentity& id,
                           bool complete, bool resumed, std::uint64_t spans,
                           std::uint64_t splits, std::size_t pending) {
  return {{"backend", backend},
          {"threads", threads},
          {"fingerprint", id.fingerprint},
          {"tree", tree_identity_json(id)},
          {"cut", id.cut},
          {"shard", std::to_string(id.shard_index) + "/" + std::to_string(id.shard_count)},
          {"complete", complete},
          {"resumed", resumed},
          {"spans", spans},
          {"splits", splits},
          {"pending", pending}};
}

// The automatic choice (Plan::run, choose_by_trials): the memo's trial counts at most
// kMemoTrialStates sub-problems, the search's at most kSearchTrialNodes nodes, and
// kEstimatePaths random paths estimate the search's whole tree.
constexpr std::uint64_t kMemoTrialStates = 1 << 9;
constexpr std::uint64_t kSearchTrialNodes = 1 << 14;
constexpr std::size_t kEstimatePaths = 16;

// The items the memo branches on first. A Happy Cube structure's own order (its front end
// insists on the memo, MemoHint::kAlways, and knows its faces best). Otherwise the one of two
// orders whose frontiers foresee fewer sub-problems (frontier_cost; ties keep the first): the
// puzzle's (a voxel box swept along its longest axis), else the primary items as the problem
// lists them (a Knuth file's, as written); and the breadth-first order (breadth_first_order:
// diagonals across a square of dominoes, 4x fewer sub-problems than rows at 16x16).
std::vector<ItemId> memo_order_of(const Puzzle& puzzle, const Problem& pb,
                                  const std::atomic<bool>* stop) {
  std::vector<ItemId> order = puzzle.memo_order();
  if (puzzle.memo_hint() == Puzzle::MemoHint::kAlways && !order.empty()) return order;
  if (order.empty()) {
    for (ItemId i = 0; i < pb.num_items(); ++i) {
      if (pb.item(i).primary) order.push_back(i);
    }
  }
  std::vector<ItemId> wide = breadth_first_order(pb, stop);
  if (!wide.empty() && frontier_cost(pb, wide) < frontier_cost(pb, order)) return wide;
  return order;
}

// The memo's table budget when --memo-budget is left out: a quarter of the memory available
// (MemAvailable in /proc/meminfo, else the free pages), at least 64 MiB.
std::size_t default_memo_budget() {
  std::uint64_t available = 0;
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      unsigned long long kb = 0;
      if (std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1) available = kb * 1024;
    }
    std::fclose(f);
  }
  if (available == 0) {
    const long pages = ::sysconf(_SC_AVPHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) available = std::uint64_t(pages) * std::uint64_t(size);
  }
  return std::max<std::size_t>(available / 4, std::size_t{64} << 20);
}

// What the automatic choice between memo and search decided (choose_by_trials).
struct TrialChoice {
  bool memo = false;
  std::string why;  // for the summary and JSON's search.chosen
  // The memo's race (memo: true): it counts at most `max_states` sub-problems, and gives up
  // once its own progress foresees more than `max_seconds` (0: no bound).
  std::uint64_t max_states = 0;
  double max_seconds = 0;
  double state_seconds = 0;  // the memo trial's CPU per sub-problem
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Whether the memo or the search counts a puzzle whose front end says that the memo may pay
// (Puzzle::MemoHint::kTrial), each tried briefly:
// 1. the memo counts kMemoTrialStates sub-problems (in the order memo_order_of chose): where
//    fewer than one in ten was met again, the search counts (pentominoes, Soma, Y-pentacubes,
//    Bedlam: one in twenty or fewer; domino and L-tromino tilings: one in four or more);
// 2. the search (on `search_pb`, the problem it would search) runs kSearchTrialNodes nodes: a
//    tree it finishes stays with the search (small trees: as fast, and listed); past it, a
//    memo that finished its trial counts;
// 3. Knuth's estimate of the search's whole tree (kEstimatePaths random paths) times the trial's
//    time per node gives the search's time, T;
// 4. the memo counts, for at most half of T (in sub-problems, at the trial's rate), and gives up
//    once it has spent a fiftieth of T and its progress foresees more than twice T
//    (MemoProgress::fraction); then the search counts. So a wrong guess costs at most about half
//    the search's time, where it is estimated right.
TrialChoice choose_by_trials(const Problem& pb, const Problem& search_pb, const MemoLimits& limits,
                             const std::atomic<bool>* stop) {
  TrialChoice c;
  MemoLimits l = limits;
  l.max_states = kMemoTrialStates;
  l.on_progress = nullptr;
  auto t = std::chrono::steady_clock::now();
  const MemoCount m = memo_count(pb, {}, l);
  c.state_seconds = seconds_since(t) / static_cast<double>(std::max<std::uint64_t>(m.states, 1));
  if (!m.complete && m.hits * 10 < m.states) {
    c.why = "the memo's trial met " + with_commas(m.hits) + " of " + with_commas(m.states) +
            " sub-problems again (under one in ten)";
    return c;
  }
  if (stop && stop->load()) return c;
  Solver probe(search_pb);
  SolveLimits sl;
  sl.stop = stop;
  sl.max_nodes = kSearchTrialNodes;
  t = std::chrono::steady_clock::now();
  const SolveStats st = probe.count(sl);
  const double node_seconds =
      seconds_since(t) / static_cast<double>(std::max<std::uint64_t>(st.nodes, 1));
  if (st.complete) {
    c.why = "the search's trial finished it (" + with_commas(st.nodes) + " nodes)";
    return c;
  }
  if (m.complete) {
    c.memo = true;
    c.why = "the memo's trial counted it all (" + with_commas(m.states) + " sub-problems)";
    return c;
  }
  if (stop && stop->load()) return c;
  const double nodes = estimate_search_nodes(search_pb, Backend::kAuto, kEstimatePaths, 1, stop);
  if (nodes < 0) return c;
  const double search_seconds = nodes * node_seconds;
  c.memo = true;
  c.max_seconds = 2 * search_seconds;
  const double states = search_seconds / 2 / std::max(c.state_seconds, 1e-9);
  c.max_states =
      states >= 1e18 ? 0 : std::max<std::uint64_t>(static_cast<std::uint64_t>(states), 4096);
  char est[64];
  std::snprintf(est, sizeof est, "%.2g", nodes);
  c.why = "the memo's trial met " + with_commas(m.hits) + " of " + with_commas(m.states) +
          " sub-problems again, and the search's tree has about " + est + " nodes";
  return c;
}

// Whether Result::rotations is asked for: the puzzle records counts of its own (BurrTools counts
// assemblies up to rotations alone when it keeps mirror solutions, and its file does not say
// whether it did), the group is found automatically and has reflections, and the run is not a
// shard (whose counts are a part). The run must also finish (checked where it ends).
bool wants_rotations(const Puzzle& puzzle, Symmetry symmetry, const SymmetricSolver* sym,
                     std::uint32_t shard_count) {
  const auto rec = puzzle.recorded_counts();
  return rec && rec->assemblies && symmetry == Symmetry::automatic && sym && sym->has_subgroup() &&
         shard_count <= 1;
}

}  // namespace

struct Plan::Impl {
  std::optional<SymmetricSolver> sym;
  std::optional<JobState> saved;
  CheckpointRun saved_run;
  std::string infeasible;
  const char* stopped_in = nullptr;  // the phase that the stop flag ended (cubex/stop.hpp)
  bool ran = false;
};

Plan::Plan(const Puzzle& puzzle, Options options)
    : puzzle_(puzzle), options_(std::move(options)), impl_(std::make_unique<Impl>()) {
  Options& o = options_;
  if (!o.resume.empty()) {
    impl_->saved = read_checkpoint(o.resume, &impl_->saved_run);
    const CheckpointRun& r = impl_->saved_run;
    const std::optional<Symmetry> mode = parse_symmetry(r.symmetry);
    if (!mode) throw InputError(o.resume, "run.symmetry", "expected none, rotations or auto");
    if (o.symmetry && *o.symmetry != *mode) {
      throw UsageError(std::string("--symmetry ") + symmetry_name(*o.symmetry) +
                       " differs from the checkpoint's '" + r.symmetry +
                       "' (leave it out: --resume takes it from the checkpoint)");
    }
    o.symmetry = *mode;
    if (!o.backend) o.backend = r.backend == "links" ? Backend::kLinks : Backend::kBitset;
    const TreeIdentity& t = impl_->saved->tree;
    if (o.distributor && t.shard_count > 1) {
      throw UsageError("the checkpoint is of shard " + std::to_string(t.shard_index) + "/" +
                       std::to_string(t.shard_count) + ": resume it without --mpi");
    }
  }
  const std::string checkpoint = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  if (!checkpoint.empty()) check_writable(o.checkpoint.empty() ? "resume" : "checkpoint", checkpoint);
  symmetry_ = o.symmetry_or_default();
  impl_->infeasible = puzzle_.infeasible();
  // A stop while the group or the SymmetricSolver is made leaves the identity alone and no
  // solver: run() then searches nothing and returns an interrupted Result.
  const Watch watch{o.stop, o.phases};
  try {
    group_ = puzzle_.symmetry_group(to_mode(symmetry_), watch);
    if (impl_->infeasible.empty() && group_.group.order() > 1) {
      impl_->sym.emplace(puzzle_.problem(), group_.group, group_.option_perm, watch);
      // With reflections, the search also counts the classes up to the rotations alone
      // (Result::rotations): a flag per class, from the stabiliser the judge forms anyway.
      impl_->sym->set_subgroup(rotation_subgroup(group_));
    }
  } catch (const Interrupted& e) {
    impl_->stopped_in = e.phase();
    impl_->sym.reset();
    group_ = {trivial_group(puzzle_.problem().num_items()), {0}, {}};
  }
}

Plan::~Plan() = default;

std::size_t Plan::kernel() const {
  return impl_->sym ? impl_->sym->kernel() : 1;
}

const Problem& Plan::searched() const {
  return impl_->sym ? impl_->sym->restricted() : puzzle_.problem();
}

bool Plan::anchored() const {
  return impl_->sym && impl_->sym->anchored();
}

OptionId Plan::original_option(OptionId o) const {
  return impl_->sym ? impl_->sym->original_option(o) : o;
}

nlohmann::json Plan::header_json(const std::string& mode) const {
  const Problem& pb = puzzle_.problem();
  return {{"puzzle",
           {{"file", puzzle_.file()},
            {"name", puzzle_.name()},
            {"kind", puzzle_.kind()},
            {"items", pb.num_items()},
            {"options", pb.num_options()}}},
          {"mode", mode},
          {"expand", options_.expand},
          {"symmetry",
           {{"mode", symmetry_name(symmetry_)},
            {"order", group_.group.order()},
            {"kernel", kernel()},
            {"elements", group_.symmetry},
            {"group", group_json(puzzle_, group_)}}}};
}

Result Plan::run(const SolutionSink& sink) {
  if (impl_->ran) throw Error(Error::Kind::internal, "Plan::run: a plan runs once");
  impl_->ran = true;
  const auto t0 = std::chrono::steady_clock::now();
  const Options& o = options_;
  const Problem& pb = puzzle_.problem();
  const SymmetricSolver* sym = impl_->sym ? &*impl_->sym : nullptr;
  Result res;
  res.notes = puzzle_.notes();
  res.counts.group_order = group_.group.order();
  // Stopped while the constructor found the group: nothing searched, no checkpoint saved.
  if (impl_->stopped_in) {
    res.method = "search";
    res.counts.complete = false;
    res.interrupted = true;
    res.stopped_in = impl_->stopped_in;
    res.search = {{"complete", false}, {"stopped_in", impl_->stopped_in}};
    return res;
  }

  // 1. The checks: no solution, proved before searching.
  if (!impl_->infeasible.empty()) {
    res.method = "checks";
    res.infeasible = impl_->infeasible;
    res.threads = 1;
    const SearchJob tree(pb);
    res.search = search_json("checks", 1, tree.identity(), true, false, 0, 0, 0);
    return res;
  }

  // 2. Counting by memo: asked for, or where the front end expects it to pay.
  const bool search_asked = o.backend.has_value() || !o.checkpoint.empty() ||
                            !o.resume.empty() || o.shard_count > 1 || o.distributor;
  const bool counts_only = !sink && o.limit == 0 && !o.disassemble;
  if (o.count_by == CountBy::memo) {
    if (!counts_only)
      throw UsageError("--count-by memo counts: leave out --first, --all, --limit and --disassemble");
    if (search_asked) {
      throw UsageError(
          "--count-by memo counts on one machine, without checkpoints (see docs/memo.md): leave "
          "out --backend, --checkpoint, --resume, --shard and --mpi");
    }
    if (const std::string why = memo_applies(pb); !why.empty())
      throw UsageError("--count-by memo does not apply: " + why);
  }
  const bool may_memo = o.count_by == CountBy::memo ||
                        (o.count_by == CountBy::automatic && counts_only && !search_asked &&
                         puzzle_.memo_hint() != Puzzle::MemoHint::kNever &&
                         memo_applies(pb).empty());
  std::string search_why;  // the automatic choice's reason to search, when it chose it
  bool race_lost = false;  // ... after the memo raced the search and gave up
  if (may_memo) {
    // The symmetric solver the memo counts with: the plan's, else one of the trivial group, made
    // only once the memo counts (the choice does not need it).
    std::optional<SymmetricSolver> trivial;
    const SymmetricSolver* s = sym;
    const std::vector<ItemId> order = memo_order_of(puzzle_, pb, o.stop);
    MemoLimits ml;
    ml.stop = o.stop;
    ml.order = order;
    ml.threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    // --progress: the memo's share of its tree done, about every progress_seconds (no counts are
    // settled before the end).
    double next_report = 0;
    if (o.on_progress) {
      ml.on_progress = [&](const MemoProgress& m) {
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (t < next_report) return;
        next_report = t + o.progress_seconds;
        JobProgress p;
        p.counts.nodes = m.states;
        p.fraction = m.fraction;
        p.elapsed = t;
        p.cpu = t * ml.threads;
        if (m.fraction > 0) {
          p.eta = t * (1 - m.fraction) / m.fraction;
          p.cpu_eta = p.eta * ml.threads;
        }
        p.busy = ml.threads;
        o.on_progress(p);
      };
    }
    ml.max_bytes = o.memo_budget ? o.memo_budget : default_memo_budget();
    bool by_memo = o.count_by == CountBy::memo;
    std::string why = "asked for (--count-by memo)";
    TrialChoice race;  // the memo's bounds when it races the search (choose_by_trials)
    if (!by_memo) {
      // As the front end expects (Puzzle::memo_hint): Happy Cube structures by memo; where the
      // memo may pay (tilings by a few shapes in many copies, Knuth files) each way is tried
      // briefly (choose_by_trials); the rest by search (a memo whose sub-problems rarely repeat
      // only costs memory: the pentominoes of 6x10 take 2 M of them against 0.23 M search
      // nodes).
      const Puzzle::MemoHint hint = puzzle_.memo_hint();
      if (hint == Puzzle::MemoHint::kAlways) {
        by_memo = true;
        why = "";  // the kind's way of counting, as documented (docs/happycube.md)
      } else if (hint == Puzzle::MemoHint::kTrial && !(o.stop && o.stop->load())) {
        const bool by_orbit = s && s->group_order() > 1;
        race = choose_by_trials(pb, by_orbit ? s->restricted() : pb, ml, o.stop);
        by_memo = race.memo && !(o.stop && o.stop->load());
        if (by_memo)
          why = "chosen: " + race.why;
        else
          search_why = race.why;
      }
    }
    // The race's own stop flag: set by the caller's (polled every 4,096 sub-problems) or when
    // the memo's progress foresees more than race.max_seconds.
    std::atomic<bool> race_stop{false};
    if (by_memo && race.max_seconds > 0) {
      ml.stop = &race_stop;
      ml.max_states = race.max_states;
      auto report = std::move(ml.on_progress);
      ml.on_progress = [&, report = std::move(report)](const MemoProgress& m) {
        if (o.stop && o.stop->load()) race_stop.store(true);
        // (Not before a hundredth of it is spent: a deep tree's early fraction is tiny, and
        // the 4x4x4 box of dominoes foresaw hours where it takes a second.)
        const double spent = static_cast<double>(m.states) * race.state_seconds;
        if (m.fraction > 0 && spent >= race.max_seconds / 100 &&
            spent / m.fraction > race.max_seconds)
          race_stop.store(true);
        if (report) report(m);
      };
    }
    if (by_memo) {
      if (!s) s = &trivial.emplace(pb, trivial_group(pb.num_items()));
      const MemoClasses mc = count_classes_by_memo(*s, ml, 10000);
      const bool stopped = !mc.complete && o.stop && o.stop->load();
      if (mc.complete || stopped) {
        res.method = "memo";
        res.memo_why = why;
        res.counts.total = mc.total;
        res.counts.unique = mc.unique;
        res.counts.symmetric = mc.stats.symmetric;
        res.counts.complete = mc.complete;
        res.interrupted = stopped;
        res.nodes = mc.states;
        res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        res.threads = mc.threads;
        res.memo_states = mc.states;
        res.memo_bytes = mc.bytes;
        const bool by_orbit = s->group_order() > 1;
        const SearchJob tree(by_orbit ? s->restricted() : pb, by_orbit ? s : nullptr);
        res.search = search_json("memo", mc.threads, tree.identity(), mc.complete, false, 0, 0, 0);
        res.search["states"] = mc.states;
        res.search["table_bytes"] = mc.bytes;
        res.search["chosen"] = why.empty() ? "the puzzle's kind (Happy Cube structures count by memo)" : why;
        if (mc.complete && mc.subgroup_unique && wants_rotations(puzzle_, symmetry_, s, 1))
          res.rotations = Result::RotationCounts{*mc.subgroup_unique, std::nullopt};
        return res;
      }
      if (race.max_seconds > 0 && !(o.stop && o.stop->load()) &&
          (race_stop.load() || (race.max_states > 0 && mc.states >= race.max_states))) {
        race_lost = true;
        search_why = "the memo gave up after " + with_commas(mc.states) +
                     " sub-problems, foreseeing more time than the search's (" + race.why + ")";
      } else {
        res.notes.push_back("counting by memo gave up (" + mc.why + "): counted by search instead");
      }
    }
  }

  // 3. The search.
  res.method = "search";
  JobOptions opt;
  opt.threads = o.threads;
  opt.max_classes = o.disassemble ? 0 : o.limit;  // (the limit counts classes that come apart)
  opt.stop = o.stop;
  opt.ordered = static_cast<bool>(sink) && !o.distributor;  // (spread: in the order found)
  opt.shard_index = o.shard_index;
  opt.shard_count = o.shard_count;
  const JobState* saved = impl_->saved ? &*impl_->saved : nullptr;
  if (saved) {
    const TreeIdentity& t = saved->tree;
    if (o.shard_count > 1 && (t.shard_index != o.shard_index || t.shard_count != o.shard_count)) {
      throw UsageError("--shard " + std::to_string(o.shard_index) + "/" +
                       std::to_string(o.shard_count) + " differs from the checkpoint's shard " +
                       std::to_string(t.shard_index) + "/" + std::to_string(t.shard_count));
    }
    opt.shard_index = t.shard_index;
    opt.shard_count = t.shard_count;
    if (t.cut) opt.cut = t.cut;
    opt.resume = saved;
  }
  std::optional<SearchJob> made;
  try {
    if (o.phases) {
      o.phases->total.store(0, std::memory_order_relaxed);
      o.phases->phase.store("building the search's tables", std::memory_order_relaxed);
    }
    made.emplace(sym ? sym->restricted() : pb, sym, o.backend_or_default());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--backend: ") + e.what());
  }
  SearchJob& job = *made;
  if (saved) {
    const std::string d =
        job.identity(opt.shard_count > 1 ? opt.cut : 0, opt.shard_index, opt.shard_count)
            .difference(saved->tree);
    if (!d.empty())
      throw InputError(o.resume, "tree", "the checkpoint belongs to another search: " + d);
  }
  if (o.on_progress) {
    opt.on_progress = o.on_progress;
    opt.progress_seconds = o.progress_seconds;
  }
  const std::string checkpoint = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  // The classes up to the rotations alone are counted with the others (JobCounts::split) where
  // the group has reflections, and known unless this run resumed a checkpoint without them.
  const bool split_known = sym && sym->has_subgroup() && (!saved || impl_->saved_run.split);
  const CheckpointRun run{puzzle_.file(), symmetry_name(symmetry_), backend_name(job.backend()),
                          sym ? sym->group_order() : 1, split_known};
  if (!checkpoint.empty()) {
    opt.checkpoint_seconds = o.checkpoint_every;
    opt.on_checkpoint = [&](const JobState& st) {
      try {
        write_file_atomic(checkpoint, dump_json(checkpoint_json(st, run)) + "\n");
        res.checkpoint_error.clear();
      } catch (const std::runtime_error& e) {
        res.checkpoint_error = e.what();
        if (o.on_checkpoint_error) o.on_checkpoint_error(res.checkpoint_error);
      }
    };
  }

  // Each class found goes to the sink: one solution, or with `expand` every one of the class.
  std::uint64_t classes = 0;
  auto show = [&](std::span<const OptionId> s, std::uint64_t orbit) {
    ++classes;
    Solution out;
    out.class_index = classes;
    out.orbit = orbit;
    if (!o.expand || !sym) {
      out.options = s;
      out.index = ++res.listed;
      return sink(out);
    }
    for (const auto& [g, image] : orbit_of(*sym, s)) {
      out.options = image;
      out.element = g;
      out.index = ++res.listed;
      if (!sink(out)) return false;
    }
    return true;
  };
  // With --disassemble every class is taken apart (disassembly/classes.hpp, on the threads),
  // and only those that come apart (with --keep-locked all) go on to the sink, with the result.
  // Every class taken apart is delivered here, also after the sink or the limit said stop (the
  // search then stops at its next class): the classes that come apart are counted up to the
  // rotations alone too, two for a class that splits up to them (SymmetricSolver::splits).
  std::optional<disassembly::Classes> apart;
  const bool split_apart = split_known && wants_rotations(puzzle_, symmetry_, sym, opt.shard_count);
  std::uint64_t apart_rotations = 0;
  bool delivering = true;  // false once the sink or the limit said stop
  const disassembly::Classes::Deliver deliver = [&](std::span<const OptionId> s, std::uint64_t orbit,
                                                    const disassembly::Result& r) {
    if (split_apart && r.status == disassembly::Status::kApart)
      apart_rotations += sym->splits(s) ? 2 : 1;
    if (!sink || !delivering) return true;
    Solution out;
    out.class_index = ++classes;
    out.orbit = orbit;
    out.options = s;
    out.index = ++res.listed;
    out.disassembly = &r;
    delivering = sink(out) && (o.limit == 0 || res.listed < o.limit);
    return true;
  };
  auto take_apart = [&](std::span<const OptionId> s, std::uint64_t orbit) {
    return delivering && apart->add(s, orbit, deliver) && delivering;
  };
  if (o.disassemble) {
    if (o.expand) throw UsageError("--disassemble lists one solution per class: leave out --expand");
    apart.emplace([this](std::span<const OptionId> s) { return puzzle_.assembly(s); },
                  o.threads, o.keep_locked, o.sort_by_level);
  } else if (o.keep_locked || o.sort_by_level) {
    throw UsageError("--keep-locked and --sort level go with --disassemble");
  }
  ClassVisitor visit(show);  // (non-owning: `show` outlives it)
  ClassVisitor visit_apart(take_apart);
  ClassVisitor* v = apart ? &visit_apart : sink ? &visit : nullptr;
  JobResult jr;
  try {
    jr = o.distributor ? o.distributor->run(job, opt, v) : job.run(opt, v);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (apart) {
    apart->finish(deliver);
    if (!delivering && jr.complete && o.limit) res.limited = true;
    res.disassembly = apart->counts();
  }
  res.counts.total = jr.counts.total;
  res.counts.unique = jr.counts.unique;
  res.counts.symmetric = jr.counts.symmetric;
  res.counts.complete = jr.complete;
  res.interrupted = jr.stopped;
  res.limited = jr.limited;
  res.nodes = jr.counts.nodes;
  res.updates = jr.counts.updates;
  res.seconds = jr.seconds;
  res.threads = jr.threads;
  res.resumed = saved != nullptr;
  res.search = search_json(backend_name(job.backend()), jr.threads, jr.state.tree, jr.complete,
                           res.resumed, jr.spans, jr.splits, jr.state.pending.size());
  res.search["ranks"] = o.distributor ? o.distributor->ranks() : 1;
  // Why the automatic choice searched: in JSON always, in the summary where the memo was tried
  // and gave up (its time was spent).
  if (!search_why.empty()) {
    res.search["chosen"] = search_why;
    if (race_lost) res.memo_why = search_why;
  }
  res.total_seconds = jr.state.seconds;
  if (split_known && jr.complete && !jr.stopped &&
      wants_rotations(puzzle_, symmetry_, sym, opt.shard_count)) {
    res.rotations = Result::RotationCounts{Count(jr.counts.unique + jr.counts.split), std::nullopt};
    // (A resumed run takes apart only the classes it finds itself.)
    if (apart && !saved) res.rotations->apart_unique = Count(apart_rotations);
  }
  return res;
}

std::unique_ptr<Puzzle> load(const std::filesystem::path& path, const Options& options) {
  if (options.max_nodes < 1 || options.max_nodes > kMaxNodesCeiling) {
    Options checked;
    set_option(checked, "max-nodes", std::to_string(options.max_nodes));  // throws, saying why
  }
  LoadOptions lo;
  lo.problem = options.problem;
  lo.limits.max_nodes = options.max_nodes;
  lo.limits.watch = {options.stop, options.phases};
  set_xml_limits(lo.limits, options.max_xml_bytes, options.max_xml_elements);
  std::unique_ptr<Puzzle> p = load_puzzle(path.string(), lo);
  p->set_file(path.string());
  return p;
}

Result solve(const Puzzle& puzzle, const Options& options, const SolutionSink& sink) {
  Plan plan(puzzle, options);
  return plan.run(sink);
}

Counts count(const Puzzle& puzzle, const Options& options) {
  return solve(puzzle, options).counts;
}

}  // namespace cubex
