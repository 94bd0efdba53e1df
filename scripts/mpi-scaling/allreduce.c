#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  long ns[] = {1, 84, 100, 1000, 40002};
  int reps = argc > 1 ? atoi(argv[1]) : 1000;
  for (int k = 0; k < 5; k++) {
    long n = ns[k];
    uint64_t *buf = malloc(n * 8);
    for (long i = 0; i < n; i++) buf[i] = rank + i;
    for (int w = 0; w < 20; w++) MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++) MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("n=%ld bytes=%ld us_per_call=%.2f GB/s(bytes/time)=%.3f\n", n, n*8, tmax/reps*1e6, n*8/(tmax/reps)/1e9);
    free(buf);
  }
  MPI_Finalize();
}
