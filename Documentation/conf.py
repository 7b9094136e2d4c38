# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of khist's manual: `make htmldocs` builds it into
# build/htmldocs with warnings as errors. Only what Debian's python3-sphinx
# ships is used (no extension, a built-in theme), and nothing is fetched.

import os

project = 'khist'
author = 'the khist authors'
copyright = 'the khist authors, GPL-2.0'

_top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    with open(os.path.join(_top, 'VERSION')) as f:
        release = f.readline().strip()
except OSError:
    release = ''
version = release

extensions = []
root_doc = 'index'
master_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
exclude_patterns = []
language = 'en'

# The texts quote commands: keep ASCII quotes and dashes as written.
smartquotes = False
highlight_language = 'none'

html_theme = 'classic'
html_title = 'khist ' + release
html_static_path = []
# The hist_json schema is published beside the pages.
html_extra_path = ['hist_json.schema.json']
html_show_sourcelink = False
html_last_updated_fmt = None
