// cubex/render/colour.hpp - the old path of cubex/puzzle/colour.hpp, kept so that code written
// against it still compiles. The palette serves the front ends' coloured terminal drawings as well
// as the pictures, so it lives beside the Scene; new code includes cubex/puzzle/colour.hpp.
#pragma once

#include "cubex/puzzle/colour.hpp"
