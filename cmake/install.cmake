# install.cmake: what `cmake --install BUILD --prefix P` puts under P (docs/embedding.md).
#
#   P/bin/ptoc
#   P/lib/libptoc.{a,so} libptort.{a,so} [libptoc_mlir.{a,so}]
#   P/include/ptort.h  P/include/ptoc/{ptoc.h,legality.h[,mlir.h]}
#   P/lib/cmake/ptoc/  find_package(ptoc): ptoc::ptoc, ptoc::ptort [, ptoc::ptoc_mlir]
#                      (shared) and ptoc::ptoc_static, ptoc::ptort_static
#                      [, ptoc::ptoc_mlir_static]
#   P/lib/pkgconfig/   ptoc.pc, ptort.pc [, ptoc-mlir.pc]
#
# [decision] The layout is fixed (bin, lib, include; no lib64 or multiarch folder):
# `ptoc run` finds the runtime beside its binary (BIN/../include, BIN/../lib). Both the
# CMake package and the pkg-config files locate the prefix from their own place, so an
# installed tree can be moved. The bracketed parts exist when MLIR 19 was found.
include(CMakePackageConfigHelpers)

set(_ptoc_targets ptoc_static ptoc_shared ptort_static ptort_shared)
set_target_properties(ptoc_shared PROPERTIES EXPORT_NAME ptoc)
set_target_properties(ptoc_static PROPERTIES EXPORT_NAME ptoc_static)
set_target_properties(ptort_shared PROPERTIES EXPORT_NAME ptort)
set_target_properties(ptort_static PROPERTIES EXPORT_NAME ptort_static)
if(PTOC_HAVE_MLIR)
  list(APPEND _ptoc_targets ptoc_mlir_static ptoc_mlir_shared)
  set_target_properties(ptoc_mlir_shared PROPERTIES EXPORT_NAME ptoc_mlir)
  set_target_properties(ptoc_mlir_static PROPERTIES EXPORT_NAME ptoc_mlir_static)
endif()

install(TARGETS ptoc RUNTIME DESTINATION bin)
install(TARGETS ${_ptoc_targets} EXPORT ptocTargets
        ARCHIVE DESTINATION lib LIBRARY DESTINATION lib RUNTIME DESTINATION bin)
install(FILES ${CMAKE_SOURCE_DIR}/runtime/include/ptort.h ${CMAKE_SOURCE_DIR}/runtime/include/ptort_sync.h
        DESTINATION include)
install(FILES ${CMAKE_SOURCE_DIR}/include/ptoc/ptoc.h ${CMAKE_SOURCE_DIR}/include/ptoc/legality.h
        DESTINATION include/ptoc)
if(PTOC_HAVE_MLIR)
  install(FILES ${CMAKE_SOURCE_DIR}/include/ptoc/mlir.h DESTINATION include/ptoc)
endif()

install(EXPORT ptocTargets NAMESPACE ptoc:: DESTINATION lib/cmake/ptoc)
set(PTOC_PACKAGE_HAVE_MLIR ${PTOC_HAVE_MLIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/ptocConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/cmake/ptocConfig.cmake
                              INSTALL_DESTINATION lib/cmake/ptoc)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/ptocConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/ptocConfig.cmake ${CMAKE_BINARY_DIR}/cmake/ptocConfigVersion.cmake
        DESTINATION lib/cmake/ptoc)

set(_pc ptoc ptort)
if(PTOC_HAVE_MLIR)
  # the C API archives by path (Debian has no shared MLIR C API library), then the
  # shared MLIR and LLVM and the C++ runtime, as libptoc_mlir links them
  set(PTOC_PC_MLIR_LIBS)
  foreach(l ${PTOC_MLIR_LINK})
    if(IS_ABSOLUTE ${l})
      string(APPEND PTOC_PC_MLIR_LIBS " ${l}")
    else()
      string(APPEND PTOC_PC_MLIR_LIBS " -l${l}")
    endif()
  endforeach()
  string(APPEND PTOC_PC_MLIR_LIBS " -Wl,-rpath,${PTOC_MLIR_LIBDIR}")
  list(APPEND _pc ptoc-mlir)
endif()
foreach(p ${_pc})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/${p}.pc.in ${CMAKE_BINARY_DIR}/cmake/${p}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/cmake/${p}.pc DESTINATION lib/pkgconfig)
endforeach()
