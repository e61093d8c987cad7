/* The C side of the Python binding's comparisons: load a mechanism file,
 * step it N times as a C user would (lk_step in a loop), then print the
 * time and every q and v entry in C99 hexadecimal (exact), or, with
 * --time, the wall time of the loop in nanoseconds a step (for
 * bench/python.py; never judged by make check). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linkage/linkage.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: step_c FILE NSTEPS [--time]\n");
    return 2;
  }
  long n = strtol(argv[2], NULL, 10);
  int timing = argc > 3 && strcmp(argv[3], "--time") == 0;
  lk_error err;
  lk_model *m = lk_model_load_file(argv[1], NULL, &err);
  if (!m) {
    char buf[1024];
    fprintf(stderr, "%s\n", lk_error_format(&err, buf, sizeof buf));
    return 1;
  }
  lk_data *d = lk_data_new(m);
  if (!d) return 1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n; i++)
    if (lk_step(m, d) != LK_OK) {
      fprintf(stderr, "step %ld failed\n", i);
      return 1;
    }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (timing) {
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%.1f\n", n > 0 ? ns / (double)n : 0.0);
  } else {
    printf("t %a\n", lk_data_time(d));
    const double *q = lk_data_q(d), *v = lk_data_v(d);
    for (int i = 0; i < lk_model_nq(m); i++) printf("q %a\n", q[i]);
    for (int i = 0; i < lk_model_nv(m); i++) printf("v %a\n", v[i]);
  }
  lk_data_free(d);
  lk_model_free(m);
  return 0;
}
