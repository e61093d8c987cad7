/* Small fixed-size math: 3-vectors, 3x3 matrices, unit quaternions, rigid
 * transforms, and 6-D spatial motion/force vectors and rigid-body inertias
 * (Featherstone, "Rigid Body Dynamics Algorithms", 2008, ch. 2).
 *
 * Conventions
 * - Column vectors; lk_mat3 is row-major (m[row][col]).
 * - Quaternions are Hamilton, (w, x, y, z), and represent rotations when
 *   unit; lk_quat_to_mat3(q) v == lk_quat_rotate(q, v).
 * - An lk_transform T = (R, p) is the pose of a frame B in a frame A: the
 *   columns of R are B's axes in A coordinates and p is B's origin in A.
 *   A point maps as x_A = R x_B + p (lk_transform_point).
 * - Spatial vectors are [angular; linear] (Featherstone order). A motion
 *   vector (omega, v) has v = velocity of the body point at the frame
 *   origin; a force vector (n, f) has n = moment about the frame origin.
 * - lk_inertia (m, h, I) is a rigid-body spatial inertia about a frame's
 *   origin: mass m, first moment h = m c (c = centre of mass), and I the
 *   rotational inertia about the origin (I_com + m (|c|^2 1 - c c^T)).
 *
 * Everything here is inline and allocation-free; the less frequent
 * operations (eigenvalues, inverses, Euler angles) live in lib/math/. */
#ifndef LINKAGE_MATH_H
#define LINKAGE_MATH_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LK_INLINE static inline

/* GCC at -O2 keeps the fixed 3 x 3 loops below as loops (complete
 * unrolling is an -O3 pass), which roughly doubles the cost of the spatial
 * algebra in the dynamics; ask for it explicitly where the compiler
 * understands the pragma (GCC, Clang). */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define LK_UNROLL3 _Pragma("GCC unroll 3")
#else
#define LK_UNROLL3
#endif

#define LK_PI 3.14159265358979323846

typedef struct {
  double x, y, z;
} lk_vec3;

typedef struct {
  double m[3][3];
} lk_mat3;

typedef struct {
  double w, x, y, z;
} lk_quat;

typedef struct {
  lk_mat3 R;
  lk_vec3 p;
} lk_transform;

typedef struct {
  lk_vec3 ang; /* angular velocity / acceleration */
  lk_vec3 lin; /* linear velocity / acceleration of the point at the origin */
} lk_motion;

typedef struct {
  lk_vec3 ang; /* moment about the origin */
  lk_vec3 lin; /* force */
} lk_force;

typedef struct {
  double m;  /* mass */
  lk_vec3 h; /* first moment of mass, m * com */
  lk_mat3 I; /* rotational inertia about the origin */
} lk_inertia;

/* ---------------------------------------------------------------- vec3 */

