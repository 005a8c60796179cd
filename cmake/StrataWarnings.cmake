# Our own code builds with every common warning, and warnings are errors.
# Applied per target (strata_warnings), so third-party headers are unaffected.
# STRATA_WARNINGS_AS_ERRORS=OFF keeps the warnings but not the errors: for a
# brief run on a machine whose compiler is not the one CI uses (scripts/gpu-check),
# where a new compiler's new warning must not cost the whole run.
option(STRATA_WARNINGS_AS_ERRORS "Treat warnings as errors" ON)
add_library(strata_warnings INTERFACE)
if(STRATA_WARNINGS_AS_ERRORS)
  target_compile_options(strata_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:C>:-Werror> $<$<COMPILE_LANGUAGE:CXX>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
target_compile_options(strata_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow>
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
