// cubex/disassembly/voxel_input.hpp - the old path of cubex/voxel/assembly.hpp, kept so that code
// written against it still compiles. Turning a voxel solution into the disassembler's input is the
// voxel front end's work, so it lives there; new code includes cubex/voxel/assembly.hpp.
#pragma once

#include "cubex/voxel/assembly.hpp"
