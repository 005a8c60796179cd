# Our own code builds with every common warning, and warnings are errors.
# Applied per target (strata_warnings), so third-party headers are unaffected.
add_library(strata_warnings INTERFACE)
target_compile_options(strata_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Werror -Wshadow>
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wshadow -Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
