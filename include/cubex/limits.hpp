// cubex/limits.hpp - bounds on what one input may make cubex read or allocate.
//
// Puzzle files come from people and from other programs: a ten-line JSON file can describe a
// matrix of billions of nodes. Every reader and compiler checks its work against these limits
// before it allocates, and fails with a clear error instead of exhausting memory:
//   * a file read whole (read_file) may have at most `max_file_bytes` bytes;
//   * JSON may nest at most `max_json_depth` arrays and objects deep;
//   * the exact-cover matrix of a puzzle may have at most `max_nodes` nodes, counted as the
//     solver lays them out (matrix_nodes()): item headers + option entries + one spacer per
//     option + 2. The solver indexes nodes with 32-bit integers, so no setting may pass
//     kMaxNodesCeiling;
//   * a BurrTools file may inflate to at most `max_xml_bytes` of XML, with at most
//     `max_xml_elements` elements, `max_xml_attributes` attributes and `max_xml_attribute_bytes`
//     bytes in one attribute value (the CLI's --max-xml-bytes and --max-xml-elements raise them).
// The limits are a value passed to the readers (LoadOptions::limits, cubex::load takes them from
// cubex::Options): nothing process-wide. The defaults are those of Limits{}.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cubex/core/problem.hpp"
#include "cubex/error.hpp"
#include "cubex/stop.hpp"

namespace cubex {

struct Limits {
  std::uint64_t max_file_bytes = std::uint64_t(1) << 30;  // 1 GiB
  std::uint32_t max_json_depth = 256;
  std::uint64_t max_nodes = 20'000'000;  // about 240 MB of dancing links
  // BurrTools files (gzip-compressed XML): checked while inflating and before parsing, so that
  // the parsed document stays small (pugixml keeps it in memory).
  std::uint64_t max_xml_bytes = std::uint64_t(64) << 20;  // 64 MiB of XML after decompression
  std::uint64_t max_xml_elements = 1'000'000;             // elements (start tags)
  std::uint64_t max_xml_attributes = 4'000'000;           // attributes in all
  std::uint64_t max_xml_attribute_bytes = std::uint64_t(1) << 20;  // one attribute's value
  // Not a bound on the input: the caller's stop flag and phase board, which compiling polls
  // (cubex/stop.hpp: it throws Interrupted once the flag is set).
  Watch watch;
};

// Sets the BurrTools limits from the two that people set (--max-xml-bytes, --max-xml-elements):
// an attribute value may hold a 64th of the bytes (at least 1 MiB), and there may be 4
// attributes per element.
inline void set_xml_limits(Limits& l, std::uint64_t bytes, std::uint64_t elements) {
  l.max_xml_bytes = bytes;
  l.max_xml_attribute_bytes = bytes / 64 > (std::uint64_t(1) << 20) ? bytes / 64 : std::uint64_t(1) << 20;
  l.max_xml_elements = elements;
  l.max_xml_attributes = 4 * elements;
}

// The highest max_nodes may go: the solver's node indices are signed 32-bit.
inline constexpr std::uint64_t kMaxNodesCeiling = 2'000'000'000;


// A limit was hit. Readers that know the place of the input responsible rethrow it as an
// InputError naming it; the CLI reports either with exit status 2.
class LimitError : public Error {
 public:
  explicit LimitError(const std::string& message) : Error(Kind::limit, message) {}
};

// Nodes of the solver's matrix for `problem` (see above).
inline std::uint64_t matrix_nodes(const Problem& problem) {
  return std::uint64_t(problem.num_items()) + problem.num_entries() + problem.num_options() + 2;
}

// Throws LimitError when a matrix of `nodes` nodes exceeds limits.max_nodes.
void check_nodes(std::uint64_t nodes, const Limits& limits);
inline void check_nodes(const Problem& problem, const Limits& limits) {
  check_nodes(matrix_nodes(problem), limits);
}

// The message of check_nodes, for readers that throw their own error type with a place.
std::string too_many_nodes(std::uint64_t nodes, const Limits& limits);

}  // namespace cubex
