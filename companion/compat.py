"""The one place Castellan leans on another library's private behaviour, each kept for a measured gain.

Every name here is checked by tests/test_compat.py, which fails first and clearly when the library
changes what is relied on; the library is pinned to its tested minor series in pyproject.toml.
docs/architecture.md ("Borrowed internals") gives each one's gain in ``make bench``.
"""

from __future__ import annotations

import markupsafe

# markupsafe's C escaper of a str, without the Markup object ``escape`` wraps around it: a table
# page escapes a few hundred names and numbers. Falls back to the public ``escape``.
escape_text = getattr(markupsafe, "_escape_inner", None) or (lambda text: str(markupsafe.escape(text)))
