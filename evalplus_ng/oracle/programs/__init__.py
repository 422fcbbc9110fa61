"""Program tasks (stdin/stdout): the reference's answers on new inputs, their time limits and
the audit of their expected outputs."""
