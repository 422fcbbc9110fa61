"""Imported at the start of a process a test starts with this folder on ``PYTHONPATH``
(:func:`sandboxmark.variables`): its sandboxes carry the test's marker."""

import sandboxmark

sandboxmark.install()
