#include <cstdio>

#include "report/utf8.h"
#include "report/writers.h"

namespace strata {

namespace {

// XML 1.0's Char: tab, newline, carriage return, and U+0020 up, less the
// surrogates and U+FFFE/U+FFFF.
bool xml_char(char32_t code) {
    return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
           (code >= 0xE000 && code <= 0xFFFD) || code >= 0x10000;
}

// Text from outside (check summaries, package versions, paths) made into
// well-formed XML: markup escaped, and every byte that is not well-formed
// UTF-8, or a character XML forbids even escaped (a U+FFFE in a package's
// version made the whole report unreadable to CI), replaced by U+FFFD.
std::string xml_escape(std::string_view text) {
    std::string out;
    for (size_t at = 0; at < text.size();) {
        char32_t code = 0;
        size_t length = utf8_sequence(text, at, code);
        if (length == 0 || !xml_char(code)) {
            out += "\xEF\xBF\xBD";  // U+FFFD
            at += length == 0 ? 1 : length;
            continue;
        }
        switch (code) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out.append(text, at, length);
        }
        at += length;
    }
    return out;
}

std::string seconds_text(double milliseconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", milliseconds / 1000.0);
    return text;
}

// The versions a CI system should keep with the results (Jenkins shows a
// suite's properties): what strata ran on.
std::string properties(const Report& report) {
    std::string out = "    <properties>\n";
    for (const char* key :
         {"host.name", "host.os.pretty_name", "host.kernel.release", "driver.nvml.driver_version",
          "driver.kernel_module.version", "driver.cuda.version", "runtime.cudart.version", "device.count",
          "device.0.name", "library.cublas.version", "library.cudnn.version", "library.nccl.version"}) {
        const Fact* fact = report.find_fact(key);
        if (!fact) continue;
        std::string value =
            fact->value.is_string() ? fact->value.get<std::string>() : to_json_text(fact->value);
        out += "      <property name=\"" + xml_escape(key) + "\" value=\"" + xml_escape(value) + "\"/>\n";
    }
    return out + "    </properties>\n";
}

}  // namespace

// Valid against the Jenkins JUnit schema (xunit-plugin's junit-10.xsd, as
// pytest tests against it): counts on <testsuites> are tests, failures and
// errors only; skipped, hostname and timestamp belong to <testsuite>.
std::string render_junit(const Report& report, const RunInfo& run) {
    std::string body;
    int failures = 0, errors = 0, skipped = 0;
    for (const Check& check : report.checks()) {
        std::string name = check.id + (check.device ? " (GPU " + std::to_string(*check.device) + ")" : "");
        body += "    <testcase classname=\"strata." + std::string(layer_name(check.layer)) + "\" name=\"" +
                xml_escape(name) + "\" time=\"" + seconds_text(check.duration_ms) + "\">\n";
        std::string detail =
            xml_escape(check.evidence + (check.remedy.empty() ? "" : "\nfix: " + check.remedy));
        if (check.ignored && is_failure(check.status)) {
            ++skipped;
            body += "      <skipped message=\"" + xml_escape("ignored (--ignore-check): " + check.summary) +
                    "\"/>\n";
        } else if (check.status == Status::fail) {
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
    std::string seconds = seconds_text(static_cast<double>(run.duration.count()));
    std::string counts = "tests=\"" + std::to_string(report.checks().size()) + "\" failures=\"" +
                         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\"";
    const Fact* host = report.find_fact("host.name");
    std::string hostname = host && host->value.is_string()
                               ? " hostname=\"" + xml_escape(host->value.get<std::string>()) + "\""
                               : "";
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"strata\" " + counts + " time=\"" +
           seconds + "\">\n  <testsuite name=\"strata." + xml_escape(run.command) + "\" " + counts +
           " skipped=\"" + std::to_string(skipped) + "\" timestamp=\"" + run.created_at + "\"" + hostname +
           " time=\"" + seconds + "\">\n" + properties(report) + body + "  </testsuite>\n</testsuites>\n";
}

}  // namespace strata
