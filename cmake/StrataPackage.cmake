# Installation: the strata binary, its plugins, the plugin ABI header and a
# CMake package that lets third parties build plugins against it.
include(CMakePackageConfigHelpers)
set(STRATA_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/strata)

install(TARGETS strata RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS strata_plugin_headers EXPORT strataTargets)
install(FILES ${CMAKE_SOURCE_DIR}/core/include/strata/plugin.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata)
install(EXPORT strataTargets NAMESPACE strata:: DESTINATION ${STRATA_INSTALL_CMAKE_DIR})

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/strataConfig.cmake.in
  ${CMAKE_BINARY_DIR}/strataConfig.cmake
  INSTALL_DESTINATION ${STRATA_INSTALL_CMAKE_DIR}
  PATH_VARS STRATA_INSTALL_PLUGIN_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/strataConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/strataConfig.cmake
  ${CMAKE_BINARY_DIR}/strataConfigVersion.cmake
  ${CMAKE_SOURCE_DIR}/cmake/StrataPlugin.cmake
  ${CMAKE_SOURCE_DIR}/cmake/strata_plugin.map
  DESTINATION ${STRATA_INSTALL_CMAKE_DIR})
