// cubex/render/scene.hpp - the old path of cubex/puzzle/scene.hpp, kept so that code written
// against it still compiles. The Scene is the front-end contract's type (front ends build it,
// render/ draws it), so it lives beside cubex/puzzle.hpp; new code includes cubex/puzzle/scene.hpp.
#pragma once

#include "cubex/puzzle/scene.hpp"
