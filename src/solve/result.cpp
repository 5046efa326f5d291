// A solve's result for people and programs: the JSON keys of --json and the printed summary.
#include <cstdio>
#include <ostream>
#include <sstream>

#include "cubex/error.hpp"
#include "cubex/output/solve_output.hpp"
#include "cubex/solve.hpp"

namespace cubex {

std::string with_commas(std::uint64_t n) {
  return with_commas(BigCount(n));
}

std::string with_commas(const BigCount& n) {
  const std::string digits = n.to_string();
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

void to_json(nlohmann::json& j, const BigCount& n) {
  if (n < (std::uint64_t{1} << 53)) {
    j = n.to_u64();
  } else {
    j = n.to_string();
  }
}

void from_json(const nlohmann::json& j, BigCount& n) {
  if (j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0)) {
    n = j.get<std::uint64_t>();
    return;
  }
  if (j.is_string()) {
    if (const std::optional<BigCount> v = BigCount::parse(j.get<std::string>())) {
      n = *v;
      return;
    }
  }
  throw nlohmann::json::type_error::create(302, "expected a count: a whole number of 0 or more, or a string of its decimal digits", &j);
}

std::ostream& operator<<(std::ostream& os, const Counts& c) {
  os << c.total << " solutions, " << c.unique << " up to " << c.group_order
     << (c.group_order == 1 ? " symmetry" : " symmetries") << ", " << c.symmetric << " symmetric";
  if (!c.complete) os << " (incomplete)";
  return os;
}

nlohmann::json footer_json(const Plan& plan, const Result& r) {
  nlohmann::json footer = {{"counts",
                            {{"total", r.counts.total},
                             {"unique", r.counts.unique},
                             {"group_order", r.counts.group_order},
                             {"symmetric", r.counts.symmetric},
                             {"listed", r.listed}}},
                           {"stats",
                            {{"nodes", r.nodes},
                             {"updates", r.updates},
                             {"seconds", r.seconds},
                             {"complete", r.counts.complete},
                             {"interrupted", r.interrupted},
                             {"threads", r.threads}}},
                           {"search", r.search},
                           {"notes", r.notes}};
  if (!r.infeasible.empty()) footer["infeasible"] = {{"reason", r.infeasible}};
  if (const auto& d = r.disassembly) {
    footer["counts"]["disassemblable"] = d->apart;
    footer["counts"]["disassemblable_unique"] = d->apart_unique;
    nlohmann::json levels = nlohmann::json::array();
    for (auto it = d->levels.rbegin(); it != d->levels.rend(); ++it)
      levels.push_back({{"level", it->first}, {"classes", it->second}});
    std::stable_sort(levels.begin(), levels.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
      return disassembly::higher(a["level"].get<std::vector<int>>(), b["level"].get<std::vector<int>>());
    });
    footer["disassembly"] = {{"locked_unique", d->locked_unique},
                             {"cut_unique", d->cut_unique},
                             {"levels", levels},
                             {"hardest", d->hardest.empty() ? nlohmann::json(nullptr)
                                                            : nlohmann::json(d->hardest)},
                             {"lifts_all_but_one", d->lifts_all_but_one},
                             {"positions", d->positions}};
    if (!d->cut_message.empty()) footer["disassembly"]["cut"] = d->cut_message;
  }
  if (const auto rec = plan.puzzle().recorded_counts()) {
    nlohmann::json j = {{"source", rec->source}};
    if (rec->assemblies) j["assemblies"] = *rec->assemblies;
    if (rec->solutions) j["solutions"] = *rec->solutions;
    if (const auto& rot = r.rotations) {
      j["unique_rotations"] = rot->unique;
      if (rot->apart_unique) j["disassemblable_unique_rotations"] = *rot->apart_unique;
    }
    footer["recorded"] = j;
  }
  return footer;
}

nlohmann::json result_json(const Plan& plan, const Result& result, const std::string& mode,
                           const nlohmann::json& solutions) {
  nlohmann::json j = {{"schema", kSolveSchema}};
  j.update(plan.header_json(mode));
  j["solutions"] = solutions;
  j.update(footer_json(plan, result));
  return j;
}

