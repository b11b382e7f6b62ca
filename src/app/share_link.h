// A share link's settings as short address parameters: only what differs from what the link's
// preset gives, nested fields dotted ("model.outcomes=ordinal"), lists repeated
// ("eachFilter=tc%3Dblitz&eachFilter=tc%3Drapid"), numbers in their shortest exact form.
// web/page.js reads them back into the protocol's settings object.
#pragma once

#include <string>
#include <string_view>

#include "protocol/messages.h"

namespace materialist::app {

// "preset=exact&units=elo&filter=elo%3D1500-" ("" for the default settings).
// A comparison by rating band or speed (learn::band_spec_of) is written "compare=elo:200".
std::string share_link_query(const protocol::Settings& settings);

// A link's "compare=SPEC": one dataset per band over the settings' filter (false: the spec or
// the filter does not parse; the settings are left as they were).
bool expand_compare(protocol::Settings& settings, std::string_view spec);

}  // namespace materialist::app
