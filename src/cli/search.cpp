// run_search: the options of `cubex solve` around a cubex::SearchJob (search.hpp).
#include "search.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <thread>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/io/files.hpp"
#include "cubex/io/json.hpp"
#ifdef CUBEX_WITH_MPI
#include "cubex/mpi/cluster.hpp"
#endif

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

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
    throw UsageError("expected --shard K/N with 0 <= K < N, found '" + excerpt(s) + "'");
  }
  sh.k = static_cast<std::uint32_t>(std::stoul(s.substr(0, slash)));
  sh.n = static_cast<std::uint32_t>(std::stoul(s.substr(slash + 1)));
  if (sh.n == 0 || sh.k >= sh.n) {
    throw UsageError("expected --shard K/N with 0 <= K < N, found '" + excerpt(s) + "'");
  }
  return sh;
}

unsigned parse_threads(const std::string& s) {
  if (s.empty()) return 0;
  if (s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(s) > 4096) {
    throw UsageError("expected --threads from 0 (all cores) to 4096, found '" + excerpt(s) + "'");
  }
  return static_cast<unsigned>(std::stoul(s));
}

double parse_seconds(const std::string& s, const char* flag, double fallback) {
  if (s.empty()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < 0.01 || v > 1e7) {
    throw UsageError(std::string("expected ") + flag +
                     " SECONDS, a number from 0.01 to 10000000, found '" + excerpt(s) + "'");
  }
  return v;
}

Backend parse_backend(const std::string& s) {
  if (s == "auto") return Backend::kAuto;
  if (s == "links") return Backend::kLinks;
  if (s == "bitset") return Backend::kBitset;
  throw UsageError("expected --backend auto, links or bitset, found '" + excerpt(s) + "'");
}

const char* backend_name(Backend b) {
  return b == Backend::kBitset ? "bitset" : "links";
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

}  // namespace

void add_search_options(po::options_description& opts, SearchOptions& o) {
  // clang-format off
  opts.add_options()
    ("threads", po::value(&o.threads), "worker threads (default 0: all cores)")
    ("backend", po::value(&o.backend),
     "auto (default), links or bitset: the search backend (both walk the same tree)")
    ("checkpoint", po::value(&o.checkpoint),
     "save the search's state to FILE (every minute, on Ctrl-C/SIGTERM/SIGHUP, at the end)")
    ("checkpoint-every", po::value(&o.checkpoint_every), "seconds between checkpoints (60)")
    ("resume", po::value(&o.resume),
     "go on with the search saved in FILE (and keep saving there); the symmetry mode, backend "
     "and shard come from FILE")
    ("shard", po::value(&o.shard), "K/N: search only shard K of N of a fixed cut of the tree")
    ("progress", po::value(&o.progress)->implicit_value("10"),
     "print a progress line to stderr every SECONDS (default 10), also into logs")
    ("mpi", po::bool_switch(&o.mpi),
     "one search over the ranks of `mpirun -n N cubex solve ... --mpi` (each with --threads); "
     "rank 0 hands out the work, prints, writes --json and the checkpoint (needs a cubex "
     "built with -DCUBEX_MPI=ON)");
  // clang-format on
}

void start_mpi(SearchOptions& o, const po::variables_map& vm) {
  if (!o.mpi) return;
  if (!o.shard.empty()) {
    throw UsageError(
        "--mpi splits the work on demand: leave out --shard (shards are for "
        "schedulers without MPI)");
  }
  if (vm.count("first") || (vm.count("limit") && vm["limit"].as<std::uint64_t>() > 0)) {
    throw UsageError("--mpi counts or lists every solution: leave out --first and --limit");
  }
#ifdef CUBEX_WITH_MPI
  auto session = std::make_shared<mpi::Session>();
  o.rank = session->rank();
  o.ranks = session->size();
  o.mpi_session = session;
#elif defined(CUBEX_MPI_PROGRAM)
  // The MPI mode is the program beside this one (CMakeLists.txt: cubex loads no MPI library),
  // run in this process's place with the same arguments; nothing has been written yet.
  std::string path = CUBEX_MPI_PROGRAM;
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    const std::string exe(self, static_cast<std::size_t>(n));
    path = exe.substr(0, exe.rfind('/') + 1) + CUBEX_MPI_PROGRAM;
    std::cout.flush();
    std::cerr.flush();
    ::execv(path.c_str(), g_argv);
  }
  throw UsageError("--mpi runs " + path +
                   " (built with -DCUBEX_MPI=ON beside cubex), which could not be started: " +
                   std::strerror(errno));
#else
  throw UsageError(
      "this cubex was built without MPI: configure with -DCUBEX_MPI=ON (Debian: tools/setup.sh "
      "--mpi installs Open MPI; docs/parallel.md)");
#endif
}

void load_resume(SearchOptions& o) {
  if (o.resume.empty()) return;
  o.saved = read_checkpoint(o.resume, &o.saved_run);
}

