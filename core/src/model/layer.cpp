#include "model/layer.h"

namespace strata {

std::string_view layer_name(Layer layer) {
    switch (layer) {
        case Layer::host: return "host";
        case Layer::container: return "container";
        case Layer::driver: return "driver";
        case Layer::device: return "device";
        case Layer::runtime: return "runtime";
        case Layer::library: return "library";
        case Layer::kernel: return "kernel";
        case Layer::framework: return "framework";
    }
    return "unknown";
}

std::optional<Layer> parse_layer(std::string_view name) {
    for (Layer layer : all_layers)
        if (layer_name(layer) == name) return layer;
    return std::nullopt;
}

std::optional<Layer> layer_from_abi(int value) {
    for (Layer layer : all_layers)
        if (static_cast<int>(layer) == value) return layer;
    return std::nullopt;
}

bool layer_is_gated(Layer layer) {
    return layer != Layer::framework;
}

int layer_rank(Layer layer) {
    for (size_t i = 0; i < all_layers.size(); ++i)
        if (all_layers[i] == layer) return static_cast<int>(i);
    return static_cast<int>(all_layers.size());
}

}  // namespace strata
