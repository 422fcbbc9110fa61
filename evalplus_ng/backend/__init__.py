"""Where sandbox jobs run: the local sandbox pool or a Ray cluster (:mod:`.cluster`), and
what every sandbox hides from the code it runs (:mod:`.executors`)."""
