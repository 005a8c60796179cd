#include "report/writers.h"

namespace strata {

namespace {

std::string xml_escape(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // XML 1.0 forbids most control characters, even escaped.
                if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
                    out += ' ';
                else
                    out += static_cast<char>(c);
        }
    }
    return out;
}

}  // namespace

std::string render_junit(const Report& report, const RunInfo& run) {
    std::string body;
    int failures = 0, errors = 0, skipped = 0;
    for (const Check& check : report.checks()) {
        body += "    <testcase classname=\"strata." + std::string(layer_name(check.layer)) + "\" name=\"" +
                xml_escape(check.id) + "\">\n";
        std::string detail =
            xml_escape(check.evidence + (check.remedy.empty() ? "" : "\nfix: " + check.remedy));
        if (check.status == Status::fail) {
            ++failures;
            body += "      <failure message=\"" + xml_escape(check.summary) + "\">" + detail + "</failure>\n";
        } else if (is_failure(check.status)) {
            ++errors;
            body += "      <error type=\"" + std::string(status_name(check.status)) + "\" message=\"" +
                    xml_escape(check.summary) + "\">" + detail + "</error>\n";
        } else if (check.status == Status::skip) {
            ++skipped;
            body += "      <skipped message=\"" + xml_escape(check.summary) + "\"/>\n";
        } else if (check.status == Status::warn) {
            body += "      <system-out>warning: " + xml_escape(check.summary) + "</system-out>\n";
        }
        body += "    </testcase>\n";
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", static_cast<double>(run.duration.count()) / 1000.0);
    std::string counts = "tests=\"" + std::to_string(report.checks().size()) + "\" failures=\"" +
                         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                         "\" skipped=\"" + std::to_string(skipped) + "\"";
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"strata\" " + counts + " time=\"" +
           seconds + "\">\n  <testsuite name=\"strata." + xml_escape(run.command) + "\" " + counts +
           " timestamp=\"" + run.created_at + "\" time=\"" + seconds + "\">\n" + body +
           "  </testsuite>\n</testsuites>\n";
}

}  // namespace strata
