# cavs_add_model: compile a .cavs model with cavsc into a shared library plus
# its generated header, and expose both as a CMake target to link against.
#
#   cavs_add_model(<target> <model.cavs>
#                  [EXCLUDE_FROM_ALL]            # built only when linked
#                  [DEFINES NAME=VALUE ...]      # dim overrides, cavsc -D
#                  [OPTIONS <cavsc flags> ...])  # e.g. -O2 --cpu=x86-64-v3
#
# OPTIONS come after the module's own flags, so `OPTIONS --target=cpu`
# builds a CPU-only library where cavsc has CUDA.
#
# cavsc runs at build time (it is re-run when the .cavs file or cavsc itself
# changes) and writes, into ${CMAKE_CURRENT_BINARY_DIR}/<target>/,
#
#   lib<target>.so   the compiled model, linked against libcavs_runtime
#   <stem>.h         its header (<stem> = the .cavs file name without its
#                    last extension; a stem that names a system header,
#                    such as time, is refused): <model>_model_def(),
#                    <model>_create() and, in C++, the class
#                    cavs_models::<model> (a cavs::Model)
#
# <target> is an INTERFACE library: `target_link_libraries(app PRIVATE
# <target>)` brings the header's folder, the model library (with an rpath to
# it) and the cavs runtime (include folder and library), and builds the model
# before the app's sources are compiled. The target's properties
# CAVS_MODEL_LIBRARY and CAVS_MODEL_HEADER hold the two paths (e.g. for
# install(FILES ...)).
#
# The module works in the cavsc build tree (targets `cavsc` and
# `cavs_runtime`) and from an installed package (find_package(cavsc), which
# provides the imported targets cavsc::cavsc and cavsc::cavs_runtime).

include_guard(GLOBAL)

# The compiler and runtime targets: the imported ones of an installed
# package, else those of the cavsc build tree.
function(_cavs_resolve_targets out_compiler out_runtime)
  if(TARGET cavsc::cavsc AND TARGET cavsc::cavs_runtime)
    set(${out_compiler} cavsc::cavsc PARENT_SCOPE)
    set(${out_runtime} cavsc::cavs_runtime PARENT_SCOPE)
  elseif(TARGET cavsc AND TARGET cavs_runtime)
    set(${out_compiler} cavsc PARENT_SCOPE)
    set(${out_runtime} cavs_runtime PARENT_SCOPE)
  else()
    message(FATAL_ERROR
      "cavs_add_model: neither cavsc::cavsc + cavsc::cavs_runtime "
      "(find_package(cavsc)) nor the cavsc build tree's cavsc + cavs_runtime "
      "targets exist")
  endif()
endfunction()

function(cavs_add_model target model)
  cmake_parse_arguments(PARSE_ARGV 2 arg "EXCLUDE_FROM_ALL" "" "DEFINES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cavs_add_model(${target}): unexpected arguments "
                        "'${arg_UNPARSED_ARGUMENTS}' (expected EXCLUDE_FROM_ALL, "
                        "DEFINES or OPTIONS)")
  endif()
  if(TARGET ${target})
    message(FATAL_ERROR "cavs_add_model: a target named '${target}' already exists")
  endif()
  get_filename_component(source "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${source}")
    message(FATAL_ERROR "cavs_add_model(${target}): model file '${source}' does not exist")
  endif()
  get_filename_component(stem "${source}" NAME_WLE)
  _cavs_resolve_targets(compiler runtime)

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  set(library "${out_dir}/lib${target}.so")
  set(header "${out_dir}/${stem}.h")
  # The header's folder is on the include path of everything that links the
  # model, so a header named like a system one (time.h from time.cavs) would
  # replace it in every #include <...> of the app and of the C library.
  foreach(dir IN LISTS CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES
                       CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES)
    if(EXISTS "${dir}/${stem}.h")
      message(FATAL_ERROR "cavs_add_model(${target}): the model's header "
                          "'${stem}.h' would hide the system header "
                          "'${dir}/${stem}.h'; rename '${model}'")
    endif()
  endforeach()
  file(MAKE_DIRECTORY "${out_dir}")

  set(flags)
  foreach(define IN LISTS arg_DEFINES)
    if(NOT define MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.+$")
      message(FATAL_ERROR "cavs_add_model(${target}): DEFINES entry '${define}' "
                          "is not NAME=VALUE")
    endif()
    list(APPEND flags "-D${define}")
  endforeach()
  # Libraries for the CPU and, when this cavsc has CUDA, for GPUs too.
  if(CAVS_HAVE_CUDA OR cavsc_HAVE_CUDA)
    list(APPEND flags --target=cpu,cuda)
  endif()
  list(APPEND flags ${arg_OPTIONS})

  # cavsc is a file dependency, so that a new compiler rebuilds every model.
  # The runtime must exist before cavsc links the model against it: in the
  # build tree an ordering dependency (relinking the runtime does not require
  # recompiling models), installed a plain file dependency.
  set(runtime_file)
  get_target_property(runtime_imported ${runtime} IMPORTED)
  if(runtime_imported)
    set(runtime_file "$<TARGET_FILE:${runtime}>")
  endif()
  add_custom_command(
    OUTPUT "${library}" "${header}"
    COMMAND ${compiler} "${source}" --emit=so -o "${library}"
            "--runtime-dir=$<TARGET_FILE_DIR:${runtime}>" ${flags}
    COMMAND ${compiler} "${source}" --emit=header -o "${header}" ${flags}
    DEPENDS "${source}" "$<TARGET_FILE:${compiler}>" ${runtime_file}
    COMMENT "cavsc: compiling ${stem}.cavs into lib${target}.so and ${stem}.h"
    VERBATIM)
  # Part of `all` (unless EXCLUDE_FROM_ALL), so that a model no app links is
  # built too (for install(FILES ...) of CAVS_MODEL_LIBRARY and
  # CAVS_MODEL_HEADER).
  set(all ALL)
  if(arg_EXCLUDE_FROM_ALL)
    set(all)
  endif()
  add_custom_target(${target}_generate ${all} DEPENDS "${library}" "${header}")
  if(NOT runtime_imported)
    add_dependencies(${target}_generate ${runtime})
  endif()

  # The model library (cavsc gives it its file name as soname): users link it
  # with an rpath to its folder and are relinked when it changes.
  add_library(${target}_library SHARED IMPORTED GLOBAL)
  set_target_properties(${target}_library PROPERTIES
    IMPORTED_LOCATION "${library}"
    IMPORTED_SONAME "lib${target}.so")

  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE "${out_dir}")
  target_link_libraries(${target} INTERFACE ${target}_library ${runtime})
  # Followed transitively by whatever links ${target}: the model is built
  # (and the header exists) before their sources compile.
  add_dependencies(${target} ${target}_generate)
  set_target_properties(${target} PROPERTIES
    CAVS_MODEL_LIBRARY "${library}"
    CAVS_MODEL_HEADER "${header}")
endfunction()
