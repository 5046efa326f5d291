// libFuzzer target: Happy Cube `.hcq` files (cubex/happycube/reader.hpp). An accepted file is
// compiled, and written back with to_hcq it reads as the same tiles.
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::set_small_limits();
  fuzz::expect_clean([&] {
    happycube::Spec spec = happycube::parse_hcq(fuzz::as_text(data, size), "fuzz.hcq");
    const happycube::Spec again = happycube::parse_hcq(happycube::to_hcq(spec), "again.hcq");
    fuzz::require(again.pieces.size() == spec.pieces.size() && again.size == spec.size,
                  "to_hcq keeps the tiles");
    for (std::size_t k = 0; k < spec.pieces.size(); ++k) {
      fuzz::require(again.pieces[k].tile == spec.pieces[k].tile, "to_hcq keeps each tile");
    }
    happycube::make_puzzle(std::move(spec));
  });
  return 0;
}