LK_INLINE lk_vec3 lk_v3(double x, double y, double z) {
  lk_vec3 r = {x, y, z};
  return r;
}
LK_INLINE lk_vec3 lk_v3_zero(void) { return lk_v3(0, 0, 0); }
LK_INLINE lk_vec3 lk_v3_add(lk_vec3 a, lk_vec3 b) { return lk_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
LK_INLINE lk_vec3 lk_v3_sub(lk_vec3 a, lk_vec3 b) { return lk_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
LK_INLINE lk_vec3 lk_v3_scale(lk_vec3 a, double s) { return lk_v3(a.x * s, a.y * s, a.z * s); }
LK_INLINE lk_vec3 lk_v3_neg(lk_vec3 a) { return lk_v3(-a.x, -a.y, -a.z); }
/* a + s b */
LK_INLINE lk_vec3 lk_v3_madd(lk_vec3 a, lk_vec3 b, double s) {
  return lk_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
LK_INLINE double lk_v3_dot(lk_vec3 a, lk_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
LK_INLINE lk_vec3 lk_v3_cross(lk_vec3 a, lk_vec3 b) {
  return lk_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
LK_INLINE double lk_v3_norm2(lk_vec3 a) { return lk_v3_dot(a, a); }
LK_INLINE double lk_v3_norm(lk_vec3 a) { return sqrt(lk_v3_dot(a, a)); }
/* a / |a|, or the zero vector when |a| == 0 (|a|^2 underflowing to 0
 * included: callers take a zero result as "no direction") or a is not
 * finite. When |a|^2 overflows, a is first divided by its largest
 * component (as hypot scales), so [1e308, 1e308, 0] is (0.7071, 0.7071, 0)
 * and not (0, 0, 0); otherwise the result is a / sqrt(a.a) as always. */
LK_INLINE lk_vec3 lk_v3_normalize(lk_vec3 a) {
  double n2 = lk_v3_dot(a, a);
  if (n2 < 1e300) return n2 > 0 ? lk_v3_scale(a, 1.0 / sqrt(n2)) : lk_v3_zero();
  if (!(isfinite(a.x) && isfinite(a.y) && isfinite(a.z))) return lk_v3_zero();
  double m = fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z)));
  lk_vec3 b = lk_v3(a.x / m, a.y / m, a.z / m);
  return lk_v3_scale(b, 1.0 / sqrt(lk_v3_dot(b, b)));
}
LK_INLINE double lk_v3_get(lk_vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
LK_INLINE lk_vec3 lk_v3_from(const double *p) { return lk_v3(p[0], p[1], p[2]); }
LK_INLINE void lk_v3_to(lk_vec3 a, double *p) {
  p[0] = a.x;
  p[1] = a.y;
  p[2] = a.z;
}
LK_INLINE int lk_v3_isfinite(lk_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* ---------------------------------------------------------------- mat3 */

LK_INLINE lk_mat3 lk_m3_identity(void) {
  lk_mat3 r = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  return r;
}
LK_INLINE lk_mat3 lk_m3_zero(void) {
  lk_mat3 r = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
  return r;
}
LK_INLINE lk_mat3 lk_m3_diag(double a, double b, double c) {
  lk_mat3 r = {{{a, 0, 0}, {0, b, 0}, {0, 0, c}}};
  return r;
}
/* [a]x, the matrix with [a]x b == a x b. */
LK_INLINE lk_mat3 lk_m3_skew(lk_vec3 a) {
  lk_mat3 r = {{{0, -a.z, a.y}, {a.z, 0, -a.x}, {-a.y, a.x, 0}}};
  return r;
}
LK_INLINE lk_vec3 lk_m3_col(const lk_mat3 *A, int j) {
  return lk_v3(A->m[0][j], A->m[1][j], A->m[2][j]);
}
LK_INLINE lk_vec3 lk_m3_row(const lk_mat3 *A, int i) {
  return lk_v3(A->m[i][0], A->m[i][1], A->m[i][2]);
}
LK_INLINE lk_mat3 lk_m3_from_cols(lk_vec3 a, lk_vec3 b, lk_vec3 c) {
  lk_mat3 r = {{{a.x, b.x, c.x}, {a.y, b.y, c.y}, {a.z, b.z, c.z}}};
  return r;
}
LK_INLINE lk_vec3 lk_m3_mulv(const lk_mat3 *A, lk_vec3 v) {
  return lk_v3(A->m[0][0] * v.x + A->m[0][1] * v.y + A->m[0][2] * v.z,
               A->m[1][0] * v.x + A->m[1][1] * v.y + A->m[1][2] * v.z,
               A->m[2][0] * v.x + A->m[2][1] * v.y + A->m[2][2] * v.z);
}
/* A^T v */
LK_INLINE lk_vec3 lk_m3_tmulv(const lk_mat3 *A, lk_vec3 v) {
  return lk_v3(A->m[0][0] * v.x + A->m[1][0] * v.y + A->m[2][0] * v.z,
               A->m[0][1] * v.x + A->m[1][1] * v.y + A->m[2][1] * v.z,
               A->m[0][2] * v.x + A->m[1][2] * v.y + A->m[2][2] * v.z);
}
LK_INLINE lk_mat3 lk_m3_mul(const lk_mat3 *A, const lk_mat3 *B) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++)
      r.m[i][j] = A->m[i][0] * B->m[0][j] + A->m[i][1] * B->m[1][j] + A->m[i][2] * B->m[2][j];
  return r;
}
/* A^T B */
LK_INLINE lk_mat3 lk_m3_tmul(const lk_mat3 *A, const lk_mat3 *B) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++)
      r.m[i][j] = A->m[0][i] * B->m[0][j] + A->m[1][i] * B->m[1][j] + A->m[2][i] * B->m[2][j];
  return r;
}
/* A B^T */
LK_INLINE lk_mat3 lk_m3_mult(const lk_mat3 *A, const lk_mat3 *B) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++)
      r.m[i][j] = A->m[i][0] * B->m[j][0] + A->m[i][1] * B->m[j][1] + A->m[i][2] * B->m[j][2];
  return r;
}
LK_INLINE lk_mat3 lk_m3_transpose(const lk_mat3 *A) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++) r.m[i][j] = A->m[j][i];
  return r;
}
LK_INLINE lk_mat3 lk_m3_add(const lk_mat3 *A, const lk_mat3 *B) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++) r.m[i][j] = A->m[i][j] + B->m[i][j];
  return r;
}
LK_INLINE lk_mat3 lk_m3_sub(const lk_mat3 *A, const lk_mat3 *B) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++) r.m[i][j] = A->m[i][j] - B->m[i][j];
  return r;
}
LK_INLINE lk_mat3 lk_m3_scale(const lk_mat3 *A, double s) {
  lk_mat3 r;
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++) r.m[i][j] = A->m[i][j] * s;
  return r;
}
/* R A R^T, the change of basis of a tensor. */
LK_INLINE lk_mat3 lk_m3_rotate_tensor(const lk_mat3 *R, const lk_mat3 *A) {
  lk_mat3 t = lk_m3_mul(R, A);
  return lk_m3_mult(&t, R);
}
/* a b^T */
LK_INLINE lk_mat3 lk_m3_outer(lk_vec3 a, lk_vec3 b) {
  lk_mat3 r = {{{a.x * b.x, a.x * b.y, a.x * b.z},
                {a.y * b.x, a.y * b.y, a.y * b.z},
                {a.z * b.x, a.z * b.y, a.z * b.z}}};
  return r;
}
LK_INLINE double lk_m3_det(const lk_mat3 *A) {
  const double(*m)[3] = A->m;
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
LK_INLINE double lk_m3_trace(const lk_mat3 *A) { return A->m[0][0] + A->m[1][1] + A->m[2][2]; }
LK_INLINE int lk_m3_isfinite(const lk_mat3 *A) {
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++)
      if (!isfinite(A->m[i][j])) return 0;
  return 1;
}

