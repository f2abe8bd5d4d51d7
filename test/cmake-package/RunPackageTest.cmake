# cmake -P script behind the ctest entry cmake-package/find_package-cavs_add_model:
# install the build tree into WORK_DIR/prefix, build consumer/ against it and
# run the result. Every step must succeed.
foreach(var CAVS_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunPackageTest.cmake: ${var} is not set")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(step what)
  message(STATUS "cmake-package: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake-package: '${what}' failed (${result})")
  endif()
endfunction()

step("install into ${prefix}"
  ${CMAKE_COMMAND} --install ${CAVS_BUILD_DIR} --prefix ${prefix})
foreach(file bin/cavsc lib/cmake/cavsc/cavscConfig.cmake include/cavs/runtime.hpp)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "cmake-package: the install has no ${file}")
  endif()
endforeach()

set(configure ${CMAKE_COMMAND} -G ${GENERATOR} -S ${CONSUMER_SOURCE_DIR} -B ${build}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
if(MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(CXX_COMPILER)
  list(APPEND configure -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
step("configure the consumer project" ${configure})
step("build it" ${CMAKE_COMMAND} --build ${build})
step("run it" ${build}/consumer)
foreach(file unlinked_model/libunlinked_model.so unlinked_model/tiny.v2.h)
  if(NOT EXISTS ${build}/${file})
    message(FATAL_ERROR "cmake-package: the build has no ${file}")
  endif()
endforeach()

message(STATUS "cmake-package: a model header named like a system one")
set(shadow ${configure})
list(TRANSFORM shadow REPLACE "^${build}$" "${build}-shadow")
execute_process(COMMAND ${shadow} -DCONSUMER_SHADOW=ON
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
# (CMake wraps the message's lines.)
string(REGEX REPLACE "[ \n]+" " " flat "${output}")
if(result EQUAL 0 OR NOT flat MATCHES "the model's header 'time.h' would hide the system header")
  message(FATAL_ERROR "cmake-package: time.cavs was not refused (${result}):\n${output}")
endif()
