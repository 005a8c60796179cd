// strata fleet RECORDS… [--expect NODELIST] [--min-deviation 5%] [--drain [--yes]]
//
// Many nodes' records (files, or directories of them) turned into the nodes
// that need attention, one line per problem, worst first (fleet/src/fleet.h).
// Inside a Slurm job the job's nodes are the ones expected. With --drain the
// `scontrol` commands that drain those nodes are printed; --yes runs them.
// Exit status: 0 no node needs attention, 1 some do, 2 bad usage or input,
// 3 a drain command failed.
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "fleet.h"
#include "fleet_report.h"
#include "hostlist.h"
#include "model/usage_error.h"
#include "probes/run_program.h"
#include "record.h"
#include "report/atomic_file.h"

namespace strata::cli {

std::function<int()> register_fleet(CLI::App& app) {
    struct Options {
        std::vector<std::string> records, ignore_checks;
        std::string expect, min_deviation = "0", metric = "auto", prometheus, html;
        size_t min_group = 3;
        bool json = false, markdown = false, drain = false, yes = false, no_job_nodes = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "fleet", "Read many nodes' records and list the nodes that need attention, worst problem first");
    command->add_option("records", options->records, "Record files (strata record), or directories of them")
        ->required()
        ->check(non_empty_path());
    command->add_option("--expect", options->expect,
                        "Nodes that must have a record, in Slurm's hostlist syntax (gpu[001-128]); "
                        "default inside a Slurm job: the job's nodes");
    command->add_flag("--no-job-nodes", options->no_job_nodes,
                      "Inside a Slurm job, do not expect the job's nodes");
    command->add_option("--min-deviation", options->min_deviation,
                        "An outlier is also at least this much worse than its group's median (default 0%)");
    command
        ->add_option("--min-group", options->min_group,
                     "Fewest like nodes a benchmark needs for outliers to be judged (default 3)")
        ->check(CLI::Range(2, 1'000'000));
    command->add_option("--metric", options->metric,
                        "What is judged per benchmark: auto (a rate counter where there is one, else the "
                        "time), real_time, cpu_time or a counter name");
    add_ignore_check_option(*command, options->ignore_checks);
    auto* json =
        command->add_flag("--json", options->json, "Print the analysis as JSON (docs/fleet.schema.json)");
    command->add_flag("--markdown", options->markdown, "Print the analysis as Markdown")->excludes(json);
    add_prometheus_option(*command, options->prometheus);
    add_html_option(*command, options->html);
    command->add_flag("--drain", options->drain,
                      "Print the scontrol commands that drain the nodes that need attention");
    command->add_flag("--yes", options->yes, "With --drain: run those commands")->needs("--drain");

    return [options]() {
        for (const std::string* output : {&options->prometheus, &options->html})
            if (!output->empty()) prepare_output_file(*output);
        fleet::FleetOptions analysis;
        analysis.min_deviation = parse_percentage("--min-deviation", options->min_deviation, true);
        analysis.min_group = options->min_group;
        analysis.metric = options->metric.empty() ? "auto" : options->metric;
        analysis.ignore_checks = options->ignore_checks;
        const char* job_nodes = std::getenv("SLURM_JOB_NODELIST");
        if (!options->expect.empty()) {
            analysis.expected = fleet::expand_hostlist(options->expect);
            analysis.expected_from = "--expect";
        } else if (job_nodes && *job_nodes && !options->no_job_nodes) {
            analysis.expected = fleet::expand_hostlist(job_nodes);
            analysis.expected_from = "the Slurm job (SLURM_JOB_NODELIST)";
        }
        fleet::RecordSet read = fleet::read_record_set(options->records);
        fleet::FleetResult result = fleet::analyze_fleet(read.records, analysis, read.unreadable);
        if (!options->prometheus.empty())
            write_prometheus_file(options->prometheus, fleet::render_fleet_prometheus(result));
        if (!options->html.empty()) write_file_atomically(options->html, fleet::render_fleet_html(result));
        // The JSON's exit_code is the analysis' (a failing --drain --yes
        // command, status 3, comes after the document is printed).
        if (options->json)
            std::cout << command_document(fleet::fleet_to_json(result), "fleet",
                                          result.needs_attention() ? 1 : 0);
        else if (options->markdown)
            std::cout << fleet::render_fleet_markdown(result);
        else
            std::cout << fleet::render_fleet_text(result);
        int status = result.needs_attention() ? 1 : 0;
        if (!options->drain) return status;
        // The commands go to standard error when the report is JSON or
        // Markdown, so standard output stays one document.
        std::ostream& out = options->json || options->markdown ? std::cerr : std::cout;
        fleet::DrainPlan plan = fleet::drain_commands(result);
        if (!plan.commands.empty() || !plan.refused.empty()) out << "\n";
        for (const std::string& node : plan.refused)
            out << "# not drained: '" << node << "' is not a plain node name\n";
        for (const std::vector<std::string>& argv : plan.commands) {
            out << (options->yes ? "running: " : "") << fleet::shell_command(argv) << "\n";
            if (!options->yes) continue;
            ProgramResult ran = run_program(argv, std::chrono::seconds(30));
            if (!ran.ok) {
                std::cerr << "strata: error: " << fleet::shell_command(argv) << ": " << ran.problem << "\n";
                status = 3;
            }
        }
        if (!options->yes && !plan.commands.empty()) out << "# run them with --yes\n";
        return status;
    };
}

}  // namespace strata::cli
