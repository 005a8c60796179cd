#!/usr/bin/env bash
# Usage: check_kernel_archs.sh STRATA LIBSTRATA_KERNELS CUOBJDUMP
# The SASS and PTX that cuobjdump finds in the kernels library must be
# exactly the list `strata --version` prints.
set -euo pipefail
strata=$1 library=$2 cuobjdump=$3
claimed=$("$strata" --version | sed -n 's/^kernel architectures: //p' | tr ' ' '\n' | sort -u)
sass=$("$cuobjdump" --list-elf "$library" | grep -o 'sm_[0-9]*[af]\?' | sort -u)
ptx=$("$cuobjdump" --list-ptx "$library" | grep -o 'sm_[0-9]*[af]\?' | sed 's/sm_/compute_/' | sort -u)
found=$(printf '%s\n%s\n' "$sass" "$ptx" | sort -u)
if [ "$claimed" != "$found" ]; then
  echo "strata --version claims:"; echo "$claimed"
  echo "cuobjdump finds:"; echo "$found"
  exit 1
fi
echo "kernel architectures match: $(echo $found)"
