// cubex/render/html.hpp - the 3-D viewer: one self-contained HTML file (script inlined, no
// network) showing a list of solutions; the template is tools/viewer/viewer.html.
#pragma once

#include <span>
#include <string>

#include "cubex/puzzle/scene.hpp"
#include "cubex/render/steps.hpp"

namespace cubex::render {

// The viewer for `scenes` (one per solution, all of one puzzle), opening at scenes[start]. A
// piece keeps the colour it has in the first scene where its name appears, so stepping through
// the solutions does not repaint it. `note` is shown under the title. steps[i], where given and
// not empty, is the disassembly of scenes[i], which the viewer then plays move by move.
std::string html(std::span<const Scene> scenes, std::size_t start, const std::string& note,
                 std::span<const Steps> steps = {});

}  // namespace cubex::render
