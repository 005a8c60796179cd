# Sourced first by every bench script, with the script's arguments:
#   root    the repository
#   build   the build tree (the first argument, default build/)
#   strata  the binary under test
#   out     a scratch directory, removed on exit
# and a one-line refusal (exit 2) without a built strata or hyperfine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
build=${1:-$root/build}
strata="$build/bin/strata"
[ -x "$strata" ] || { echo "bench: $strata not built (run scripts/build)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench: hyperfine missing (scripts/setup --test installs it)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
