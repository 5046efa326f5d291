// cubex/happycube/puzzle.hpp - the Happy Cube front end behind the `Puzzle` interface.
//
// Solutions come out in the seed's conventions (see model.hpp): as JSON
//   {"placements": [{"piece": "6", "place": 1, "rotations_ccw": 0, "flipped": false,
//                    "cells": [[x,y,z], ...]}, ...]}
// (for structures of several cubes "place" is {"cube": [x,y,z], "side": "+x"}; with more plates
// than faces, "unused": ["blue/3", ...] lists the plates left over), and as text:
// one instruction per place ("Take part 6, turn it once counter-clockwise, and put it on place
// 2.") followed by a drawing of the net.
#pragma once

#include <memory>
#include <string>

#include "cubex/happycube/model.hpp"
#include "cubex/puzzle.hpp"

namespace cubex::happycube {

// The puzzle for a Spec (compiles it). Any number of plates is accepted: spare plates are listed
// as "unused" with each solution, and too few make infeasible() say so.
std::unique_ptr<Puzzle> make_puzzle(Spec spec, const Limits& limits = {});

// The model behind a puzzle made by make_puzzle (nullptr for other kinds): the next layers
// (symmetry) read its shell and placements.
const Model* model_of(const Puzzle& puzzle);

// The symmetry group of a model (what the puzzle's symmetry_group() gives): the structure's
// rotations, and its reflections too under kAuto when every plate may be turned over. Polls
// `watch` (cubex/stop.hpp).
CubeGroup symmetry_group(const Model& m, SymmetryMode mode, const Watch& watch = {});

// One instruction line for a placement, e.g. "Take part 2, flip it over, turn it once
// counter-clockwise, and put it on place 3."
std::string instruction(const std::string& piece, int rotations_ccw, bool flipped,
                        const Face& face);

}  // namespace cubex::happycube