SearchOutcome run_search(const Problem& pb, const std::string& file, ClassVisitor* visit,
                         const SolveLimits& limits, SearchOptions& o, const SymmetricSolver* sym,
                         const std::string& symmetry) {
  const unsigned threads = parse_threads(o.threads);
  const double every = parse_seconds(o.checkpoint_every, "--checkpoint-every", 60);
  const double progress_every = parse_seconds(o.progress, "--progress", 10);
  Backend backend = parse_backend(o.backend);
  const std::string checkpoint = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  JobOptions opt;
  opt.threads = threads;
  opt.max_classes = limits.max_solutions;
  opt.stop = limits.stop;
  opt.ordered = visit != nullptr && !o.mpi;  // (over MPI: in the order the ranks find them)
  if (!o.shard.empty()) {
    const Shard sh = parse_shard(o.shard);
    opt.shard_index = sh.k;
    opt.shard_count = sh.n;
  }
  if (o.saved) {
    const TreeIdentity& t = o.saved->tree;
    if (o.mpi && t.shard_count > 1) {
      throw UsageError("the checkpoint is of shard " + std::to_string(t.shard_index) + "/" +
                       std::to_string(t.shard_count) + ": resume it without --mpi");
    }
    if (!o.shard.empty() &&
        (t.shard_index != opt.shard_index || t.shard_count != opt.shard_count)) {
      throw UsageError("--shard " + o.shard + " differs from the checkpoint's shard " +
                       std::to_string(t.shard_index) + "/" + std::to_string(t.shard_count));
    }
    opt.shard_index = t.shard_index;
    opt.shard_count = t.shard_count;
    if (t.cut) opt.cut = t.cut;
    opt.resume = &*o.saved;
  }
  std::optional<SearchJob> made;  // a backend that cannot take the problem is bad input
  try {
    made.emplace(sym ? sym->restricted() : pb, sym, backend);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--backend: ") + e.what());
  }
  SearchJob& job = *made;
  if (o.saved) {
    const std::string d =
        job.identity(opt.shard_count > 1 ? opt.cut : 0, opt.shard_index, opt.shard_count)
            .difference(o.saved->tree);
    if (!d.empty()) {
      throw InputError(o.resume, "tree", "the checkpoint belongs to another search: " + d);
    }
  }

  // The progress line: on a terminal, redrawn in place every quarter second; with --progress,
  // a new line every so many seconds (for logs).
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const bool lines = !o.progress.empty();
  std::size_t width = 0;
  auto last_line = std::chrono::steady_clock::now();
  bool first_line = true;
  if (tty || lines) {
    opt.progress_seconds = lines && !tty ? progress_every : 0.25;
    opt.on_progress = [&](const JobProgress& p) {
      char frac[16];
      std::snprintf(frac, sizeof frac, "%5.1f%%", 100 * p.fraction);
      std::string line = std::string(frac) + "  solutions " + with_commas(p.counts.total) +
                         "  nodes " + short_count(p.counts.nodes) + "  elapsed " +
                         elapsed_text(p.elapsed) + "  left " +
                         (p.eta < 0 ? std::string("?") : "~" + elapsed_text(p.eta));
      const auto now = std::chrono::steady_clock::now();
      if (lines &&
          (first_line || now - last_line >= std::chrono::duration<double>(progress_every) ||
           p.fraction >= 1)) {
        if (tty && width) std::cerr << '\r' << std::string(width, ' ') << '\r';
        std::cerr << "progress: " << line << "\n" << std::flush;
        last_line = now;
        first_line = false;
        width = 0;
        return;
      }
      if (!tty) return;
      const std::size_t w = line.size();
      if (line.size() < width) line.append(width - line.size(), ' ');
      width = w;
      std::cerr << '\r' << line << std::flush;
    };
  }
  CheckpointRun run{file, symmetry, backend_name(job.backend()), sym ? sym->group_order() : 1};
  if (!checkpoint.empty()) {
    opt.checkpoint_seconds = every;
    opt.on_checkpoint = [&](const JobState& st) {
      try {
        write_file_atomic(checkpoint, dump_json(checkpoint_json(st, run)) + "\n");
      } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
      }
    };
  }
  SearchOutcome out;
#ifdef CUBEX_WITH_MPI
  if (o.mpi) {
    const auto& session = *std::static_pointer_cast<mpi::Session>(o.mpi_session);
    if (!session.root()) {  // rank 0 reports and saves for all
      opt.on_progress = nullptr;
      opt.on_checkpoint = nullptr;
    }
    try {
      out.job = mpi::run(session, job, opt, visit);
    } catch (const std::exception& e) {
      // The other ranks wait for this one: end them all (exit 2 for bad input, as always).
      const bool bad_input = dynamic_cast<const std::invalid_argument*>(&e) ||
                             dynamic_cast<const UsageError*>(&e) ||
                             dynamic_cast<const InputError*>(&e);
      if (session.size() == 1) {
        if (dynamic_cast<const std::invalid_argument*>(&e)) throw UsageError(e.what());
        throw;
      }
      std::cerr << "cubex solve: rank " << session.rank() << " of " << session.size() << ": "
                << e.what() << std::endl;
      session.abort(bad_input ? kExitBadInput : kExitInternal);
    }
  }
#endif
  if (!o.mpi) {
    try {
      out.job = job.run(opt, visit);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (tty && width) std::cerr << "\n";
  const TreeIdentity id = out.job.state.tree;
  out.json = {{"backend", backend_name(job.backend())},
              {"threads", out.job.threads},
              {"fingerprint", id.fingerprint},
              {"tree", tree_identity_json(id)},
              {"cut", id.cut},
              {"shard", std::to_string(id.shard_index) + "/" + std::to_string(id.shard_count)},
              {"complete", out.job.complete},
              {"resumed", o.saved.has_value()},
              {"spans", out.job.spans},
              {"splits", out.job.splits},
              {"pending", out.job.state.pending.size()},
              {"ranks", o.ranks}};
  return out;
}

}  // namespace cubex::cli
