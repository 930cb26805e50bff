"""The terminal game (``truco play``): a Textual app in which a person plays the bots.

The modules that do not draw (:mod:`~truco.tui.i18n` the words in Spanish, English and
Valencian, :mod:`~truco.tui.narrate` the log and the hand summaries, :mod:`~truco.tui.steps` a
record step by step, :mod:`~truco.tui.command` the options, :mod:`~truco.tui.saved` saved and
resumed games) use only the standard library, the rules core and the bots, so ``truco`` works
without the ``tui`` extra; :mod:`~truco.tui.widgets`, :mod:`~truco.tui.dialogs` (the windows
over the table), :mod:`~truco.tui.app` (the game) and :mod:`~truco.tui.review` need Textual.

Everything the person sees is built from the :class:`~truco.observation.Observation` of their
seat (docs/rules.md §10); only the review of a finished record may show every card.
"""
