/* SPDX-License-Identifier: GPL-2.0 */
/*
 * khist/define_event.h - included at the end of an event header. In the
 * .c file that defines KHIST_CREATE_EVENTS before including the header,
 * it reads the header once per stage (include/khist/stages/) to generate
 * everything the events need. KHIST_INCLUDE_FILE names the header (as an
 * #include argument), KHIST_SYSTEM the event system.
 */
#ifdef KHIST_CREATE_EVENTS
#undef KHIST_CREATE_EVENTS

#ifndef KHIST_INCLUDE_FILE
#error "define KHIST_INCLUDE_FILE to the event header before including it"
#endif

#define KHIST_HEADER_MULTI_READ

#include <khist/stages/stage1_struct.h>
#include <khist/stages/stage2_fields.h>
#include <khist/stages/stage3_layout.h>
#include <khist/stages/stage4_probe.h>
#include <khist/stages/stage5_print.h>
#include <khist/stages/stage6_defs.h>

#include <khist/stages/reset.h>
#include <khist/stages/stage0_decl.h>

#undef KHIST_HEADER_MULTI_READ
#define KHIST_CREATE_EVENTS
#endif
