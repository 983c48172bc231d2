"""Redis: where every game, account and counter lives, and the scripts that change them.

The key layout is :mod:`.keys` (and :mod:`.accounts` for accounts); a game as stored is
:mod:`.record`; every change to a game is one compare-and-set script (:mod:`.scripts`,
committed by :mod:`.store`). Around them: the listing index (:mod:`.listings`), the
change hub that wakes waiting requests (:mod:`.changes`), the archive's compact log
(:mod:`.archive`), settling (:mod:`.settling`), stream tickets (:mod:`.tickets`), the
failed-login and rate counters, slot buckets (:mod:`.slots`), and what a Redis failure
means (:mod:`.redis_errors`). It knows no HTTP and no rule of the table.
"""
