/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_print.h - text renderings of hist triggers: the trigger listing
 * line exactly as Linux 6.12 prints it (the `trigger` file and the
 * "# trigger info:" line of `hist`), the re-rendered text of expressions
 * (which is also their name), and a debug dump of the syntax tree.
 */
#ifndef _KHIST_CORE_HIST_PRINT_H
#define _KHIST_CORE_HIST_PRINT_H

#include "core_env.h"
#include "hist_bind.h"
#include <khist/out.h>

const char *khist_hist_flags_str(u32 flags);
void khist_bfield_render(struct khist_out *s, const struct khist_bfield *f);
void khist_bfield_print(struct khist_out *s, const struct khist_bfield *f);
int khist_hist_print(const struct khist_hist_spec *spec, bool paused, char *buf,
		     size_t size);

#endif /* _KHIST_CORE_HIST_PRINT_H */
