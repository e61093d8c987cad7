/* Collision detection: contact manifolds between the model's geoms, and
 * contacts that persist from one pass to the next.
 *
 * Conventions (every function here)
 * - A contact between shapes a and b has a world position midway between
 *   the two surfaces, a unit normal pointing FROM b TO a (moving a along
 *   the normal separates the pair), and a depth that is positive when the
 *   shapes overlap and negative when they are apart by less than the
 *   margin (a "near" contact, for speculative or drift handling). The
 *   point of a's surface is pos - normal depth/2, b's is pos + normal
 *   depth/2.
 * - A manifold has 1 to LK_MANIFOLD_MAX points: up to 4 for face contact
 *   (box on plane, box on box, cylinder flat on a plane or a box), 2 for a
 *   line contact (a capsule or a cylinder lying on a surface), 1 otherwise.
 * - Every point has a feature id, unique within its manifold, naming the
 *   pair of features (corner, edge, face, cap...) it comes from, so the
 *   same contact can be recognised in the next pass.
 *
 * In a model (lk_collide), geom b is the geom on the link of lower index
 * (so world geoms are always b, and a body resting on the floor has a
 * normal pointing up out of the floor). Contacts are stored in canonical
 * order, by (geom_a, geom_b, feature), never by memory address.
 *
 * Which geom pairs are tested (lk_collide_filter): never two geoms rigidly
 * attached to each other (the same link, or links joined only by fixed
 * joints, the world included); never a plane against a plane; a pair needs
 * (a.group & b.mask) && (b.group & a.mask), or either of the two under
 * options.collision_filter LK_FILTER_EITHER (MuJoCo's contype/conaffinity
 * rule, which the MJCF reader sets); never a pair of links excluded in the
 * model (lk_model_add_exclude, MJCF's <contact><exclude>); and a link does not collide
 * with its parent link unless the child's geom sets collide_parent (nor
 * two links joined by a loop closure, unless one of the geoms sets it). A free
 * joint connects nothing, so a floating body always collides with the
 * world. (Parent and child are taken after merging links welded by fixed
 * joints.)
 *
 * Algorithms: closed forms for everything involving a plane, a sphere or a
 * capsule and for box-box (separating-axis test with reference-face
 * clipping); GJK distance and EPA penetration depth for the pairs of a
 * cylinder with a capsule, a box or a cylinder. Broad phase: AABBs, sorted
 * and swept in slabs (see lib/collision/broadphase.c). */
#ifndef LINKAGE_COLLISION_H
#define LINKAGE_COLLISION_H

#include <stdint.h>

#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ pure geometry */

#define LK_MANIFOLD_MAX 4

typedef struct {
  lk_vec3 pos;      /* world, midway between the surfaces */
  lk_vec3 normal;   /* unit, from shape b to shape a */
  double depth;     /* > 0 overlapping, < 0 apart (within the margin) */
  unsigned feature; /* unique within the manifold; stable across passes */
} lk_contact_point;

typedef struct {
  int n; /* 0 (apart by more than the margin) .. LK_MANIFOLD_MAX */
  lk_contact_point pt[LK_MANIFOLD_MAX]; /* in increasing feature order */
} lk_manifold;

/* The contact manifold of two shapes given by type, size (as in
 * lk_geom_spec) and world pose. Points are reported when depth >= -margin
 * (margin >= 0). Sizes must be positive and finite (a capsule's half length
 * may be 0), poses finite with a rotation matrix: otherwise
 * LK_INVALID_ARGUMENT / LK_NON_FINITE and out->n = 0. Two planes give no
 * contact (their intersection is unbounded). Swapping a and b gives the
 * same points with the normals negated (and possibly other feature ids). */
lk_status lk_collide_geoms(lk_geom_type type_a, const double size_a[3], const lk_transform *pose_a,
                           lk_geom_type type_b, const double size_b[3], const lk_transform *pose_b,
                           double margin, lk_manifold *out, lk_error *err);

/* The same for two geoms as specs (type, size, mesh, margin: the larger
 * of the two, a NaN margin - the default, the model's contact_margin in a
 * model - counting as 0), the only way to collide a mesh outside a model. */
lk_status lk_collide_specs(const lk_geom_spec *a, const lk_transform *pose_a,
                           const lk_geom_spec *b, const lk_transform *pose_b, lk_manifold *out,
                           lk_error *err);

/* The world axis-aligned bounding box of a shape, grown by margin on every
 * side. A plane is unbounded: LK_UNSUPPORTED. */
lk_status lk_geom_aabb(lk_geom_type type, const double size[3], const lk_transform *pose,
                       double margin, lk_vec3 *lo, lk_vec3 *hi);

