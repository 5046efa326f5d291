// The distance table by breadth-first search, its cache file, and the optimal solver.
#include "cubex/pocket/table.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "cubex/error.hpp"
#include "cubex/util/files.hpp"

namespace cubex::pocket {
namespace {

// Cache file layout (little-endian as written by this machine; a file from another byte order
// fails the checks and is rebuilt):
//   8 bytes magic "CUBEXPKT", u32 format version, u32 metric (0 htm, 1 qtm), u64 state count,
//   u64 move fingerprint, u64 FNV-1a checksum of the data, then one byte per state.
constexpr char kMagic[8] = {'C', 'U', 'B', 'E', 'X', 'P', 'K', 'T'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 8 + 8 + 8;

std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n, std::uint64_t h = 1469598103934665603u) {
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211u;
  }
  return h;
}

// A hash of the moves as the move tables apply them, so a cache built with other moves (or
// another state numbering) is recognised as stale.
std::uint64_t move_fingerprint() {
  std::uint64_t h = 1469598103934665603u;
  for (std::uint32_t s = 0; s < kNumStates; s += 997) {
    for (int m = 0; m < kNumMoves; ++m) {
      const std::uint32_t t = apply_move(s, m);
      h = fnv1a(reinterpret_cast<const std::uint8_t*>(&t), sizeof t, h);
    }
  }
  return h;
}

template <typename T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <typename T>
T get(std::string_view bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

DistanceTable DistanceTable::build(Metric metric) {
  std::vector<std::uint8_t> dist(kNumStates, kUnreached);
  const std::span<const std::uint8_t> moves = metric_moves(metric);
  dist[0] = 0;
  std::uint64_t frontier = 1;
  for (std::uint8_t d = 0; frontier > 0; ++d) {
    frontier = 0;
    for (std::uint32_t s = 0; s < kNumStates; ++s) {
      if (dist[s] != d) continue;
      for (std::uint8_t m : moves) {
        const std::uint32_t t = apply_move(s, m);
        if (dist[t] == kUnreached) {
          dist[t] = static_cast<std::uint8_t>(d + 1);
          ++frontier;
        }
      }
    }
  }
  return DistanceTable(metric, std::move(dist));
}

std::vector<std::uint64_t> DistanceTable::distribution() const {
  std::vector<std::uint64_t> out;
  for (std::uint8_t d : dist_) {
    if (d == kUnreached) continue;
    if (d >= out.size()) out.resize(d + 1u, 0);
    ++out[d];
  }
  return out;
}

std::vector<int> DistanceTable::solve(std::uint32_t state) const {
  std::vector<int> out;
  int d = dist_[state];
  if (d == kUnreached) throw std::logic_error("state not in the distance table");
  const std::span<const std::uint8_t> moves = metric_moves(metric_);
  while (d > 0) {
    bool stepped = false;
    for (std::uint8_t m : moves) {
      const std::uint32_t t = apply_move(state, m);
      if (dist_[t] == d - 1) {
        out.push_back(m);
        state = t;
        --d;
        stepped = true;
        break;
      }
    }
    if (!stepped) throw std::logic_error("distance table is inconsistent");
  }
  return out;
}

std::string DistanceTable::serialize() const {
  std::string out(kMagic, sizeof kMagic);
  put<std::uint32_t>(out, kFormatVersion);
  put<std::uint32_t>(out, metric_ == Metric::kHalfTurn ? 0 : 1);
  put<std::uint64_t>(out, kNumStates);
  put<std::uint64_t>(out, move_fingerprint());
  put<std::uint64_t>(out, fnv1a(dist_.data(), dist_.size()));
  out.append(reinterpret_cast<const char*>(dist_.data()), dist_.size());
  return out;
}

std::optional<DistanceTable> DistanceTable::parse(std::string_view bytes, Metric metric,
                                                  std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<DistanceTable> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (bytes.size() != kHeaderSize + kNumStates) {
    return fail("expected " + std::to_string(kHeaderSize + kNumStates) + " bytes, found " +
                std::to_string(bytes.size()));
  }
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return fail("not a cubex table");
  if (get<std::uint32_t>(bytes, 8) != kFormatVersion) {
    return fail("format version " + std::to_string(get<std::uint32_t>(bytes, 8)) + ", expected " +
                std::to_string(kFormatVersion));
  }
  if (get<std::uint32_t>(bytes, 12) != (metric == Metric::kHalfTurn ? 0u : 1u)) {
    return fail("table of another metric");
  }
  if (get<std::uint64_t>(bytes, 16) != kNumStates) return fail("wrong state count");
  if (get<std::uint64_t>(bytes, 24) != move_fingerprint()) {
    return fail("built with other moves (stale)");
  }
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data() + kHeaderSize);
  if (get<std::uint64_t>(bytes, 32) != fnv1a(data, kNumStates)) return fail("checksum mismatch");
  DistanceTable t(metric, std::vector<std::uint8_t>(data, data + kNumStates));
  // A last sanity check of the contents: solved at 0, and a sample of states obeying the
  // breadth-first property (some neighbour one closer, none two closer).
  if (t.dist_[0] != 0) return fail("solved state not at distance 0");
  for (std::uint32_t s = 1; s < kNumStates; s += 7919) {
    int best = kUnreached;
    for (std::uint8_t m : metric_moves(metric))
      best = std::min<int>(best, t.dist_[apply_move(s, m)]);
    if (t.dist_[s] == kUnreached || best + 1 != t.dist_[s]) return fail("inconsistent distances");
  }
  return t;
}

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/cubex";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/cubex";
  return "";
}

std::string cache_path(const std::string& dir, Metric metric) {
  return dir + "/pocket-" + std::string(metric_name(metric)) + ".v" +
         std::to_string(kFormatVersion) + ".table";
}

LoadedTable load_or_build(Metric metric, const std::string& cache_dir) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string note;
  bool had_cache = false;
  const std::string path = cache_dir.empty() ? "" : cache_path(cache_dir, metric);
  if (!path.empty() && std::filesystem::exists(path)) {
    had_cache = true;
    try {
      std::string why;
      if (auto t = DistanceTable::parse(read_file(path), metric, &why)) {
        return {std::move(*t), LoadedTable::Source::kLoaded, path, "", seconds_since(t0)};
      }
      note = "cache " + path + " rejected (" + why + "), rebuilt";
    } catch (const InputError& e) {
      note = std::string("cache unreadable (") + e.what() + "), rebuilt";
    }
  }
  DistanceTable table = DistanceTable::build(metric);
  if (!path.empty()) {
    try {
      std::filesystem::create_directories(cache_dir);
      write_file_atomic(path, table.serialize());
    } catch (const std::exception& e) {
      note += std::string(note.empty() ? "" : "; ") + "cache not written: " + e.what();
    }
  }
  const auto source = had_cache ? LoadedTable::Source::kRebuilt : LoadedTable::Source::kBuilt;
  return {std::move(table), source, path, note, seconds_since(t0)};
}

}  // namespace cubex::pocket
