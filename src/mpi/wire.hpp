// The cluster's wire format (cluster.cpp): every message a vector of 64-bit words, the first
// kMagic (the protocol and its version), then numbers, doubles (their bits), texts (8 characters
// to a word), counts, paths and spans. Nothing here calls MPI: tests/test_mpi_wire.cpp reads
// and writes messages without it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubex/core/job.hpp"

namespace cubex::mpi::detail {

using Words = std::vector<std::uint64_t>;
// The first word of every message: cubex's cluster protocol and its version (2: kReported holds
// the works received and the spans held; 3: counts hold `split`).
inline constexpr std::uint64_t kMagicBase = 0xC0BE'0000, kVersion = 3;
inline constexpr std::uint64_t kMagic = kMagicBase | kVersion;

enum Tag : int {
  // to the coordinator
  kHello = 1,
  kWant,
  kDonate,
  kReported,
  kSnapped,
  kSolutions,
  kStop,
  // to a member
  kWork = 20,
  kGive,
  kReport,
  kSnap,
  kResume,
  kQuit,
};

struct Writer {
  Words w{kMagic};
  void u(std::uint64_t v) { w.push_back(v); }
  void d(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    w.push_back(b);
  }
  void text(const std::string& s) {
    u(s.size());
    for (std::size_t k = 0; k < s.size(); k += 8) {
      std::uint64_t b = 0;
      std::memcpy(&b, s.data() + k, std::min<std::size_t>(8, s.size() - k));
      w.push_back(b);
    }
  }
  void counts(const JobCounts& c, double weight) {
    for (std::uint64_t v :
         {c.unique, c.total, c.symmetric, c.split, c.solutions, c.nodes, c.updates})
      u(v);
    d(weight);
  }
  void path(const TreePath& p) {
    u(p.size());
    for (std::uint32_t x : p) u(x);
  }
  void span(const TreeSpan& s) {
    u(s.to_end);
    d(s.weight);
    path(s.begin);
    path(s.end);
  }
};

struct Reader {
  const Words& w;
  std::size_t at = 1;
  std::uint64_t u() {
    if (at >= w.size()) throw std::runtime_error("cluster: a message ends too soon");
    return w[at++];
  }
  double d() {
    const std::uint64_t b = u();
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  }
  // A count of things of at least `words` words each (or of characters, 8 to a word).
  std::size_t size(std::size_t limit, double words = 1) {
    const std::uint64_t n = u();
    if (n > limit || n * words > static_cast<double>(w.size() - at)) {
      throw std::runtime_error("cluster: a malformed message");
    }
    return static_cast<std::size_t>(n);
  }
  std::string text() {
    const std::size_t n = size(std::size_t{1} << 20, 1.0 / 8);
    std::string s(n, '\0');
    for (std::size_t k = 0; k < n; k += 8) {
      const std::uint64_t b = u();
      std::memcpy(s.data() + k, &b, std::min<std::size_t>(8, n - k));
    }
    return s;
  }
  JobCounts counts(double& weight) {
    JobCounts c;
    c.unique = u();
    c.total = u();
    c.symmetric = u();
    c.split = u();
    c.solutions = u();
    c.nodes = u();
    c.updates = u();
    weight = d();
    return c;
  }
  TreePath path() {
    TreePath p(size(1u << 16));
    for (auto& x : p) x = static_cast<std::uint32_t>(u());
    return p;
  }
  TreeSpan span() {
    TreeSpan s;
    s.to_end = u() != 0;
    s.weight = d();
    s.begin = path();
    s.end = path();
    return s;
  }
  bool done() const { return at == w.size(); }
};

// Throws std::invalid_argument (a run set up wrong: exit 2) unless `w`, from rank `from`, starts
// with this protocol's kMagic; the message says whose protocol it is.
inline void check_magic(int from, const Words& w) {
  if (!w.empty() && w[0] == kMagic) return;
  const bool ours = !w.empty() && (w[0] & ~std::uint64_t{0xFFFF}) == kMagicBase;
  const std::string version = std::to_string(w.empty() ? 0 : w[0] & 0xFFFF);
  const std::string theirs = ours ? "version " + version +
                                        " of the cluster protocol, this rank version " +
                                        std::to_string(kVersion)
                                  : "another cluster protocol";
  throw std::invalid_argument("rank " + std::to_string(from) + " speaks " + theirs +
                              " (another cubex version?)");
}

// The tree identity as the kHello message carries it (the shard aside: none over MPI).
inline std::string identity_text(const TreeIdentity& id) {
  return id.fingerprint + "|" + std::to_string(id.items) + "|" + std::to_string(id.options) + "|" +
         id.order + "|" + id.rule + "|" + id.judge;
}

}  // namespace cubex::mpi::detail
