# cmake -P: strata_oldest_architecture takes the smallest number, not the
# first entry (scripts/gpu-check lists the native architecture first).
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/StrataArchitectures.cmake)
foreach(case IN ITEMS "90-real\;75=75" "75-real\;80-real\;86-real\;89-real\;90-real\;100-real\;120=75"
                      "120\;100a-real\;90-real=90" "86=86" "native-real\;80=80")
  string(REPLACE "=" ";" parts "${case}")
  list(GET parts -1 want)
  list(REMOVE_AT parts -1)
  strata_oldest_architecture("${parts}" got)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "oldest of '${parts}': got '${got}', want '${want}'")
  endif()
endforeach()
message(STATUS "strata_oldest_architecture: every case holds")
