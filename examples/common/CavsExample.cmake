# Included by every example app's CMakeLists.txt after its project() call
# (standalone) or inside the cavsc tree: in a standalone build (no
# cavs_add_model yet) it sets C++17 and a Release default and finds the
# installed cavsc; then it adds the shared library cavs_example_common
# once, and defines cavs_example_app().
include_guard(GLOBAL)
if(NOT COMMAND cavs_add_model)
  set(CMAKE_CXX_STANDARD 17)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  if(NOT CMAKE_BUILD_TYPE)
    set(CMAKE_BUILD_TYPE Release)
  endif()
  find_package(cavsc REQUIRED)
endif()
if(NOT TARGET cavs_example_common)
  add_subdirectory(${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_BINARY_DIR}/common)
endif()

# cavs_example_app(<exe> <model target> [DATA <name>] SOURCES <files>...):
# an app linking its compiled model and this library. DATA names a folder
# of ../shared/data beside the checkout, the default data set, passed as
# CAVS_EXAMPLE_DATA_DIR; CAVS_EXAMPLE_SYNTHETIC_DIR is where the app
# generates a stand-in sample when that folder is absent.
function(cavs_example_app name model)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "DATA" "SOURCES")
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${model} cavs_example_common)
  if(arg_DATA)
    get_filename_component(data_dir
      "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../shared/data/${arg_DATA}" ABSOLUTE)
    target_compile_definitions(${name} PRIVATE
      CAVS_EXAMPLE_DATA_DIR="${data_dir}"
      CAVS_EXAMPLE_SYNTHETIC_DIR="${CMAKE_CURRENT_BINARY_DIR}/${arg_DATA}-synthetic")
  endif()
endfunction()
