// The MPI mode's start and the progress line of `cubex solve` (search.hpp).
#include "search.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli.hpp"
#include "cubex/error.hpp"
#ifdef CUBEX_WITH_MPI
#include "cubex/mpi/distributor.hpp"
#endif

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

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

void MpiRank::fail(const std::string& message, int status) const {
#ifdef CUBEX_WITH_MPI
  if (session && ranks > 1) {
    std::cerr << "cubex solve: rank " << rank << " of " << ranks << ": " << message << std::endl;
    std::static_pointer_cast<mpi::Session>(session)->abort(status);
  }
#else
  (void)message;
  (void)status;
#endif
}

void start_mpi(MpiRank& m, const po::variables_map& vm, const Options& options) {
  if (!m.on) return;
  if (options.shard_count > 1) {
    throw UsageError(
        "--mpi splits the work on demand: leave out --shard (shards are for "
        "schedulers without MPI)");
  }
  if (vm.count("first") || options.limit > 0) {
    throw UsageError("--mpi counts or lists every solution: leave out --first and --limit");
  }
#ifdef CUBEX_WITH_MPI
  auto session = std::make_shared<mpi::Session>();
  m.rank = session->rank();
  m.ranks = session->size();
  m.distributor = std::make_unique<mpi::ClusterDistributor>(*session);
  m.session = session;
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

void ProgressLine::finish() const {
  // The summary that follows says it all: the line is wiped rather than left behind.
  if (*width) std::cerr << '\r' << std::string(*width, ' ') << '\r' << std::flush;
  *width = 0;
}

ProgressLine progress_line(double every, double after) {
  ProgressLine p;
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const bool lines = every > 0;
  if (!tty && !lines) return p;
  p.seconds = lines && !tty ? every : 0.25;
  struct State {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last = start;
    bool first = true;
  };
  auto state = std::make_shared<State>();
  auto width = p.width;
  p.report = [=](const Progress& pr) {
    char frac[16];
    std::snprintf(frac, sizeof frac, "%5.1f%%", 100 * pr.fraction);
    std::string line = std::string(frac) + "  solutions " + with_commas(pr.counts.total) +
                       "  nodes " + short_count(pr.counts.nodes) + "  elapsed " +
                       elapsed_text(pr.elapsed) + "  left " +
                       (pr.eta < 0 ? std::string("?") : "~" + elapsed_text(pr.eta));
    const auto now = std::chrono::steady_clock::now();
    if (lines && (state->first || now - state->last >= std::chrono::duration<double>(every) ||
                  pr.fraction >= 1)) {
      if (tty && *width) std::cerr << '\r' << std::string(*width, ' ') << '\r';
      std::cerr << "progress: " << line << "\n" << std::flush;
      state->last = now;
      state->first = false;
      *width = 0;
      return;
    }
    // On a terminal, nothing for the first `after` seconds: a short run shows no line at all.
    if (!tty || now - state->start < std::chrono::duration<double>(after)) return;
    const std::size_t w = line.size();
    if (line.size() < *width) line.append(*width - line.size(), ' ');
    *width = w;
    std::cerr << '\r' << line << std::flush;
  };
  return p;
}

PhaseLine::PhaseLine(double every, double after) : every_(every) {
  if (every_ <= 0) return;
  thread_ = std::thread([this, after] {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto next =
        start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(after));
    std::unique_lock lock(mu_);
    while (!changed_.wait_until(lock, next, [this] { return done_; })) {
      const char* phase = board_.phase.load(std::memory_order_relaxed);
      next += std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(every_));
      if (!phase) continue;
      const std::uint64_t total = board_.total.load(std::memory_order_relaxed);
      const std::uint64_t done = board_.done.load(std::memory_order_relaxed);
      std::string line = std::string("progress: preparing: ") + phase;
      if (total > 0) {
        char frac[16];
        std::snprintf(frac, sizeof frac, "  %.0f%%",
                      100.0 * std::min<double>(1, double(done) / total));
        line += frac;
      }
      line +=
          "  elapsed " + elapsed_text(std::chrono::duration<double>(clock::now() - start).count());
      std::cerr << line + "\n" << std::flush;
    }
  });
}

void PhaseLine::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    done_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

PhaseLine::~PhaseLine() {
  stop();
}

}  // namespace cubex::cli
