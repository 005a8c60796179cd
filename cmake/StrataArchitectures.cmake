# Helpers over a CMake CUDA_ARCHITECTURES list ("75-real;90-real;120").

# The smallest architecture number in LIST ("90-real;75" -> 75), into OUT:
# the oldest GPU generation the list covers, whose PTX JIT-compiles on every
# GPU of the list. Compared as numbers, whatever the list's order.
function(strata_oldest_architecture list out)
  set(oldest "")
  foreach(item IN LISTS list)
    string(REGEX MATCH "^[0-9]+" number "${item}")
    if(number STREQUAL "")
      continue()
    endif()
    if(oldest STREQUAL "" OR number LESS oldest)
      set(oldest ${number})
    endif()
  endforeach()
  set(${out} ${oldest} PARENT_SCOPE)
endfunction()
