// libFuzzer target: pocket-cube scrambles (cubex/pocket/cube.hpp parse_turns). An accepted
// scramble is applied to the solved cube; written back with to_string it parses to the same turns.
#include "cubex/pocket/cube.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::expect_clean([&] {
    const std::vector<pocket::Turn> turns = pocket::parse_turns(fuzz::as_text(data, size));
    fuzz::require(pocket::parse_turns(pocket::to_string(turns)) == turns,
                  "to_string and parse_turns agree");
    pocket::Facelets f = pocket::solved_facelets();
    pocket::apply(f, turns);
    pocket::from_facelets(pocket::to_string(f));  // every scrambled cube is a valid state
  });
  return 0;
}
