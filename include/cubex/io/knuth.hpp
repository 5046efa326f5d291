// cubex/io/knuth.hpp - the old path of cubex/knuth/format.hpp, kept so that code written against
// it still compiles: Knuth's format is a front end of its own (src/knuth/). New code includes
// cubex/knuth/format.hpp.
#pragma once

#include "cubex/knuth/format.hpp"
