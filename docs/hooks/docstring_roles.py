"""MkDocs hook: Sphinx cross-reference roles in docstrings read as plain code.

The project's docstrings name objects the reStructuredText way (``:class:`Budget```); rendered as
Markdown by mkdocstrings that would show the role itself (":class:" before ``Budget``). This
drops the role and keeps the code.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|mod|exc|obj|const):(?=<code>)")


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    """Drop the roles from a rendered page (MkDocs event)."""
    return ROLE.sub("", html)
