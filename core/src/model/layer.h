// The layers of the CUDA stack, in the order strata checks them.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "strata/plugin.h"

namespace strata {

enum class Layer {
    host = STRATA_LAYER_HOST,
    container = STRATA_LAYER_CONTAINER,
    driver = STRATA_LAYER_DRIVER,
    device = STRATA_LAYER_DEVICE,
    runtime = STRATA_LAYER_RUNTIME,
    library = STRATA_LAYER_LIBRARY,
    kernel = STRATA_LAYER_KERNEL,
    framework = STRATA_LAYER_FRAMEWORK,
};

// Every layer, in checking order. The frameworks come after the kernels:
// they sit on the whole stack, and a framework built without this GPU's
// architecture must not keep strata from proving the stack itself.
inline constexpr std::array<Layer, 8> all_layers = {Layer::host,   Layer::container, Layer::driver,
                                                    Layer::device, Layer::runtime,   Layer::library,
                                                    Layer::kernel, Layer::framework};

std::string_view layer_name(Layer layer);
std::optional<Layer> parse_layer(std::string_view name);
// Maps the ABI's integer; nullopt for a value this build does not know.
std::optional<Layer> layer_from_abi(int value);
// Position in checking order: earlier layers gate later ones.
int layer_rank(Layer layer);
// False for the framework layer: its checks read files only, so a failed
// earlier layer never stops them (and they never say they were gated).
bool layer_is_gated(Layer layer);

}  // namespace strata
