/* SPDX-License-Identifier: GPL-2.0 */
/* kshim/parse_env.h - userspace stand-ins needed only by the parse code. */
#ifndef _KSHIM_PARSE_ENV_H
#define _KSHIM_PARSE_ENV_H

#endif