namespace {

// A front end's remark as printed: "note: ..." unless it says what it is ("warning: ...").
std::string note_line(const std::string& n) {
  return n.rfind("warning:", 0) == 0 || n.rfind("note:", 0) == 0 ? n : "note: " + n;
}

std::string plural(const Count& n, const char* one, const char* many) {
  return with_commas(n) + " " + (n == 1 ? one : many);
}

// The lines under "recorded by BurrTools: ...": cubex's counts of the same things, like with
// like. BurrTools counts assemblies up to rotations, and also up to mirror images unless it was
// told to keep mirror solutions; its file does not say which, so with a group that has
// reflections both counts are printed (Result::rotations) and the one the file matches named.
std::string recorded_comparison(const Plan& plan, const Result& r,
                                const Puzzle::RecordedCounts& rec) {
  const Counts& c = r.counts;
  const auto& d = r.disassembly;
  const bool finished = rec.source.find("unfinished") == std::string::npos;
  std::ostringstream text;
  auto apart = [](const auto* n) {
    if (!n) return std::string();
    return ", " + with_commas(*n) + (*n == 1 ? " of them comes apart" : " of them come apart");
  };
  const std::uint64_t* apart_unique = d ? &d->apart_unique : nullptr;
  if (!c.complete || r.method == "checks") {
    // Nothing to compare: the search stopped early, or there is no solution to count.
  } else if (plan.symmetry() == Symmetry::none) {
    text << "  cubex: --symmetry none counts every solution apart; BurrTools counts assemblies "
            "up to rotations: leave --symmetry out to compare\n";
  } else if (r.rotations) {
    const Count mirror_kept = r.rotations->unique;
    const auto file = [&](Count n) {
      return finished && rec.assemblies && *rec.assemblies == n ? ", as this file was saved" : "";
    };
    text << "  cubex: " << plural(mirror_kept, "assembly", "assemblies") << " up to rotations"
         << apart(r.rotations->apart_unique ? &*r.rotations->apart_unique : nullptr)
         << " (BurrTools keeping mirror solutions" << file(mirror_kept) << "); "
         << with_commas(c.unique) << " also up to mirror images" << apart(apart_unique)
         << " (BurrTools' default" << file(c.unique) << ")\n";
  } else {
    text << "  cubex: " << plural(c.unique, "assembly", "assemblies") << " up to rotations"
         << apart(apart_unique)
         << (plan.symmetry() == Symmetry::rotations
                 ? " (--symmetry rotations: as BurrTools keeping mirror solutions)"
                 : " (no mirror image of a solution is another one here: BurrTools counts the "
                   "same with or without mirror solutions)")
         << "\n";
  }
  if (rec.solutions && !d) {
    text << "  (BurrTools' \"solutions\" are the assemblies that can also be taken apart: "
            "--disassemble counts them)\n";
  }
  return text.str();
}

}  // namespace