/* Inverse of a general 3x3 matrix; returns 0 (and leaves *out untouched)
 * when |det| <= tiny relative to the entries. */
int lk_m3_inverse(const lk_mat3 *A, lk_mat3 *out);

/* Eigen-decomposition of a symmetric matrix: A = V diag(evals) V^T with
 * evals ascending and V a proper rotation (det +1). Jacobi rotations. */
void lk_m3_sym_eigen(const lk_mat3 *A, lk_vec3 *evals, lk_mat3 *V);

/* Nearest rotation (polar factor) to a near-orthogonal matrix. */
lk_mat3 lk_m3_orthonormalize(const lk_mat3 *A);

/* Rotation about a unit axis by an angle (Rodrigues). */
lk_mat3 lk_m3_from_axis_angle(lk_vec3 axis, double angle);

/* URDF/ROS roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll). */
lk_mat3 lk_m3_from_rpy(double roll, double pitch, double yaw);
void lk_m3_to_rpy(const lk_mat3 *R, double *roll, double *pitch, double *yaw);

/* ---------------------------------------------------------- quaternion */

LK_INLINE lk_quat lk_q(double w, double x, double y, double z) {
  lk_quat r = {w, x, y, z};
  return r;
}
LK_INLINE lk_quat lk_q_identity(void) { return lk_q(1, 0, 0, 0); }
/* Hamilton product a * b (apply b, then a). */
LK_INLINE lk_quat lk_q_mul(lk_quat a, lk_quat b) {
  return lk_q(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
              a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
LK_INLINE lk_quat lk_q_conj(lk_quat a) { return lk_q(a.w, -a.x, -a.y, -a.z); }
LK_INLINE double lk_q_norm(lk_quat a) { return sqrt(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z); }
/* a / |a|; the identity when |a| == 0 or not finite. */
LK_INLINE lk_quat lk_q_normalize(lk_quat a) {
  double n = lk_q_norm(a);
  if (!(n > 0) || !isfinite(n)) return lk_q_identity();
  return lk_q(a.w / n, a.x / n, a.y / n, a.z / n);
}
LK_INLINE lk_vec3 lk_q_vec(lk_quat a) { return lk_v3(a.x, a.y, a.z); }
/* Rotate v by the unit quaternion q: q v q*. */
LK_INLINE lk_vec3 lk_q_rotate(lk_quat q, lk_vec3 v) {
  lk_vec3 u = lk_q_vec(q);
  lk_vec3 t = lk_v3_scale(lk_v3_cross(u, v), 2.0);
  return lk_v3_add(lk_v3_add(v, lk_v3_scale(t, q.w)), lk_v3_cross(u, t));
}
LK_INLINE lk_mat3 lk_q_to_mat3(lk_quat q) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  lk_mat3 r = {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
  return r;
}
/* Unit quaternion of a rotation matrix (Shepperd's method), w >= 0. */
lk_quat lk_q_from_mat3(const lk_mat3 *R);
lk_quat lk_q_from_axis_angle(lk_vec3 axis, double angle);
lk_quat lk_q_from_rpy(double roll, double pitch, double yaw);
/* Exponential map: the rotation by |phi| about phi/|phi| (phi a rotation
 * vector). Accurate near phi = 0. */
lk_quat lk_q_exp(lk_vec3 phi);
/* Logarithm: the rotation vector of a unit quaternion, angle in [0, pi]. */
lk_vec3 lk_q_log(lk_quat q);
/* q advanced by a constant angular velocity omega over time h.
 * _world: omega in the frame q is expressed in (q' = exp(h omega) q);
 * _body: omega in the rotated frame (q' = q exp(h omega)). Normalized. */
lk_quat lk_q_integrate_world(lk_quat q, lk_vec3 omega, double h);
lk_quat lk_q_integrate_body(lk_quat q, lk_vec3 omega, double h);

/* ----------------------------------------------------------- transform */

LK_INLINE lk_transform lk_tf_identity(void) {
  lk_transform t = {lk_m3_identity(), {0, 0, 0}};
  return t;
}
LK_INLINE lk_transform lk_tf(const lk_mat3 *R, lk_vec3 p) {
  lk_transform t = {*R, p};
  return t;
}
LK_INLINE lk_vec3 lk_tf_point(const lk_transform *T, lk_vec3 x) {
  return lk_v3_add(lk_m3_mulv(&T->R, x), T->p);
}
LK_INLINE lk_vec3 lk_tf_inv_point(const lk_transform *T, lk_vec3 x) {
  return lk_m3_tmulv(&T->R, lk_v3_sub(x, T->p));
}
LK_INLINE lk_vec3 lk_tf_dir(const lk_transform *T, lk_vec3 d) { return lk_m3_mulv(&T->R, d); }
LK_INLINE lk_vec3 lk_tf_inv_dir(const lk_transform *T, lk_vec3 d) {
  return lk_m3_tmulv(&T->R, d);
}
/* a * b: pose of C in A from the pose of B in A (a) and of C in B (b). */
LK_INLINE lk_transform lk_tf_mul(const lk_transform *a, const lk_transform *b) {
  lk_transform r;
  r.R = lk_m3_mul(&a->R, &b->R);
  r.p = lk_tf_point(a, b->p);
  return r;
}
LK_INLINE lk_transform lk_tf_inverse(const lk_transform *a) {
  lk_transform r;
  r.R = lk_m3_transpose(&a->R);
  r.p = lk_v3_neg(lk_m3_mulv(&r.R, a->p));
  return r;
}
/* a^-1 * b */
LK_INLINE lk_transform lk_tf_inv_mul(const lk_transform *a, const lk_transform *b) {
  lk_transform r;
  r.R = lk_m3_tmul(&a->R, &b->R);
  r.p = lk_tf_inv_point(a, b->p);
  return r;
}

/* -------------------------------------------------------------- spatial */

LK_INLINE lk_motion lk_mo(lk_vec3 ang, lk_vec3 lin) {
  lk_motion r = {ang, lin};
  return r;
}
LK_INLINE lk_force lk_fo(lk_vec3 ang, lk_vec3 lin) {
  lk_force r = {ang, lin};
  return r;
}
LK_INLINE lk_motion lk_mo_zero(void) { return lk_mo(lk_v3_zero(), lk_v3_zero()); }
LK_INLINE lk_force lk_fo_zero(void) { return lk_fo(lk_v3_zero(), lk_v3_zero()); }
LK_INLINE lk_motion lk_mo_add(lk_motion a, lk_motion b) {
  return lk_mo(lk_v3_add(a.ang, b.ang), lk_v3_add(a.lin, b.lin));
}
LK_INLINE lk_motion lk_mo_sub(lk_motion a, lk_motion b) {
  return lk_mo(lk_v3_sub(a.ang, b.ang), lk_v3_sub(a.lin, b.lin));
}
LK_INLINE lk_motion lk_mo_scale(lk_motion a, double s) {
  return lk_mo(lk_v3_scale(a.ang, s), lk_v3_scale(a.lin, s));
}
/* a + s b */
LK_INLINE lk_motion lk_mo_madd(lk_motion a, lk_motion b, double s) {
  return lk_mo(lk_v3_madd(a.ang, b.ang, s), lk_v3_madd(a.lin, b.lin, s));
}
LK_INLINE lk_force lk_fo_add(lk_force a, lk_force b) {
  return lk_fo(lk_v3_add(a.ang, b.ang), lk_v3_add(a.lin, b.lin));
}
LK_INLINE lk_force lk_fo_sub(lk_force a, lk_force b) {
  return lk_fo(lk_v3_sub(a.ang, b.ang), lk_v3_sub(a.lin, b.lin));
}
LK_INLINE lk_force lk_fo_scale(lk_force a, double s) {
  return lk_fo(lk_v3_scale(a.ang, s), lk_v3_scale(a.lin, s));
}
LK_INLINE lk_force lk_fo_madd(lk_force a, lk_force b, double s) {
  return lk_fo(lk_v3_madd(a.ang, b.ang, s), lk_v3_madd(a.lin, b.lin, s));
}
/* The power pairing m . f = omega . n + v . f. */
LK_INLINE double lk_mo_dot_fo(lk_motion m, lk_force f) {
  return lk_v3_dot(m.ang, f.ang) + lk_v3_dot(m.lin, f.lin);
}
/* crm(a) b = a x b for motions: (w x bw, w x bv + v x bw). */
LK_INLINE lk_motion lk_mo_cross_mo(lk_motion a, lk_motion b) {
  return lk_mo(lk_v3_cross(a.ang, b.ang),
               lk_v3_add(lk_v3_cross(a.ang, b.lin), lk_v3_cross(a.lin, b.ang)));
}
/* crf(a) f = a x* f: (w x n + v x f, w x f). crf(a) = -crm(a)^T. */
LK_INLINE lk_force lk_mo_cross_fo(lk_motion a, lk_force f) {
  return lk_fo(lk_v3_add(lk_v3_cross(a.ang, f.ang), lk_v3_cross(a.lin, f.lin)),
               lk_v3_cross(a.ang, f.lin));
}

/* A motion of frame B expressed in frame A (T = pose of B in A). */
LK_INLINE lk_motion lk_tf_motion(const lk_transform *T, lk_motion m) {
  lk_vec3 w = lk_m3_mulv(&T->R, m.ang);
  return lk_mo(w, lk_v3_add(lk_m3_mulv(&T->R, m.lin), lk_v3_cross(T->p, w)));
}
/* A motion in frame A expressed in frame B (inverse of lk_tf_motion). */
LK_INLINE lk_motion lk_tf_inv_motion(const lk_transform *T, lk_motion m) {
  return lk_mo(lk_m3_tmulv(&T->R, m.ang),
               lk_m3_tmulv(&T->R, lk_v3_sub(m.lin, lk_v3_cross(T->p, m.ang))));
}
/* A force in frame B expressed in frame A. */
LK_INLINE lk_force lk_tf_force(const lk_transform *T, lk_force f) {
  lk_vec3 fl = lk_m3_mulv(&T->R, f.lin);
  return lk_fo(lk_v3_add(lk_m3_mulv(&T->R, f.ang), lk_v3_cross(T->p, fl)), fl);
}
/* A force in frame A expressed in frame B. */
LK_INLINE lk_force lk_tf_inv_force(const lk_transform *T, lk_force f) {
  return lk_fo(lk_m3_tmulv(&T->R, lk_v3_sub(f.ang, lk_v3_cross(T->p, f.lin))),
               lk_m3_tmulv(&T->R, f.lin));
}

/* ------------------------------------------------------------ inertia */

LK_INLINE lk_inertia lk_inertia_zero(void) {
  lk_inertia r = {0, {0, 0, 0}, {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}}};
  return r;
}
/* From mass, centre of mass c and rotational inertia about c (all in the
 * same frame). */
LK_INLINE lk_inertia lk_inertia_from_com(double m, lk_vec3 c, const lk_mat3 *Ic) {
  lk_inertia r;
  r.m = m;
  r.h = lk_v3_scale(c, m);
  double c2 = lk_v3_norm2(c);
  lk_mat3 par = lk_m3_outer(c, c);
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++)
      r.I.m[i][j] = Ic->m[i][j] + m * ((i == j ? c2 : 0.0) - par.m[i][j]);
  return r;
}
/* I v: (I omega + h x v, m v - h x omega). */
LK_INLINE lk_force lk_inertia_mul(const lk_inertia *I, lk_motion v) {
  return lk_fo(lk_v3_add(lk_m3_mulv(&I->I, v.ang), lk_v3_cross(I->h, v.lin)),
               lk_v3_sub(lk_v3_scale(v.lin, I->m), lk_v3_cross(I->h, v.ang)));
}
LK_INLINE lk_inertia lk_inertia_add(const lk_inertia *a, const lk_inertia *b) {
  lk_inertia r;
  r.m = a->m + b->m;
  r.h = lk_v3_add(a->h, b->h);
  r.I = lk_m3_add(&a->I, &b->I);
  return r;
}
/* An inertia given in frame B expressed in frame A (T = pose of B in A). */
LK_INLINE lk_inertia lk_tf_inertia(const lk_transform *T, const lk_inertia *Ib) {
  lk_inertia r;
  lk_vec3 hr = lk_m3_mulv(&T->R, Ib->h); /* first moment, rotated */
  lk_vec3 p = T->p;
  lk_mat3 Ir = lk_m3_rotate_tensor(&T->R, &Ib->I);
  double s = 2.0 * lk_v3_dot(hr, p) + Ib->m * lk_v3_norm2(p);
  lk_mat3 a = lk_m3_outer(hr, p), b = lk_m3_outer(p, hr), c = lk_m3_outer(p, p);
  LK_UNROLL3 for (int i = 0; i < 3; i++)
    LK_UNROLL3 for (int j = 0; j < 3; j++)
      r.I.m[i][j] =
          Ir.m[i][j] + (i == j ? s : 0.0) - (a.m[i][j] + b.m[i][j] + Ib->m * c.m[i][j]);
  r.m = Ib->m;
  r.h = lk_v3_madd(hr, p, Ib->m);
  return r;
}
/* Kinetic energy 1/2 v . I v. */
LK_INLINE double lk_inertia_energy(const lk_inertia *I, lk_motion v) {
  return 0.5 * lk_mo_dot_fo(v, lk_inertia_mul(I, v));
}

/* Rotational inertia about the centre of mass of solid primitives, in their
 * own frames (the cylinder and capsule axes along z). */
lk_mat3 lk_inertia_solid_box(double mass, lk_vec3 half_extents);
lk_mat3 lk_inertia_solid_sphere(double mass, double radius);
lk_mat3 lk_inertia_solid_cylinder(double mass, double radius, double half_length);
/* A cylinder of half length L with hemispherical caps of the same radius. */
lk_mat3 lk_inertia_solid_capsule(double mass, double radius, double half_length);

#ifdef __cplusplus
}
#endif

#endif
