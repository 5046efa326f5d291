// Shared set-up of the libFuzzer targets (tests/fuzz/fuzz_*.cpp, built with -DCUBEX_FUZZ=ON).
//
// Each target feeds one reader arbitrary bytes. A reader may reject them only with InputError (or
// the LimitError of a limit); any other exception, a crash, a sanitizer report or a hang is a bug.
// The limits are lowered so that every input is handled in milliseconds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "cubex/error.hpp"
#include "cubex/limits.hpp"

namespace cubex::fuzz {

inline void set_small_limits() {
  limits().max_nodes = 200'000;
  limits().max_json_depth = 64;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `f`; an InputError or LimitError is a clean rejection, anything else aborts (a finding).
template <class F>
void expect_clean(F&& f) {
  try {
    f();
  } catch (const InputError&) {
  } catch (const LimitError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    std::abort();
  }
}

// A property that must hold: abort with `what` when it does not.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "property failed: %s\n", what);
    std::abort();
  }
}

}  // namespace cubex::fuzz
