# src/mpi/mpi.cmake -- the program's MPI layer (docs/mpi.md), included by
# CMakeLists.txt after the adams target exists.
#
# src/mpi is compiled into the adams program only: libadams never links
# MPI (its consumers and the install test are unchanged).  With MPI,
# sq_mpi.c (the coordinator and the workers of resolve --mpi); without it,
# sq_mpi_none.c, and the program refuses --mpi with one line (exit 2).
#
#   ADAMS_MPI=OFF   (default) no MPI: the program does not load libmpi
#   ADAMS_MPI=AUTO  MPI when find_package(MPI) finds its C part
#   ADAMS_MPI=ON    MPI, or a configure error
# Not in sanitizer or fuzzing builds (Open MPI's own allocations and
# threads are not instrumented).
#
# Debian 12: apt-get install libopenmpi-dev openmpi-bin (scripts/deps.sh
# installs them for CI).  The tests: tests/mpi (label "mpi").
set(ADAMS_MPI OFF CACHE STRING "Build resolve --mpi: OFF, AUTO (if MPI is found) or ON")
set_property(CACHE ADAMS_MPI PROPERTY STRINGS OFF AUTO ON)
set(ADAMS_WITH_MPI OFF)
if(NOT ADAMS_MPI STREQUAL "OFF" AND NOT ADAMS_SANITIZE AND NOT ADAMS_FUZZ)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    set(ADAMS_WITH_MPI ON)
  elseif(ADAMS_MPI STREQUAL "ON")
    message(FATAL_ERROR "ADAMS_MPI=ON, but no MPI was found (Debian: apt-get install libopenmpi-dev openmpi-bin)")
  endif()
endif()
target_include_directories(adams PRIVATE ${CMAKE_SOURCE_DIR}/src/mpi)
if(ADAMS_WITH_MPI)
  target_sources(adams PRIVATE ${CMAKE_SOURCE_DIR}/src/mpi/sq_mpi.c)
  target_link_libraries(adams PRIVATE MPI::MPI_C)
else()
  target_sources(adams PRIVATE ${CMAKE_SOURCE_DIR}/src/mpi/sq_mpi_none.c)
endif()
message(STATUS "resolve --mpi: ${ADAMS_WITH_MPI} (ADAMS_MPI=${ADAMS_MPI})")
