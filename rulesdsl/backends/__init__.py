"""Output backends for rulesdsl."""
