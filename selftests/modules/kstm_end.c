// SPDX-License-Identifier: GPL-2.0
/*
 * kstm_end.c - the last pointer of khist_core_test.ko's suite section.
 * Linked last, after every suite, so the suites lie between
 * kstm_run.c's first pointer and this one.
 */
#include <linux/compiler.h>
#include "kunit_kstm.h"

struct kunit_suite *const kstm_last __used __section("khist_kstm") = NULL;
