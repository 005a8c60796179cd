#!/usr/bin/env bash
# Usage: check_exports.sh PLUGIN.so — the version script must leave exactly
# one exported function: strata_plugin_entry.
set -euo pipefail
exports=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort)
if [ "$exports" != "strata_plugin_entry" ]; then
  echo "expected only strata_plugin_entry, found:" >&2
  echo "$exports" >&2
  exit 1
fi
echo "exports: $exports"
