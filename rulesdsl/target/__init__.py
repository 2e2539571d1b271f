"""The Python module target: the IR as a standalone Python module (rulesdsl build's python/)."""
