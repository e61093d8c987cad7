/* Linkage: articulated multibody dynamics with complementarity contact.
 * The umbrella header: includes every public layer. */
#ifndef LINKAGE_LINKAGE_H
#define LINKAGE_LINKAGE_H

#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"
#include "linkage/data.h"
#include "linkage/dynamics.h"
#include "linkage/collision.h"
#include "linkage/lcp.h"
#include "linkage/constraint.h"
#include "linkage/sim.h"
#include "linkage/statics.h"
#include "linkage/io.h"
#include "linkage/grasp.h"

#endif
