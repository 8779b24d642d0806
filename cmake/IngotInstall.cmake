# cmake --install: headers, library and a package config for find_package(ingot CONFIG).
include(CMakePackageConfigHelpers)
install(TARGETS ingot EXPORT ingotTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/ingot DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The generated headers (functions.h, tensor_methods.inc) are included by the public ones.
install(DIRECTORY ${INGOT_GENERATED_INCLUDE_DIR}/ingot DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ingotTargets NAMESPACE ingot:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ingot)
configure_package_config_file(cmake/ingotConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ingotConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ingot)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ingotConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ingotConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ingotConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ingot)
