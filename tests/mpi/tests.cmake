# tests/mpi -- resolve --mpi (docs/mpi.md), label "mpi".
#
# A build with MPI (ADAMS_MPI=AUTO|ON, MPI found): mpi.resolve runs
# tests/mpi/run.sh: `mpirun -np 3 --oversubscribe` gives the threaded run's
# bytes (Nassau, classical, an odd prime, 2 and 4 ranks), a rank killed
# mid-run ends the run with one line and the same command resumes to the
# same bytes, SIGTERM to mpirun stops and resumes, the refusals.  Skip code
# 77 with a message when mpirun is missing.  A build without MPI:
# mpi.refused checks that --mpi is refused in one line, exit 2.  Not in
# sanitizer builds (MPI is off there).
if(ADAMS_SANITIZE OR ADAMS_FUZZ)
  return()
endif()
if(ADAMS_WITH_MPI)
  add_test(NAME mpi.resolve
    COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/run.sh $<TARGET_FILE:adams> ${CMAKE_BINARY_DIR}/mpi-test)
  set_tests_properties(mpi.resolve PROPERTIES LABELS mpi SKIP_RETURN_CODE 77 TIMEOUT 300)
else()
  add_test(NAME mpi.refused COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/refused.sh $<TARGET_FILE:adams>)
  set_tests_properties(mpi.refused PROPERTIES LABELS mpi TIMEOUT 60)
endif()
