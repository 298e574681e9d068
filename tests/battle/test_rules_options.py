"""The rules options of the rulings (referee/data/rulings.md): typed, with the documented defaults, round-tripping
to the log."""

import pytest

from referee.engine.model.options import HarborNavy, RulesOptions, Tiebreak


def test_documented_defaults():
    o = RulesOptions()
    assert o.crab_faceup_bonus == 2
    assert o.defense_on_cancelled_attack is True
    assert o.humility_ties is True  # R-24a
    assert o.tiebreak == Tiebreak.TERRITORIES_THEN_PROVINCES
    assert o.control_supply_limit is False
    assert o.harbor_navy == HarborNavy.SEA_OR_LAND_BORDER  # R-20, referee reading
    assert o.emerald_any_connected is False  # R-24a
    assert o.defense_on_discarded_attack is False  # R-17b


def test_round_trip_through_a_plain_mapping():
    o = RulesOptions(crab_faceup_bonus=3, tiebreak=Tiebreak.SHARED, humility_ties=False)
    assert RulesOptions.from_dict(o.to_dict()) == o
    assert o.to_dict()["tiebreak"] == "shared"


def test_text_values_are_typed():
    o = RulesOptions.from_dict({"humility_ties": "off", "crab_faceup_bonus": "3", "harbor_navy": "sea_only"})
    assert o.humility_ties is False and o.crab_faceup_bonus == 3 and o.harbor_navy == HarborNavy.SEA_ONLY


@pytest.mark.parametrize(
    "raw, says",
    [
        ({"crab_bonus": 2}, "unknown rules option 'crab_bonus'"),
        ({"humility_ties": "maybe"}, "humility_ties: 'maybe' is not a valid value"),
        ({"tiebreak": "coin"}, "tiebreak: 'coin' is not a valid value"),
    ],
)
def test_bad_options_are_refused_with_their_name(raw, says):
    with pytest.raises(ValueError, match=says):
        RulesOptions.from_dict(raw)