/* ------------------------------------------------- contacts of a data */

/* The friction state of a contact, kept across passes for the constraint
 * layer: a new contact starts static; the constraint layer decides when it
 * slips (dynamic) and when it sticks again. */
typedef enum { LK_FRICTION_STATIC = 0, LK_FRICTION_DYNAMIC = 1 } lk_friction_state;

/* Impulse slots per contact, in the contact frame (normal, t1, t2):
 * [0] normal, [1] [2] tangential along t1, t2, [3] torsional about the
 * normal, [4] [5] rolling about t1, t2. The collision layer only keeps
 * them: when a contact is matched to one of the previous pass, they carry
 * over (the tangent-plane pairs re-expressed in the new tangent frame);
 * a new contact starts at zero. */
#define LK_CONTACT_IMPULSES 6

typedef struct {
  int geom_a, geom_b; /* b is on the link of lower index (see above) */
  int link_a, link_b;
  lk_vec3 pos;        /* world */
  lk_vec3 normal;     /* unit, from b to a */
  lk_vec3 tangent[2]; /* t1, t2: (normal, t1, t2) is a right-handed
                         orthonormal frame; t1 carries over from the matched
                         previous contact (projected onto the new tangent
                         plane), so the frame does not spin */
  double depth;       /* > 0 overlapping, < 0 apart by less than the margin */
  unsigned feature;   /* the manifold's feature id */
  uint64_t id;        /* unique since the data's last reset (from 1); kept
                         while the contact persists */
  int age;            /* consecutive earlier passes it persisted through (0:
                         new) */
  lk_friction_state friction;
  double impulse[LK_CONTACT_IMPULSES];
} lk_contact;

/* Collide every pair of the model's geoms at the data's current link poses
 * (run lk_forward_kinematics first: LK_INVALID_ARGUMENT otherwise), then
 * match the contacts to those of the previous pass: same (geom_a, geom_b,
 * feature) and a position within a quarter of the smaller geom's bounding
 * radius. Allocates nothing. When more contacts are found than the data
 * holds (options.max_contacts, or the automatic capacity), returns
 * LK_CAPACITY_EXCEEDED: the data then keeps the first ones found (sorted,
 * matched) and lk_data_ncontact_found() says how many there were
 * (lk_step grows the data instead, unless options.max_contacts is set). */
lk_status lk_collide(const lk_model *m, lk_data *d, lk_error *err);

/* Contacts of the last lk_collide, the collision layer's geometry (0 after
 * a reset); their forces after a step are lk_data_ncontacts and
 * lk_data_contact_report (linkage/constraint.h). */
int lk_data_ncollision(const lk_data *d);
/* How many the last pass found (> lk_data_ncollision on overflow). */
int lk_data_ncontact_found(const lk_data *d);
/* Collision contact i in canonical order, or NULL when i is out of range. */
const lk_contact *lk_data_collision(const lk_data *d, int i);
/* Deprecated (issue 33: too close to lk_data_ncontacts and
 * lk_data_contact_report), kept for the 0.1 series: the same as
 * lk_data_ncollision and lk_data_collision. */
int lk_data_ncontact(const lk_data *d);
const lk_contact *lk_data_contact(const lk_data *d, int i);
/* How many contacts a data holds now (lk_step grows it: linkage/sim.h). */
int lk_data_contact_capacity(const lk_data *d);
/* The constraint layer's part of contact i: its friction state and
 * impulses (NULL impulse: leave them), carried to the next pass. */
lk_status lk_data_contact_set_state(lk_data *d, int i, lk_friction_state friction,
                                    const double impulse[LK_CONTACT_IMPULSES]);
/* World pose of a geom at the last lk_collide. */
const lk_transform *lk_data_geom_pose(const lk_data *d, int geom);

/* Work counts of the last pass, for tests and benchmarks. */
typedef struct {
  long long sweep_checks; /* box-overlap checks made by the broad phase */
  int pairs;              /* pairs handed to the narrow phase */
  int new_entries;        /* broad-phase entries not in last pass's order (all
                             of them on a first pass), sorted apart */
  int sort_moves;         /* moves of the insertion sort of the others */
  int full_sorts;         /* 1 when last pass's order was too far off and the
                             insertion sort gave way to a merge sort */
} lk_collision_stats;

void lk_data_collision_stats(const lk_data *d, lk_collision_stats *out);

/* 1 when geoms g1 and g2 of a finalized model may collide (the rules
 * above), 0 when not or when an index is out of range. */
int lk_collide_filter(const lk_model *m, int g1, int g2);

#ifdef __cplusplus
}
#endif

#endif
