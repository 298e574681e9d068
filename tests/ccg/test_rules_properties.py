"""Properties of the card game's rules package (referee/ccg): the notation round-trips, a battle's outcome
follows the Resolution Segment's arithmetic whatever the armies (pp.49-66, C-02, C-09), a duel is decided by
its totals (glossary: duel), and the two packages of rules stay apart."""

from hypothesis import given, settings, strategies as st

from referee.engine import ccg
from referee.engine.ccg.battle import Army, Card, Decision, Step, Unit

TITLE = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz '", min_size=1, max_size=12).map(
    lambda s: " ".join(s.split()) or "X"
)
CARD = st.one_of(
    st.builds(Card, TITLE, st.one_of(st.none(), st.integers(0, 9)), st.booleans(), st.none()),
    st.builds(Card, TITLE, st.integers(-4, 4), st.just(False), st.none(), st.just(True)),  # an Item's modifier
)
PERSONALITY = st.builds(Card, TITLE, st.integers(0, 9), st.booleans(), st.one_of(st.none(), st.integers(0, 5)))
UNIT = st.builds(lambda p, rest: Unit((p, *rest)), PERSONALITY, st.lists(CARD, max_size=3))
ARMY = st.builds(lambda units: Army(tuple(units)), st.lists(UNIT, max_size=3))


@settings(max_examples=200, deadline=None)
@given(ARMY, ARMY, st.integers(1, 4), st.one_of(st.none(), st.integers(0, 9)))
def test_a_battle_line_round_trips(attacking, defending, province, strength):
    event = ccg.BattleFought(province, attacking, defending, strength)
    assert ccg.parse_event(ccg.format_event(event)) == event


def _force(unit: Unit) -> int:
    """C-09: unbowed Personalities and Followers; C-08: the Personality's Force with his Items' modifiers,
    and a Follower's, each at least 0."""
    p, rest = unit.cards[0], unit.cards[1:]
    own = 0 if p.bowed else max((p.force or 0) + sum(c.force or 0 for c in rest if c.item), 0)
    return own + sum(max(c.force or 0, 0) for c in rest if not c.item and not c.bowed)


@settings(max_examples=300, deadline=None)
@given(ARMY, ARMY, st.integers(0, 9))
def test_battle_arithmetic(attacking, defending, strength):
    out = ccg.resolve_battle(attacking, defending, province=1, strength=strength)
    a, d = out.attacker_force, out.defender_force
    assert a == sum(_force(u) for u in attacking.units)  # C-09, C-08
    assert out.province_destroyed == (out.decision is Decision.ATTACKER and a > d + strength)
    if a == d and (attacking.empty or defending.empty):
        assert out.decision is Decision.NONE and out.effects == ()
    elif a == d:
        assert out.decision is Decision.TIE
    else:
        assert out.decision is (Decision.ATTACKER if a > d else Decision.DEFENDER)
    steps = [e.step for e in out.effects]
    assert steps == sorted(steps, key=[Step.ARMY_DESTROYED, Step.PROVINCE_DESTROYED, Step.HONOR_GAINED].index)  # C-02
    if out.decision in (Decision.ATTACKER, Decision.DEFENDER):
        won, lost = (attacking, defending) if out.decision is Decision.ATTACKER else (defending, attacking)
        gained = sum(e.honor for e in out.effects if e.step is Step.HONOR_GAINED)
        assert gained == (0 if won.dishonorable() else 2 * lost.cards())
        # glossary: dishonor: rehonored only when the gain would have been one or more points
        assert bool(out.rehonored) == bool(won.dishonorable() and lost.cards())
        assert out.cards_destroyed("defender" if won is attacking else "attacker") == lost.cards()


@settings(max_examples=300, deadline=None)
@given(
    st.integers(-3, 9),
    st.lists(st.integers(-2, 5), max_size=4),
    st.integers(-3, 9),
    st.lists(st.integers(-2, 5), max_size=4),
    st.booleans(),
    st.booleans(),
)
def test_duel_order_and_totals(chi_a, focus_a, chi_b, focus_b, duelist_a, duelist_b):
    """glossary: duel (step 2, step 4) and duelist: the one with the first option focused as many cards as
    the other or one more (a Duelist who has it, at least one), else the record is refused; the totals, each
    value read at least 0 (C-08), decide."""
    a = ccg.Duelist("alice", "A", chi_a, tuple(focus_a), duelist=duelist_a)
    b = ccg.Duelist("bob", "B", chi_b, tuple(focus_b), duelist=duelist_b)
    duelist_first = duelist_a and not duelist_b and max(chi_b, 0) >= max(chi_a, 0)
    first, second = (focus_a, focus_b) if duelist_first else (focus_b, focus_a)
    possible = len(first) - len(second) in (0, 1) and (len(first) >= 1 or not duelist_first)
    possible = possible and max(len(focus_a), len(focus_b)) <= 3  # no card focused from the hand here
    try:
        out = ccg.resolve_duel(a, b)
    except ccg.Refused:
        assert not possible
        return
    assert possible
    ta = max(chi_a, 0) + sum(max(v, 0) for v in focus_a)
    tb = max(chi_b, 0) + sum(max(v, 0) for v in focus_b)
    assert out.winner == (None if ta == tb else "alice" if ta > tb else "bob")
    assert out.first == ("alice" if duelist_first else "bob")
    other = "bob" if duelist_first else "alice"
    turns = [p for k in range(4) for p, f in ((out.first, first), (other, second)) if k < len(f)]
    assert [s.player for s in out.steps if s.act != "strikes"] == turns
    line = ccg.format_event(ccg.DuelFought(a, b))
    assert ccg.parse_event(line) == ccg.DuelFought(a, b)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["alice", "bob"]), st.integers(-15, 15)), min_size=1, max_size=12))
def test_dishonor_ends_the_match_at_once_and_nothing_follows(changes):
    match = ccg.new_match(
        (ccg.parse_player("alice: honor 0, strength 5, gold 5"), ccg.parse_player("bob: honor -1, strength 5, gold 5"))
    )
    for player, delta in changes:
        before = match
        try:
            match, _ = ccg.apply(match, ccg.HonorChanged(((player, delta),), "an effect", correction=True))
        except ccg.Refused:
            assert before.over
            break
        assert before.players != match.players or delta == 0  # a new value, the old one untouched
        if any(p.honor <= -20 for p in match.players):
            assert match.result is not None and match.result.victory == ccg.Victory.DISHONOR
