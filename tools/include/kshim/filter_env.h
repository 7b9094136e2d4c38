/* SPDX-License-Identifier: GPL-2.0 */
/* kshim/filter_env.h - userspace stand-ins needed only by the filter code. */
#ifndef _KSHIM_FILTER_ENV_H
#define _KSHIM_FILTER_ENV_H

#endif
