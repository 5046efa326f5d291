// Taking apart the classes of a puzzle on several threads (cubex/disassembly/classes.hpp).
#include "cubex/disassembly/classes.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace cubex::disassembly {

bool higher(const std::vector<int>& a, const std::vector<int>& b) {
  return std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end());
}

std::string level_text(const std::vector<int>& level) {
  std::string out;
  for (std::size_t k = 0; k < level.size(); ++k) out += (k ? "." : "") + std::to_string(level[k]);
  return out;
}

nlohmann::json to_json(const Result& r) {
  if (r.status != Status::kApart) return nullptr;
  nlohmann::json moves = nlohmann::json::array();
  for (const Move& m : r.moves()) {
    moves.push_back({{"pieces", m.pieces},
                     {"direction", direction_name(m.direction)},
                     {"distance", m.distance},
                     {"separates", m.separates}});
  }
  nlohmann::json out = {{"level", r.level}, {"moves", moves}};
  if (r.lifts_all_but_one) out["lifts_all_but_one"] = true;
  return out;
}

namespace {
// Classes taken apart together: enough for every thread to have work, few enough that the
// first solutions are not held back long.
constexpr std::size_t kBatchPerThread = 64;
}  // namespace

Classes::Classes(Assembly assembly, unsigned threads, bool keep_locked, bool by_level,
                 Limits limits)
    : assembly_(std::move(assembly)),
      threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())),
      keep_locked_(keep_locked),
      by_level_(by_level),
      limits_(limits) {
  for (unsigned t = 0; t < threads_; ++t) workspaces_.push_back(std::make_unique<Workspace>());
}

Classes::~Classes() = default;

bool Classes::add(std::span<const OptionId> solution, std::uint64_t orbit,
                  const Deliver& deliver) {
  if (stopped_) return false;
  Item it;
  it.solution.assign(solution.begin(), solution.end());
  it.orbit = orbit;
  it.order = seen_++;
  batch_.push_back(std::move(it));
  if (batch_.size() < kBatchPerThread * threads_) return true;
  return flush(deliver);
}

void Classes::run_batch() {
  std::atomic<std::size_t> next{0};
  auto work = [&](unsigned t) {
    Workspace& w = *workspaces_[t];
    for (std::size_t k; (k = next.fetch_add(1)) < batch_.size();) {
      Item& it = batch_[k];
      const std::optional<Input> in = assembly_(it.solution);
      if (!in) {
        it.result.status = Status::kLocked;
        it.result.message = "no pieces";
        continue;
      }
      it.result = disassemble(*in, w, limits_);
    }
  };
  const unsigned n = unsigned(std::min<std::size_t>(threads_, batch_.size()));
  if (n <= 1) {
    work(0);
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& th : pool) th.join();
}

bool Classes::flush(const Deliver& deliver) {
  run_batch();
  for (Item& it : batch_) {
    const Result& r = it.result;
    counts_.positions += r.positions;
    if (r.status == Status::kApart) {
      counts_.apart += it.orbit;
      ++counts_.apart_unique;
      ++counts_.levels[r.level];
      if (r.lifts_all_but_one) ++counts_.lifts_all_but_one;
      if (counts_.hardest.empty() || higher(r.level, counts_.hardest)) counts_.hardest = r.level;
    } else if (r.status == Status::kCut) {
      ++counts_.cut_unique;
      if (counts_.cut_message.empty()) counts_.cut_message = r.message;
    } else if (r.message == "no pieces") {
      counts_.no_pieces += it.orbit;
    } else {
      ++counts_.locked_unique;
    }
    const bool wanted = r.status == Status::kApart || keep_locked_;
    if (!wanted || stopped_) continue;
    if (by_level_) {
      kept_.push_back(std::move(it));
    } else if (!deliver(it.solution, it.orbit, r)) {
      stopped_ = true;
    }
  }
  batch_.clear();
  return !stopped_;
}

bool Classes::finish(const Deliver& deliver) {
  if (!batch_.empty()) flush(deliver);
  if (by_level_ && !stopped_) {
    // The highest level first; locked classes last; else in the order found.
    std::stable_sort(kept_.begin(), kept_.end(), [](const Item& a, const Item& b) {
      const bool aa = a.result.status == Status::kApart, ba = b.result.status == Status::kApart;
      if (aa != ba) return aa;
      return higher(a.result.level, b.result.level);
    });
    for (Item& it : kept_) {
      if (!deliver(it.solution, it.orbit, it.result)) {
        stopped_ = true;
        break;
      }
    }
    kept_.clear();
  }
  return !stopped_;
}

}  // namespace cubex::disassembly
