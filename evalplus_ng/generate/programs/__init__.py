"""Program tasks (stdin/stdout): their input planner (the grammar of a task's stdin, the facts
its examples show, what its statement says) and their LLM generators and validators."""
