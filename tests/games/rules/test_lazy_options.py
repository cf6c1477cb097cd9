"""Options are computed only when they are asked for (issue 18).

Replaying a log applies every logged action: each is checked on its own branch of the rules
(``State._match``), and the forced steps after it need at most two options, so a replay of any
playthrough of the conformance suite never lists a decision's actions. (A game that keeps the
default ``_match``, which looks an action up in the listing, would fail this; the four games
here check actions directly.)
"""

from __future__ import annotations

from tests.games.rules.test_conformance import (
    EVERY_STEP_GAMES,
    all_views,
    playthroughs,
    replay,
    rules,  # noqa: F401  (the fixture, shared)
)


def test_replaying_a_log_never_lists_the_legal_actions(rules, monkeypatch):
    records = playthroughs(rules.spec.slug, rules.spec.version)[:EVERY_STEP_GAMES]

    def listed(self):
        raise AssertionError("the legal actions were listed during a replay")

    monkeypatch.setattr(rules.State, "legal_actions", listed)
    monkeypatch.setattr(rules.State, "_legal_actions", listed)
    for record in records:
        for step, state in replay(rules, record):
            if step in record.views:
                assert all_views(state) == record.views[step], f"{record.seed} step {step}"
