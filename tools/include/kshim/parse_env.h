/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/parse_env.h - userspace stand-ins needed only by the hist parser.
 *
 * The parser works on (pointer, length) spans and brings its own number
 * parser (khist_parse_u64()), so it needs nothing beyond kshim/kernel.h
 * except the errno below, which some libcs do not define.
 */
#ifndef _KSHIM_PARSE_ENV_H
#define _KSHIM_PARSE_ENV_H

#ifndef ENOTUNIQ
#define ENOTUNIQ 76
#endif

#endif
