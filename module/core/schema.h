/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schema.h - the record layout vocabulary, for the core's files: it lives
 * in the public <khist/schema.h>, type-only, which module authors reach
 * through <khist/event.h>.
 */
#ifndef _KHIST_CORE_SCHEMA_H
#define _KHIST_CORE_SCHEMA_H

#include "core_env.h"
#include <khist/schema.h>

#endif /* _KHIST_CORE_SCHEMA_H */
