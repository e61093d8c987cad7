/* GCC's and Clang's vector types where the target has SSE2 (x86-64
 * always): two doubles a register, loaded and stored unaligned. Each lane
 * does what the scalar code would (no fused multiply-add: the same bits),
 * so a kernel written with them gives the plain loop's answer. Code that
 * uses them keeps a plain loop for other targets (LK_HAVE_V2D 0). */
#ifndef LK_CORE_SIMD_H
#define LK_CORE_SIMD_H

#include <string.h>

#if defined(__GNUC__) && defined(__SSE2__)
#define LK_HAVE_V2D 1
typedef double v2d __attribute__((vector_size(16)));
static inline v2d load2(const double *p) {
  v2d v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void store2(double *p, v2d v) { memcpy(p, &v, sizeof v); }
/* |x| a lane: the sign bits cleared */
static inline v2d abs2(v2d x) {
  typedef unsigned long long v2u __attribute__((vector_size(16)));
  const v2u mask = {0x7fffffffffffffffULL, 0x7fffffffffffffffULL};
  return (v2d)((v2u)x & mask);
}
#else
#define LK_HAVE_V2D 0
#endif

#endif
