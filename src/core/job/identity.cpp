// SearchJob (job.hpp): the job itself and its tree's identity (TreeIdentity, the problem's
// fingerprint), which every checkpoint and shard result carries.
#include <array>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "../engine.hpp"
#include "cubex/core/job.hpp"

namespace cubex {

JobCounts& JobCounts::operator+=(const JobCounts& o) {
  unique += o.unique;
  total += o.total;
  symmetric += o.symmetric;
  split += o.split;
  solutions += o.solutions;
  nodes += o.nodes;
  updates += o.updates;
  return *this;
}

std::string TreeIdentity::difference(const TreeIdentity& o, bool ignore_shard_index) const {
  auto text = [](const std::string& s) { return "\"" + s + "\""; };
  auto num = [](std::uint64_t v) { return std::to_string(v); };
  auto diff = [](const char* what, const std::string& mine, const std::string& theirs) {
    return std::string(what) + ": expected " + mine + ", found " + theirs;
  };
  if (fingerprint != o.fingerprint || items != o.items || options != o.options) {
    return diff(
        "puzzle", text(fingerprint) + " (" + num(items) + " items, " + num(options) + " options)",
        text(o.fingerprint) + " (" + num(o.items) + " items, " + num(o.options) + " options)");
  }
  if (order != o.order) return diff("option order", text(order), text(o.order));
  if (rule != o.rule) return diff("choice rule", text(rule), text(o.rule));
  if (judge != o.judge) {
    return diff("symmetry", judge.empty() ? "none" : text(judge),
                o.judge.empty() ? "none" : text(o.judge));
  }
  if (cut != o.cut) return diff("cut (units of the shard split)", num(cut), num(o.cut));
  if (shard_count != o.shard_count)
    return diff("shard count", num(shard_count), num(o.shard_count));
  if (!ignore_shard_index && shard_index != o.shard_index) {
    return diff("shard", num(shard_index) + "/" + num(shard_count),
                num(o.shard_index) + "/" + num(o.shard_count));
  }
  return {};
}

std::string problem_fingerprint(const Problem& pb) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits, over the 8 bytes of each value
  constexpr std::uint64_t kPrime = 1099511628211ULL;
  // kPower[k] = kPrime^k: the zero bytes above a value's last non-zero one leave h ^ 0 = h, so
  // that their multiplications by the prime are one by its power (the same hash, in fewer
  // dependent steps).
  constexpr auto kPower = [] {
    std::array<std::uint64_t, 9> p{};
    p[0] = 1;
    for (std::size_t k = 1; k < p.size(); ++k) p[k] = p[k - 1] * kPrime;
    return p;
  }();
  auto mix = [&](std::uint64_t v) {
    const int bytes = (std::bit_width(v) + 7) / 8;
    for (int k = 0; k < bytes; ++k) {
      h ^= (v >> (8 * k)) & 0xFF;
      h *= kPrime;
    }
    h *= kPower[std::size_t(8 - bytes)];
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
  if (pb.has_colours()) {  // (uncoloured problems keep the fingerprint they always had)
    for (ColourId c = 1; c <= pb.num_colours(); ++c)
      for (char ch : pb.colour_name(c)) mix(static_cast<unsigned char>(ch));
    for (OptionId o = 0; o < pb.num_options(); ++o)
      for (ColourId c : pb.option_colours(o)) mix(c);
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

SearchJob::SearchJob(const Problem& problem, const SolutionJudge* judge, Backend backend)
    : SearchJob(problem, judge, backend, EngineTuning{}) {}

SearchJob::SearchJob(const Problem& problem, const SolutionJudge* judge, Backend backend,
                     const EngineTuning& tuning)
    : problem_(problem),
      judge_(judge),
      backend_(detail::resolve_backend(problem, backend)),
      tuning_(tuning),
      proto_(detail::make_engine(problem, backend_, tuning_)) {}

SearchJob::~SearchJob() = default;

TreeIdentity SearchJob::identity(std::uint32_t cut, std::uint32_t shard_index,
                                 std::uint32_t shard_count) const {
  TreeIdentity id;
  id.fingerprint = problem_fingerprint(problem_);
  id.items = problem_.num_items();
  id.options = problem_.num_options();
  id.order = detail::search_order_name(problem_);
  id.rule = detail::choice_rule(problem_, backend_, tuning_);
  id.judge = judge_ ? judge_->identity() : "";
  id.cut = cut;
  id.shard_index = shard_index;
  id.shard_count = shard_count;
  return id;
}

SolveStats SearchJob::search(const TreeSpan& span, SolutionVisitor* visit) {
  return proto_->run(span, 0, visit, {}, nullptr).st;
}

}  // namespace cubex
