#!/usr/bin/env bash
# Usage: external_plugin.sh BUILD_DIR EXTERNAL_SOURCE_DIR CMAKE
# Installs strata into a scratch prefix, builds a plugin out of tree through
# find_package(strata), installs it next to strata, and checks that the
# installed strata discovers, loads and runs it.
set -euo pipefail
build=$1 source=$2 cmake=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$cmake" --install "$build" --prefix "$scratch/prefix" >/dev/null
"$cmake" -S "$source" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_INSTALL_PREFIX="$scratch/prefix" >/dev/null
"$cmake" --build "$scratch/build" >/dev/null
"$cmake" --install "$scratch/build" >/dev/null
plugin="$scratch/prefix/lib/strata/plugins/libstrata_plugin_hello_external.so"
test -f "$plugin" || { echo "plugin not installed at $plugin" >&2; exit 1; }
listing=$(env -u STRATA_PLUGIN_PATH "$scratch/prefix/bin/strata" plugins)
echo "$listing"
grep -Eq '^hello_external +loaded +host layer, version 1.0, ABI 1\.[0-9]+' <<<"$listing"
report=$(env -u STRATA_PLUGIN_PATH "$scratch/prefix/bin/strata" doctor --json || true)
grep -q '"host.hello_external.greeting"' <<<"$report"
echo "out-of-tree plugin built, discovered and run"
