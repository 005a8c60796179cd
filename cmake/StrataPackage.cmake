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

# strata(1), written from the binary's own help at build time (scripts/man-page),
# and each command's page: `man strata` on a node says what that build does.
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/strata.1.gz
  COMMAND ${CMAKE_SOURCE_DIR}/scripts/man-page $<TARGET_FILE:strata> ${PROJECT_VERSION} > ${CMAKE_BINARY_DIR}/strata.1
  COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/strata.1
  DEPENDS strata ${CMAKE_SOURCE_DIR}/scripts/man-page
  COMMENT "strata(1) from strata --help")
add_custom_target(strata_man_page ALL DEPENDS ${CMAKE_BINARY_DIR}/strata.1.gz)
install(FILES ${CMAKE_BINARY_DIR}/strata.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/commands/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/commands
  FILES_MATCHING PATTERN "*.md")

# What operators deploy with: the Slurm batch script and health check, the
# Kubernetes manifests, and the JSON schemas of every output.
set(STRATA_INSTALL_DATA_DIR ${CMAKE_INSTALL_DATADIR}/strata)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/deploy/slurm/strata-healthcheck ${CMAKE_SOURCE_DIR}/deploy/slurm/strata-qualify.sbatch
  DESTINATION ${STRATA_INSTALL_DATA_DIR}/slurm)
install(FILES ${CMAKE_SOURCE_DIR}/deploy/slurm/README.md DESTINATION ${STRATA_INSTALL_DATA_DIR}/slurm)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/deploy/kubernetes/ DESTINATION ${STRATA_INSTALL_DATA_DIR}/kubernetes)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${STRATA_INSTALL_DATA_DIR}/schemas
  FILES_MATCHING PATTERN "*.schema.json")

# A .deb for GPU nodes (`cpack -G DEB` in the build tree, or scripts/package):
# strata, its runner and plugins in their relative layout under /usr, so
# `apt install ./strata_<version>_<arch>.deb` gives a working `strata doctor`.
# The CUDA libraries are not dependencies: a node brings its own (NVIDIA's
# packages, the toolkit, pip wheels) and strata reports a missing one. The
# Debian dependencies are those of the distribution the package is built on.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME strata)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "proves, layer by layer, that a machine's CUDA stack works, and how fast")
set(CPACK_PACKAGE_DESCRIPTION "strata checks the host, container, kernel module, user-mode driver, GPUs, \
CUDA runtime, cuBLAS, cuDNN and NCCL of a node, launches and times representative kernels, and explains \
every failure. It also reads fat binaries for a target GPU, records runs, decides driver rollouts and \
aggregates fleets (Slurm, Kubernetes, Prometheus).")
# Debug information stays in the build tree; the package is what nodes run.
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "strata maintainers <strata-maintainers@lists.strata.dev>")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1, libzstd1, liblz4-1")
if(TARGET strata_bench_runner)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libbenchmark1debian")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client, prometheus-node-exporter")
include(CPack)
