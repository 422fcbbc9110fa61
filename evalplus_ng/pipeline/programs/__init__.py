"""Program tasks (stdin/stdout): one call per stage (augment, their time limits, audit, MINI,
evaluate) and the augment chain (:mod:`.chain`), the command line's one door to them."""
