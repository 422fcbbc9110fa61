"""Program tasks (stdin/stdout): the MINI's requirements (coverage, slip kills) and its set
cover per tier."""
