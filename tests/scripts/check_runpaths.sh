#!/usr/bin/env bash
# Usage: check_runpaths.sh FILE...: every RUNPATH/RPATH entry of strata's
# programs and libraries is absolute or starts with $ORIGIN. An empty entry
# (CMake pads the build RPATH of an installed target with one) or a relative
# one is read by the loader against the working directory: strata runs as
# root, and a library planted where it is started from would be loaded.
set -euo pipefail
bad=0
for file in "$@"; do
  path=$(readelf -d "$file" 2>/dev/null | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p')
  [ -n "$path" ] || { echo "$file: no RUNPATH"; continue; }
  IFS=: read -r -a entries <<<"$path"
  [[ "$path" == *: ]] && entries+=("")  # read drops a trailing empty field
  ok=1
  for entry in "${entries[@]}"; do
    if [[ -z "$entry" || ( "$entry" != /* && "$entry" != '$ORIGIN'* ) ]]; then
      echo "$file: RUNPATH [$path] has the entry '$entry', which the loader reads against the working directory"
      ok=0
      bad=1
    fi
  done
  [ "$ok" -eq 0 ] || echo "$file: [$path]"
done
exit "$bad"
