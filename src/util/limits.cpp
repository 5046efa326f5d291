// Resource limits (cubex/limits.hpp).
#include "cubex/limits.hpp"

namespace cubex {

std::string too_many_nodes(std::uint64_t nodes, const Limits& limits) {
  return "expected an exact-cover matrix of at most " + std::to_string(limits.max_nodes) +
         " nodes, found at least " + std::to_string(nodes) + " (raise the limit with --max-nodes)";
}

void check_nodes(std::uint64_t nodes, const Limits& limits) {
  if (nodes > limits.max_nodes) throw LimitError(too_many_nodes(nodes, limits));
}

}  // namespace cubex
