# src/gpu/gpu.cmake -- the CUDA half of the gpu layer (docs/gpu.md), included
# by CMakeLists.txt once the layer targets and the libraries exist.
#
# The C files of src/gpu are an ordinary layer (adams_gpu): the API, the
# orchestration, the emulator backend and, without CUDA, gpu_stub.c, whose
# CUDA backend declines.  With CUDA, gpu_cuda.cu is compiled by nvcc into
# its own object library (adams_gpu_cuda: nvcc takes neither the C warning
# flags nor the sanitizer options, so the directory's options are not
# inherited), its objects go into libadams, the C files see SQ_WITH_CUDA
# (gpu_stub.c then compiles to nothing), and libadams links the CUDA runtime
# statically (CUDA::cudart_static; a program linking the static libadams.a
# of a CUDA build needs it too).
#
#   ADAMS_CUDA=OFF   (default) no CUDA: the device path declines at run time
#   ADAMS_CUDA=AUTO  CUDA when check_language(CUDA) finds a compiler
#   ADAMS_CUDA=ON    CUDA, or a configure error
#
# Code: sm_90 (Hopper: H100, H200) plus PTX for later devices, unless
# CMAKE_CUDA_ARCHITECTURES is given (e.g. -DCMAKE_CUDA_ARCHITECTURES=80 for
# an A100).  The CI command (docs/gpu.md):
#   cmake -S . -B build-cuda -DADAMS_CUDA=ON && cmake --build build-cuda
#   ctest --test-dir build-cuda -R gpu     (device tests skip, 77, without a GPU)
set(ADAMS_CUDA OFF CACHE STRING "Build the CUDA path of src/gpu: OFF, AUTO (if a CUDA compiler is found) or ON")
set_property(CACHE ADAMS_CUDA PROPERTY STRINGS OFF AUTO ON)
set(ADAMS_WITH_CUDA OFF)
if(ADAMS_CUDA AND NOT ADAMS_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(ADAMS_WITH_CUDA ON)
  elseif(ADAMS_CUDA STREQUAL "ON")
    message(FATAL_ERROR "ADAMS_CUDA=ON, but no CUDA compiler was found (put nvcc on PATH or set CUDACXX)")
  endif()
endif()

if(ADAMS_WITH_CUDA)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)  # sm_90 code and compute_90 PTX
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  add_library(adams_gpu_cuda OBJECT ${CMAKE_SOURCE_DIR}/src/gpu/gpu_cuda.cu)
  set_property(TARGET adams_gpu_cuda PROPERTY COMPILE_OPTIONS "")
  set_target_properties(adams_gpu_cuda PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                        POSITION_INDEPENDENT_CODE ON)
  target_include_directories(adams_gpu_cuda PRIVATE ${CMAKE_SOURCE_DIR}/src/gpu ${CMAKE_SOURCE_DIR}/src/core)
  target_compile_options(adams_gpu_cuda PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O3>
                         -Xcompiler=-Wall,-Wextra)
  if(ADAMS_WERROR)
    target_compile_options(adams_gpu_cuda PRIVATE -Werror=all-warnings)
  endif()
  target_compile_definitions(adams_gpu PRIVATE SQ_WITH_CUDA=1)
  foreach(lib ${ADAMS_LIBRARY_TARGETS})
    # Made before CUDA was enabled, so their CUDA_ARCHITECTURES is unset.
    set_target_properties(${lib} PROPERTIES CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
    target_sources(${lib} PRIVATE $<TARGET_OBJECTS:adams_gpu_cuda>)
    if(lib STREQUAL "adams_static")
      target_link_libraries(${lib} PUBLIC CUDA::cudart_static)
    else()
      target_link_libraries(${lib} PRIVATE CUDA::cudart_static)
    endif()
  endforeach()
  message(STATUS "adams: CUDA ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
else()
  message(STATUS "adams: CUDA OFF (ADAMS_CUDA=${ADAMS_CUDA}): the GPU path declines at run time")
endif()
