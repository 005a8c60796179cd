# strata_add_plugin(NAME SOURCES src... [LINK targets...])
#
# Builds a strata plugin: a MODULE library named libstrata_plugin_NAME.so,
# compiled with hidden visibility and linked with a version script so that
# strata_plugin_entry is its only exported symbol. Used in the source tree
# and, installed, by third-party plugins (find_package(strata)).
set(STRATA_PLUGIN_VERSION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/strata_plugin.map)

function(strata_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIRECTORY" "SOURCES;LINK")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "strata_add_plugin(${name}): SOURCES is required")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE strata::plugin_headers ${ARG_LINK})
  set_target_properties(${name} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME "strata_plugin_${name}"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${STRATA_PLUGIN_VERSION_SCRIPT})
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  endif()
  target_link_options(${name} PRIVATE "LINKER:--version-script=${STRATA_PLUGIN_VERSION_SCRIPT}")
endfunction()
