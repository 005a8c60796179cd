#include "support/run_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace strata::test {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& environment) {
    char out_path[] = "/tmp/strata-test-out-XXXXXX";
    char err_path[] = "/tmp/strata-test-err-XXXXXX";
    int out_fd = ::mkstemp(out_path), err_fd = ::mkstemp(err_path);
    std::vector<std::string> env;
    for (char** entry = environ; *entry; ++entry) {
        std::string text(*entry);
        std::string name = text.substr(0, text.find('='));
        bool overridden = false;
        for (const std::string& extra : environment)
            if (extra.substr(0, extra.find('=')) == name) overridden = true;
        if (!overridden) env.push_back(text);
    }
    for (const std::string& extra : environment)
        if (extra.find('=') != std::string::npos) env.push_back(extra);
    std::vector<char*> args, envp;
    std::vector<std::string> argv_copy = argv, env_copy = env;
    for (std::string& a : argv_copy) args.push_back(a.data());
    args.push_back(nullptr);
    for (std::string& e : env_copy) envp.push_back(e.data());
    envp.push_back(nullptr);

    pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out_fd, 1);
        ::dup2(err_fd, 2);
        int devnull = ::open("/dev/null", O_RDONLY);
        ::dup2(devnull, 0);
        ::execve(args[0], args.data(), envp.data());
        _exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(out_fd);
    ::close(err_fd);
    ProcessResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    result.out = slurp(out_path);
    result.err = slurp(err_path);
    ::unlink(out_path);
    ::unlink(err_path);
    return result;
}

size_t line_count(const std::string& text) {
    size_t lines = 0;
    for (char c : text) lines += c == '\n';
    return lines;
}

std::string scratch_path(const std::string& name) {
    return "/tmp/strata-test-" + std::to_string(::getpid()) + "-" + name;
}

std::string strata_binary() {
    return STRATA_TEST_BINARY;
}
std::string test_plugin_directory() {
    return STRATA_TEST_PLUGIN_DIR;
}
std::string hostile_plugin(const std::string& name) {
    return std::string(STRATA_TEST_HOSTILE_PLUGIN_DIR) + "/libstrata_plugin_test_" + name + ".so";
}
std::string test_plugin(const std::string& name) {
    return test_plugin_directory() + "/libstrata_plugin_test_" + name + ".so";
}

}  // namespace strata::test
