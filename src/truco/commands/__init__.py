"""The entry points: what runs the rules, not the rules (those are the top-level modules).

===============  ==========================================================================
module           what it holds
===============  ==========================================================================
``cli``          the ``truco`` command: every subcommand and its arguments
``arena``        duplicate matches between bots, with Wilson intervals and ratings
``bench``        ``truco bench``: the engine's random self-play speed
``verify``       ``truco verify``: a record's deals checked against their commitments
===============  ==========================================================================

``python -m truco`` runs the ``truco`` command too.
"""
