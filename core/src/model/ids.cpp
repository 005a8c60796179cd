#include "model/ids.h"

#include <cctype>

namespace strata {

bool is_dotted_id(std::string_view id) {
    size_t parts = 0;
    size_t pos = 0;
    while (pos <= id.size()) {
        size_t end = id.find('.', pos);
        if (end == std::string_view::npos) end = id.size();
        std::string_view part = id.substr(pos, end - pos);
        if (part.empty()) return false;
        for (char c : part) {
            bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                      (parts > 0 && (c == '-' || c == '+'));
            if (!ok) return false;
        }
        ++parts;
        pos = end + 1;
    }
    return parts >= 2;
}

}  // namespace strata
