// cubex_schedule: how the search job's split-on-demand scheduling would scale past this machine.
//
//   build/cubex_schedule [--units N] [--latency-us L] FILE...
//   build/cubex_schedule --eta [--threads T] [--repeat N] FILE...
//
// For each Knuth-format FILE it cuts the search tree into N consecutive spans (SearchJob::cut,
// default 65,536), searches every span alone on one thread and records its work (nodes and CPU
// seconds). It then replays the scheduler of cubex/core/job.hpp for 2, 16, 64 and 1,024 workers:
// one worker starts with the whole line of spans; an idle worker asks, and a busy one hands over
// the later half of what it has left (the engine halves its untried children the same way); a
// hand-over costs the replay of the spans' path plus `latency` (0 for threads; e.g. 50 us for one
// message round trip between machines). Efficiency = work / (workers x makespan).
// The finest grain of the replay is one span of the cut, so the figures are a lower bound where a
// single span is large.
//
// --eta: how good the progress line's estimates are. Each FILE is searched (one thread unless
// --threads) with a progress report every 0.05 s. The reports at 10%, 50% and 90% of the run's
// time give the relative error of the predicted time left (against the time the run then really
// took) and of the nodes left that the reported fraction stands for (nodes searched x (1 - f) / f,
// against the nodes the run then really searched); the last column is the worst of either over
// the reports from 10% to 90% of the run. With --repeat N each file is searched N times and each
// cell is the median error (by size). The time depends on the machine's load as well (the rate
// of the run so far is assumed to go on); the nodes do not.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>
#include <vector>

#include "cubex/core/job.hpp"
#include "cubex/io/knuth.hpp"

