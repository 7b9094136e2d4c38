#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - what selftests/tpgen/guest.sh needs in the VM image:
# busybox provides awk, cmp, diff and comm; nothing else to add.
exit 0