std::string summary_text(const Plan& plan, const Result& r) {
  const Puzzle& puzzle = plan.puzzle();
  const Problem& pb = puzzle.problem();
  const Counts& c = r.counts;
  const std::size_t order = plan.group().group.order();
  const bool by_orbit = order > 1 && r.method != "checks";
  std::ostringstream text;
  text << printable(puzzle.name()) << " (" << puzzle.kind() << ", " << with_commas(pb.num_items())
       << " items, " << with_commas(pb.num_options()) << " options)\n";
  for (const std::string& n : r.notes) text << printable(note_line(n)) << "\n";
  if (r.method == "checks") text << "no solution: " << printable(r.infeasible) << "\n";
  // With symmetry, a search that stopped early has found whole classes: say how many, and how
  // many solutions they stand for ("1 class of 48", not "48" as if 48 had been found one by one).
  text << "solutions: ";
  if (c.complete || !by_orbit) {
    text << with_commas(c.total);
  } else if (c.unique == 1) {
    text << "1 class of " << with_commas(c.total);
  } else {
    text << with_commas(c.unique) << " classes, " << with_commas(c.total) << " solutions in all";
  }
  if (!c.complete) {
    if (r.interrupted && r.stopped_in) {
      text << " (interrupted while " << r.stopped_in << ": nothing searched)";
    } else if (r.interrupted) {
      text << " (interrupted: counted so far)";
    } else if (plan.options().limit == 1) {
      text << " (stopped at the first)";
    } else {
      text << " (stopped at the limit of " << with_commas(plan.options().limit) << ")";
    }
  }
  text << "\n";
  if (order > 1) {
    std::size_t reflections = 0;
    for (int m : plan.group().symmetry) reflections += m >= 24;
    text << "unique: " << with_commas(c.unique) << " up to " << order << " symmetries ("
         << plural(order - reflections, "rotation", "rotations") << ", "
         << plural(reflections, "reflection", "reflections") << "); "
         << with_commas(c.symmetric) << " of them symmetric\n";
    if (plan.kernel() > 1) {
      const std::size_t k = plan.kernel();
      text << "  (" << k - 1 << " of the symmetries move" << (k > 2 ? "" : "s")
           << " no cell, like the mirror in the plane of a flat puzzle: every class has at most "
           << order / k << " solutions)\n";
    }
  } else if (r.stopped_in) {
    text << "unique: " << with_commas(c.unique) << "\n";
  } else {
    text << "unique: " << with_commas(c.unique)
         << (plan.symmetry() == Symmetry::none ? " (--symmetry none: every solution apart)"
                                               : " (the puzzle has no symmetry to count up to)")
         << "\n";
  }
  if (const auto rec = puzzle.recorded_counts()) {
    text << "recorded by " << rec->source << ":";
    if (rec->assemblies) text << " assemblies " << with_commas(*rec->assemblies);
    if (rec->solutions)
      text << (rec->assemblies ? "," : "") << " solutions " << with_commas(*rec->solutions);
    text << "\n" << recorded_comparison(plan, r, *rec);
  }
  if (const auto& d = r.disassembly) {
    text << "come apart: " << plural(d->apart_unique, "class", "classes") << " ("
         << plural(d->apart, "solution", "solutions") << "); "
         << plural(d->locked_unique, "class", "classes") << " locked\n";
    if (!d->levels.empty()) {
      std::vector<std::pair<std::vector<int>, std::uint64_t>> levels(d->levels.begin(),
                                                                     d->levels.end());
      std::stable_sort(levels.begin(), levels.end(), [](const auto& a, const auto& b) {
        return disassembly::higher(a.first, b.first);
      });
      text << "levels:";
      const std::size_t shown = std::min<std::size_t>(levels.size(), 12);
      for (std::size_t k = 0; k < shown; ++k)
        text << (k ? ", " : " ") << disassembly::level_text(levels[k].first) << " ("
             << with_commas(levels[k].second) << ")";
      if (shown < levels.size()) text << ", ... (" << levels.size() - shown << " more)";
      text << "\n";
      text << "hardest: level " << disassembly::level_text(d->hardest) << "\n";
    }
    if (d->lifts_all_but_one) {
      text << "note: " << plural(d->lifts_all_but_one, "class comes", "classes come")
           << " apart by lifting a group of all pieces but one off that one\n";
    }
    if (d->cut_unique) {
      text << "warning: " << plural(d->cut_unique, "class was", "classes were")
           << " not decided (counted neither way): " << printable(d->cut_message) << "\n";
    }
    if (d->no_pieces) {
      text << "note: --disassemble takes voxel pieces apart; this puzzle has none\n";
    }
  }
  if (r.method != "checks" && !r.stopped_in) {
    // The rate is over the whole search: a resumed run's nodes include the runs before it.
    const double secs = r.resumed && r.total_seconds > r.seconds ? r.total_seconds : r.seconds;
    char rate[96];
    if (r.resumed && r.total_seconds > r.seconds) {
      std::snprintf(rate, sizeof rate, "%.3f s in all (%.3f s this run), %.1f M nodes/s",
                    r.total_seconds, r.seconds, secs > 0 ? r.nodes / secs / 1e6 : 0.0);
    } else {
      std::snprintf(rate, sizeof rate, "%.3f s, %.1f M nodes/s", r.seconds,
                    secs > 0 ? r.nodes / secs / 1e6 : 0.0);
    }
    text << "nodes: " << with_commas(r.nodes) << ", updates: " << with_commas(r.updates) << ", "
         << rate << "\n";
  }
  if (r.method == "memo") {
    text << "  (counted by memo: " << with_commas(r.memo_states)
         << " sub-problems, each counted once, in a table of " << with_commas(r.memo_bytes >> 20)
         << " MiB; " << (r.memo_why.empty() ? "" : r.memo_why + "; ")
         << "--count-by search searches instead)\n";
  } else if (r.method == "search" && !r.memo_why.empty()) {
    text << "  (counted by search: " << r.memo_why << "; --count-by memo counts by memo)\n";
  }
  return text.str();
}

}  // namespace cubex
