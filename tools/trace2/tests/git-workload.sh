#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# git-workload.sh DIR - the Git workload of the khist-trace2 tests: init,
# 40 files, add, commits on two branches, a merge, status with an
# untracked file, an alias, log, diff, gc, a clone and a fetch over a
# local path, and two failing commands. The caller sets GIT_TRACE2_EVENT.
# Works in DIR with its own HOME (no system or user config is read).
set -u
d=$1
mkdir -p "$d/home"
export HOME="$d/home" GIT_CONFIG_NOSYSTEM=1 LANG=C LC_ALL=C \
	GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a \
	GIT_COMMITTER_EMAIL=a@b GIT_TRACE2_EVENT_NESTING=100 \
	GIT_TRACE2_CONFIG_PARAMS='core.*,user.*'
unset GIT_DIR GIT_WORK_TREE
git config --global init.defaultBranch main
git config --global alias.st status
git config --global gc.auto 0
cd "$d" || exit 1
git init -q src
cd src || exit 1
i=0
while [ $i -lt 40 ]; do
	echo "line $i" >"f$i.txt"
	i=$((i + 1))
done
git add .
git commit -q -m "first commit"
git checkout -q -b side
echo side >>f1.txt
git commit -q -am side
git checkout -q main
echo main >>f2.txt
git commit -q -am "main two"
git merge -q --no-edit side
echo untracked >new.txt
git status >/dev/null
git st >/dev/null
git log --oneline >/dev/null
git diff HEAD~1 >/dev/null
git gc -q
cd "$d" || exit 1
git clone -q "file://$d/src" dst
cd src || exit 1
echo more >>f3.txt
git commit -q -am more
cd "$d/dst" || exit 1
git fetch -q origin
git rev-parse --verify nope >/dev/null 2>&1
git nosuchcmd >/dev/null 2>&1
exit 0
