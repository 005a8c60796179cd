// Check ids and fact keys are stable dotted ids: "driver.libcuda",
// "host.search_path.copies.libcudart.so.13". The report schema holds every
// id to this shape, so whatever a plugin sends is checked against it.
#pragma once

#include <string_view>

namespace strata {

// At least two non-empty parts separated by dots; the first of letters,
// digits and '_', the rest may also hold '-' and '+' (sonames).
bool is_dotted_id(std::string_view id);

}  // namespace strata
