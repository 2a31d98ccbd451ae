"""English the native reviewers found wrong was rewritten (issue 41): a move a history stored in
the old words is said in the new ones, in English and in each reader's language, and the list of
changed sentences the reviewers re-key their fragments by names only sentences the catalogs hold."""

from __future__ import annotations

import json

import pytest

from companion import i18n
from companion.rules.stored_sentences import load


def _stored(sentence: str, **params) -> str:
    return json.dumps({"sentence": sentence, "params": params}, ensure_ascii=False)


@pytest.mark.parametrize(
    "old, params, said",
    [
        (
            "%(member)s voted for %(team)s.",
            {"member": "Ala", "team": "Ola"},  # a team's name as the game stores it: as typed
            {"en": "Ala of Ola voted.", "fr": "Ala, de l'équipe Ola, a voté."},
        ),
        (
            "The referee ended the game here.",
            {},
            {
                "en": "The referee ended the game.",
                "fr": "L'arbitre a terminé la partie.",
                "pl": "Sędzia kończy grę.",
            },
        ),
        (
            "The referee ended the game here; %(number)s went back face down.",
            {"number": 30},
            {"en": "The referee ended the game; 30 went back face down."},
        ),
        (
            "%(name)s held",
            {"name": "Player 2"},
            {"en": "Player 2 repelled the attack", "fr": "Joueur 2 a repoussé l'attaque"},
        ),
    ],
)
def test_a_sentence_stored_in_the_old_english_is_said_in_the_new(old, params, said):
    sentence = load(_stored(old, **params))
    assert {lang: i18n.say(sentence, lang) if lang != "en" else str(sentence) for lang in said} == said
