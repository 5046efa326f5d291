// libFuzzer target: pocket-cube sticker strings (cubex/pocket/cube.hpp from_facelets). An
// accepted state is drawn again and must read back as the same corners.
#include "cubex/pocket/cube.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::expect_clean([&] {
    const pocket::Corners c = pocket::from_facelets(fuzz::as_text(data, size));
    const pocket::Facelets f = pocket::to_facelets(c);
    fuzz::require(pocket::from_facelets(pocket::to_string(f)) == c, "facelets round trip");
  });
  return 0;
}
