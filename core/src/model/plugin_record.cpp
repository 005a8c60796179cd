#include "model/plugin_record.h"

namespace strata {

std::string_view plugin_state_name(PluginState state) {
    switch (state) {
        case PluginState::loaded: return "loaded";
        case PluginState::refused: return "refused";
        case PluginState::missing_dependency: return "missing_dependency";
        case PluginState::crashed: return "crashed";
        case PluginState::timeout: return "timeout";
        case PluginState::error: return "error";
    }
    return "error";
}

}  // namespace strata
