"""Code generation: the module plan and one emitter per target language."""
