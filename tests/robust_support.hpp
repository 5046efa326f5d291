// Helpers of the robustness tests (issue 10).
#pragma once

#include "cubex/limits.hpp"

namespace cubex::test {

// Changes the process-wide limits for one test and puts them back afterwards.
struct LimitsGuard {
  Limits saved = limits();
  ~LimitsGuard() { limits() = saved; }
};

}  // namespace cubex::test
