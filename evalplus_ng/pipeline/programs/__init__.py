"""Program tasks (stdin/stdout): one call per stage (augment, their time limits, audit, MINI,
evaluate) and the augment chain (:mod:`.chain`), the command line's one door to them."""

#: Candidates asked of the generator per task (``--per-task``) and seconds the reference
#: may take on one of them (``--time-limit``): on two cores, CodeContests' 195 tasks with
#: one answer then take about 13 minutes of the references' runs, estimated from their
#: measured times on inputs drawn within the statements' bounds. Here, not in
#: :mod:`.augment`: the command line shows them without importing the chain.
DEFAULT_COUNT = 300
DEFAULT_TIME_LIMIT = 1.0
