// libFuzzer target verify: see fuzz_targets.hpp (tools/fuzz.sh builds and runs it).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cubex::fuzz::verify(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
