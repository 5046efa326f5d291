// cubex/io/checkpoint.hpp - the old path of cubex/output/checkpoint.hpp, kept so that code written
// against it still compiles: the checkpoint file is one of the outputs (src/output/). New code
// includes cubex/output/checkpoint.hpp.
#pragma once

#include "cubex/output/checkpoint.hpp"
