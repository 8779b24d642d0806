# ctest driver (cmake -P): install ingot into a scratch prefix, check the installed package
# config does not point back into the build or source tree, then build and run tests/consumer.
foreach(var INGOT_BINARY_DIR INGOT_SOURCE_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "consumer test: '${cmd}' failed (${rc})")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${INGOT_BINARY_DIR} --prefix ${prefix})

file(GLOB_RECURSE package_files ${prefix}/*.cmake)
if(NOT package_files)
  message(FATAL_ERROR "consumer test: no CMake package files installed under ${prefix}")
endif()
foreach(f IN LISTS package_files)
  file(READ ${f} text)
  foreach(tree ${INGOT_BINARY_DIR} ${INGOT_SOURCE_DIR})
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "consumer test: installed ${f} refers to ${tree}")
    endif()
  endforeach()
endforeach()

# Only the prefix is visible to the consumer: no build tree, no package registry.
run(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
