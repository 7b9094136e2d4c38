/* SPDX-License-Identifier: GPL-2.0 */
/* kshim/map_env.h - userspace stand-ins needed only by the map code. */
#ifndef _KSHIM_MAP_ENV_H
#define _KSHIM_MAP_ENV_H

#endif
