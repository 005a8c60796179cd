#include "diagnosis/framework_extension_rules.h"

#include "diagnosis/image_verdicts.h"
#include "frameworks/framework_abi.h"
#include "frameworks/python_metadata.h"
#include "probes/probes.h"

namespace strata {

namespace {

std::string major_of(const std::string& cuda_version) {
    return cuda_version.substr(0, cuda_version.find('.'));
}

std::string extension_label(const FrameworkExtension& extension) {
    return extension.name + " " + extension.version;
}

// A demangled template signature can run to a thousand characters: the
// evidence keeps its start (the name), the fact keeps the whole mangled name.
std::string shortened(std::string text) {
    constexpr size_t limit = 160;
    if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
    return text;
}

// "_C.so needs libtorch_cuda.so, which is not installed; it imports 12
// symbols PyTorch 2.5.1 does not export, first _C.so: c10::cuda::SetDevice(int)
// (undefined symbol: _ZN3c104cuda9SetDeviceEi): ...".
std::string missing_imports_text(const FrameworkExtension& extension, const std::string& framework) {
    std::string text;
    if (!extension.missing_libraries.empty()) {
        const MissingImport& first = extension.missing_libraries.front();
        text = first.file + " needs " + first.name + ", which is not installed";
        if (extension.missing_libraries.size() > 1)
            text += " (and " + std::to_string(extension.missing_libraries.size() - 1) + " more)";
    }
    if (!extension.missing_symbols.empty()) {
        const MissingImport& first = extension.missing_symbols.front();
        size_t count = extension.missing_symbols.size();
        text += (text.empty() ? "" : "; ") +
                std::string(count == 1 ? "it imports a symbol " : "it imports ") +
                (count == 1 ? "" : std::to_string(count) + " symbols ") + framework +
                " does not export, first " + first.file + ": " + readable_symbol(first.name) +
                " (undefined symbol: " + first.name + "): it was built against another release";
    }
    return text;
}

}  // namespace

void check_extensions(const FrameworkInstall& install, const FrameworkTargets& targets, Report& report) {
    if (install.extensions.empty()) return;
    std::string framework = install.name + " " + install.version;
    std::string framework_major = install.cuda_build ? major_of(install.cuda_version) : "";
    std::string names, evidence, failure, warning, remedy;
    Status status = Status::pass;
    std::vector<FileVerdicts::JitFatBinary> extension_jit;
    auto worsen = [&](Status to) {
        if (severity(to) > severity(status)) status = to;
    };
    for (const FrameworkExtension& extension : install.extensions) {
        names += (names.empty() ? "" : ", ") + extension_label(extension);
        evidence += (evidence.empty() ? "" : "\n") + extension_label(extension) + ": " +
                    std::to_string(extension.device_code_files.size()) + " file(s) with device code" +
                    (extension.cuda_major.empty()
                         ? ""
                         : "; CUDA " + extension.cuda_major + " (" + extension.cuda_evidence + ")");
        if (!extension.cuda_variant_loaded.empty())
            evidence +=
                "\n  loads " + extension.cuda_variant_loaded + ", the build for CUDA " + install.cuda_version;
        for (const std::string& problem : extension.problems) evidence += "\n  unreadable: " + problem;
        // One build per CUDA release, and none for the framework's: the
        // package looks for that file, finds nothing, and has no GPU code.
        if (!extension.cuda_variant_missing.empty()) {
            worsen(Status::fail);
            std::string text = extension_label(extension) + " has no build for CUDA " + install.cuda_version +
                               " (" + framework + "): it loads " + extension.cuda_variant_missing +
                               ", and its wheel has builds for CUDA " + extension.cuda_variants_shipped;
            evidence += "\n  fail: " + text;
            if (failure.empty()) {
                failure = text;
                remedy = "install a release of " + extension.name + " with a build for CUDA " +
                         install.cuda_version + ", or a " + install.name +
                         " build for one of the CUDA releases it has";
            }
        }
        // A file that could not be read is not a file that passed.
        if (!extension.problems.empty()) {
            worsen(Status::warn);
            if (warning.empty())
                warning = extension_label(extension) + ": " + std::to_string(extension.problems.size()) +
                          " shared object(s) could not be read: " + extension.problems.front();
        }
        // Pinned to another release of the framework (torchvision 0.25 asks
        // for torch==2.10.0): its C++ extension is built against that
        // release's ABI. Where its imports were looked up and every one is
        // exported (a patch release), it loads: the pin is a warning. Where
        // they could not be looked up, it most likely fails to import.
        bool imports_missing = !extension.missing_symbols.empty() || !extension.missing_libraries.empty();
        bool imports_verified = extension.framework_imports > 0 && !imports_missing;
        if (extension.requires_name == install.distribution &&
            !meets_pin(install.version, extension.requires_specifier)) {
            std::string text = extension_label(extension) + " requires " + extension.requires_name +
                               extension.requires_specifier + ", but " + framework + " is installed";
            std::string fix = "install the " + extension.name + " release made for " + framework;
            if (imports_verified) {
                worsen(Status::warn);
                text +=
                    ": every symbol it imports from it is exported, so it loads, but it was built and "
                    "tested against another release";
                evidence += "\n  warn: " + text;
                if (warning.empty()) warning = text;
                if (remedy.empty()) remedy = fix;
            } else {
                worsen(Status::fail);
                text += imports_missing
                            ? ": its compiled code is built against another release and fails to import"
                            : ": its compiled code is built against another release and most likely fails to "
                              "import (undefined symbols)";
                evidence += "\n  fail: " + text;
                if (failure.empty()) {
                    failure = text;
                    remedy = fix;
                }
            }
        }
        // Imports the framework does not export: Python's import of that
        // file fails with "undefined symbol", whatever its pin says
        // (flash-attn asks only for "torch").
        if (imports_missing) {
            worsen(Status::fail);
            std::string text = extension_label(extension) + " cannot be imported beside " + framework + ": " +
                               missing_imports_text(extension, framework);
            evidence += "\n  fail: " + text;
            // The rest, a few at a time: enough to search for, not a symbol table.
            for (size_t i = 1; i < extension.missing_symbols.size() && i < 5; ++i)
                evidence += "\n    also: " + extension.missing_symbols[i].file + ": " +
                            shortened(readable_symbol(extension.missing_symbols[i].name));
            if (failure.empty()) {
                failure = text;
                remedy = "install the " + extension.name + " build made for " + framework +
                         ", or rebuild it against it (pip install --no-build-isolation --no-cache-dir "
                         "--force-reinstall " +
                         extension.name + ")";
            }
        } else if (extension.framework_imports > 0) {
            evidence += "\n  imports " + std::to_string(extension.framework_imports) + " symbol(s) of " +
                        framework + "'s interface; it exports every one";
        }
        // Built for another CUDA major: it links a runtime the framework does
        // not bring, and torchvision refuses it outright ("PyTorch and
        // torchvision were compiled with different CUDA major versions").
        if (!framework_major.empty() && !extension.cuda_major.empty() &&
            extension.cuda_major != framework_major) {
            worsen(Status::fail);
            std::string text = extension_label(extension) + " is built for CUDA " + extension.cuda_major +
                               " (" + extension.cuda_evidence + "), " + framework + " for CUDA " +
                               install.cuda_version + ": it cannot work beside it";
            evidence += "\n  fail: " + text;
            if (failure.empty()) {
                failure = text;
                remedy = "install the " + extension.name + " build made for " + framework +
                         " (the same CUDA major, from the same wheel index), or rebuild it against it";
            }
        }
        if (targets.gpus.empty() || extension.device_code_files.empty()) continue;
        FileVerdicts verdicts =
            judge_files(extension.device_code_files, targets.gpus, targets.driver_version);
        extension_jit.insert(extension_jit.end(), verdicts.jit_fat_binaries.begin(),
                             verdicts.jit_fat_binaries.end());
        evidence += "\n  " + verdicts.evidence;
        worsen(verdicts.worst);
        if (verdicts.worst == Status::fail && failure.empty()) {
            failure = extension_label(extension) + " cannot run its kernels: " + verdicts.first_problem;
            remedy = "install a build of " + extension.name +
                     " with the GPU's architecture, or build it from source for it (TORCH_CUDA_ARCH_LIST "
                     "for PyTorch extensions)";
        } else if (verdicts.worst == Status::warn && warning.empty()) {
            warning = extension_label(extension) + ": " + verdicts.first_problem;
            if (remedy.empty())
                remedy = verdicts.worst_is_refusal ? refused_code_remedy()
                                                   : "expect slow first launches of " + extension.name +
                                                         "'s kernels; a build with native SASS avoids them";
        }
    }
    if (!targets.gpus.empty())
        add_fact(report, Layer::framework, "framework." + install.id + ".extension_jit_fat_binaries",
                 jit_fat_binaries_json(extension_jit, install.site_dir),
                 "arch/ (its extensions' registered fat binaries whose code for the GPU is PTX alone)");
    std::string id = "framework.extensions." + install.id;
    Check check = make_check(id, Layer::framework, status, "");
    check.evidence = evidence;
    check.remedy = status == Status::pass ? "" : remedy;
    if (status == Status::fail) {
        check.summary = failure;
    } else if (status == Status::warn) {
        check.summary = warning;
    } else if (targets.gpus.empty()) {
        check.status = Status::skip;
        check.summary = framework + "'s extensions (" + names +
                        ") are built for its CUDA major; no GPU to judge their device code against";
    } else {
        check.summary = framework + "'s extensions (" + names + ") have native SASS for the target";
    }
    report.add_check(std::move(check));
}

}  // namespace strata
