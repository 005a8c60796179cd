// `strata doctor --html FILE`: the layers as the text report shows them, each
// check a line that opens onto its evidence, fix and the facts it rests on.
// Failing and warning checks start open: they are what the reader came for.
#include "diagnosis/health_rules.h"
#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/writers.h"

namespace strata {

namespace {

std::string check_html(const Report& report, const Check& check) {
    std::string title = status_badge(check.status) + " " + (check.ignored ? "(ignored) " : std::string()) +
                        html_escape(check.summary) + " <code>[" + html_escape(check.id) +
                        (check.device ? ", GPU " + std::to_string(*check.device) : std::string()) +
                        "]</code>";
    std::string body;
    if (!check.evidence.empty())
        body +=
            "<div class=\"evidence\"><strong>evidence:</strong> " + html_escape(check.evidence) + "</div>\n";
    if (!check.remedy.empty())
        body += "<div class=\"evidence\"><strong>fix:</strong> " + html_escape(check.remedy) + "</div>\n";
    if (!check.facts.empty()) {
        HtmlTable facts{"facts this check rests on", {"fact", "value"}, {}, {}, {}};
        for (const std::string& key : check.facts) facts.rows.push_back({key, fact_text(report, key)});
        body += render_table(facts);
    }
    if (body.empty()) return "<div class=\"check\">" + title + "</div>\n";
    bool open = check.status != Status::pass && check.status != Status::skip;
    return "<div class=\"check\">" + details(title, body, open) + "</div>\n";
}

}  // namespace

std::string render_html(const Report& report, const RunInfo& run) {
    std::string heading = "strata " + fact_text(report, "strata.version") + " doctor — " +
                          fact_text(report, "host.os.name") + ", kernel " +
                          fact_text(report, "host.kernel.release");
    std::string body = element("h1", heading);
    int exit_code = report.exit_code();
    body += "<p class=\"decision\">" +
            badge(exit_code == 0 ? "pass" : "fail", exit_code == 0 ? "pass" : "fail") + " " +
            html_escape(check_count_line(report)) + "</p>\n";
    body += element("p", "node health: " + std::string(health_verdict_name(health_verdict(report))));
    if (!run.created_at.empty()) body += element("p", "created " + run.created_at, "note");
    HtmlTable layers{"layers", {"layer", "status", "summary"}, {}, {}, {}};
    for (const LayerSummary& layer : report.layer_summaries()) {
        layers.rows.push_back(
            {std::string(layer_name(layer.layer)), std::string(status_name(layer.status)), layer.summary});
        layers.row_classes.push_back(std::string(status_name(layer.status)));
    }
    body += render_table(layers);
    for (const LayerSummary& layer : report.layer_summaries()) {
        body += "<h2>" + status_badge(layer.status) + " " + html_escape(layer_name(layer.layer)) + "</h2>\n";
        bool any = false;
        for (const Check& check : report.checks())
            if (check.layer == layer.layer) {
                body += check_html(report, check);
                any = true;
            }
        if (!any) body += element("p", layer.summary);
    }
    return html_document(heading, body);
}

}  // namespace strata