namespace {

struct Sim {
  double makespan = 0;
  std::uint64_t handovers = 0;
};

// Workers hold ranges [a, b) of span indices; each finishes span after span. When one runs dry it
// takes the later half of the largest remaining range of another (by count of spans, as the
// engine halves children), paying `cost_us` of overhead.
Sim simulate(const std::vector<double>& work, unsigned workers, double cost) {
  struct W {
    std::size_t a = 0, b = 0;  // its spans
    double t = 0;              // time at which its current span ends (or it became idle)
  };
  std::vector<W> w(workers);
  w[0].b = work.size();
  Sim out;
  auto busy = [&](unsigned k) { return w[k].a < w[k].b; };
  std::size_t done = 0;
  std::vector<double> clock(workers, 0);
  while (done < work.size()) {
    // Idle workers take the later half of the most spans another has left.
    for (unsigned k = 0; k < workers; ++k) {
      if (busy(k)) continue;
      unsigned v = workers;
      std::size_t most = 1;
      for (unsigned j = 0; j < workers; ++j)
        if (w[j].b - w[j].a > most) most = w[j].b - w[j].a, v = j;
      if (v == workers) break;  // nobody has two spans left: nothing to hand over
      const std::size_t half = (w[v].b - w[v].a) / 2;
      w[k].b = w[v].b;
      w[k].a = w[v].b - half;
      w[v].b = w[k].a;
      clock[k] = std::max(clock[k], clock[v]) + cost;
      ++out.handovers;
    }
    // The busy worker with the earliest clock does its next span.
    unsigned best = workers;
    for (unsigned k = 0; k < workers; ++k)
      if (busy(k) && (best == workers || clock[k] < clock[best])) best = k;
    clock[best] += work[w[best].a++];
    ++done;
  }
  for (unsigned k = 0; k < workers; ++k) out.makespan = std::max(out.makespan, clock[k]);
  return out;
}

// One run of --eta: the errors at 10%, 50% and 90% of the run (time left, nodes left) and the
// worst of each from 10% to 90%.
struct EtaRun {
  double seconds = 0;
  double time[3] = {0, 0, 0}, nodes[3] = {0, 0, 0};
  double worst_time = 0, worst_nodes = 0;
};

EtaRun eta_run(cubex::SearchJob& job, unsigned threads) {
  struct Mark {
    double elapsed, eta, fraction, nodes;
  };
  std::vector<Mark> marks;
  cubex::JobOptions opt;
  opt.threads = threads;
  opt.progress_seconds = 0.05;
  opt.on_progress = [&](const cubex::JobProgress& p) {
    marks.push_back({p.elapsed, p.eta, p.fraction, static_cast<double>(p.counts.nodes)});
  };
  const cubex::JobResult r = job.run(opt);
  const double total = r.seconds, nodes = static_cast<double>(r.counts.nodes);
  // Relative errors of the time left and of the nodes left the fraction stands for.
  auto time_error = [&](const Mark& m) {
    return (m.eta - (total - m.elapsed)) / (total - m.elapsed);
  };
  auto node_error = [&](const Mark& m) {
    const double left = nodes - m.nodes;
    return (m.nodes * (1 - m.fraction) / m.fraction - left) / left;
  };
  auto usable = [&](const Mark& m) {
    return m.eta >= 0 && m.fraction > 0 && m.elapsed < total && m.nodes < nodes;
  };
  EtaRun out;
  out.seconds = total;
  const double at[3] = {0.1, 0.5, 0.9};
  for (int k = 0; k < 3; ++k) {
    auto m = std::find_if(marks.begin(), marks.end(),
                          [&](const Mark& x) { return x.elapsed >= at[k] * total && usable(x); });
    out.time[k] = m == marks.end() ? NAN : time_error(*m);
    out.nodes[k] = m == marks.end() ? NAN : node_error(*m);
  }
  for (const Mark& m : marks) {
    if (m.elapsed < 0.1 * total || m.elapsed > 0.9 * total) continue;
    if (!usable(m)) {
      out.worst_time = out.worst_nodes = NAN;  // no estimate at all
      break;
    }
    if (std::abs(time_error(m)) > std::abs(out.worst_time)) out.worst_time = time_error(m);
    if (std::abs(node_error(m)) > std::abs(out.worst_nodes)) out.worst_nodes = node_error(m);
  }
  return out;
}

int eta_table(const std::vector<std::string>& files, unsigned threads, unsigned repeat) {
  std::printf(
      "| file | run (s) | at 10%% of the run: time left / nodes left | at 50%% | at 90%% | worst, "
      "10%%-90%% |\n|---|---|---|---|---|---|\n");
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    return v[v.size() / 2];  // by size: the middle error
  };
  for (const std::string& f : files) {
    const cubex::KnuthFile kf = cubex::read_knuth_file(f);
    cubex::SearchJob job(kf.problem);
    std::vector<EtaRun> runs;
    for (unsigned k = 0; k < repeat; ++k) runs.push_back(eta_run(job, threads));
    auto cell = [&](auto get) {
      std::vector<double> v;
      for (const EtaRun& r : runs) v.push_back(get(r));
      return median(v);
    };
    std::string row = f.substr(f.find_last_of('/') + 1);
    char buf[96];
    std::snprintf(buf, sizeof buf, " | %.2f", cell([](const EtaRun& r) { return r.seconds; }));
    row += buf;
    for (int k = 0; k < 3; ++k) {
      std::snprintf(buf, sizeof buf, " | %+.0f%% / %+.0f%%",
                    100 * cell([k](const EtaRun& r) { return r.time[k]; }),
                    100 * cell([k](const EtaRun& r) { return r.nodes[k]; }));
      row += buf;
    }
    std::snprintf(buf, sizeof buf, " | %+.0f%% / %+.0f%%",
                  100 * cell([](const EtaRun& r) { return r.worst_time; }),
                  100 * cell([](const EtaRun& r) { return r.worst_nodes; }));
    row += buf;
    std::printf("| %s |\n", row.c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint32_t units = 65536;
  double latency_us = 50;
  std::vector<std::string> files;
  bool eta = false;
  unsigned threads = 1, repeat = 1;
  for (int k = 1; k < argc; ++k) {
    if (!std::strcmp(argv[k], "--eta")) {
      eta = true;
    } else if (!std::strcmp(argv[k], "--repeat") && k + 1 < argc) {
      repeat = std::max(1u, static_cast<unsigned>(std::stoul(argv[++k])));
    } else if (!std::strcmp(argv[k], "--threads") && k + 1 < argc) {
      threads = static_cast<unsigned>(std::stoul(argv[++k]));
    } else if (!std::strcmp(argv[k], "--units") && k + 1 < argc) {
      units = static_cast<std::uint32_t>(std::stoul(argv[++k]));
    } else if (!std::strcmp(argv[k], "--latency-us") && k + 1 < argc) {
      latency_us = std::stod(argv[++k]);
    } else {
      files.push_back(argv[k]);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: cubex_schedule [--units N] [--latency-us L] | --eta [--threads T] "
                 "[--repeat N] FILE...\n");
    return 2;
  }
  if (eta) return eta_table(files, threads, repeat);
  std::printf(
      "| file | spans | largest span | work (s) | 2 | 16 | 64 | 1,024 | 64, +%g us | 1,024, +%g us "
      "|\n",
      latency_us, latency_us);
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& f : files) {
    const cubex::KnuthFile kf = cubex::read_knuth_file(f);
    cubex::SearchJob job(kf.problem);
    const auto starts = job.cut(units);
    std::vector<double> work;
    double total = 0;
    for (std::size_t k = 0; k < starts.size(); ++k) {
      cubex::TreeSpan s;
      s.begin = starts[k];
      if (k + 1 < starts.size()) {
        s.end = starts[k + 1];
        s.to_end = false;
      }
      const auto t0 = std::chrono::steady_clock::now();
      job.search(s);
      const double sec =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      work.push_back(sec);
      total += sec;
    }
    const double largest = *std::max_element(work.begin(), work.end());
    // A hand-over between threads: the replay of a path, about a microsecond.
    const double replay = 1e-6;
    std::string row = f.substr(f.find_last_of('/') + 1);
    char buf[128];
    std::snprintf(buf, sizeof buf, " | %zu | %.2f%% | %.2f", starts.size(), 100 * largest / total,
                  total);
    row += buf;
    for (unsigned p : {2u, 16u, 64u, 1024u}) {
      const Sim s = simulate(work, p, replay);
      std::snprintf(buf, sizeof buf, " | %.1f%%", 100 * total / (p * s.makespan));
      row += buf;
    }
    for (unsigned p : {64u, 1024u}) {
      const Sim s = simulate(work, p, replay + latency_us * 1e-6);
      std::snprintf(buf, sizeof buf, " | %.1f%%", 100 * total / (p * s.makespan));
      row += buf;
    }
    std::printf("| %s |\n", row.c_str());
    std::fflush(stdout);
  }
  return 0;
}
