"""Fate of Akalon: Tribes' protobuf face (``protos/tribes/v1/fate_of_akalon.proto``).

Moves convert both ways one message per move type (spec §5.4); the view is the domain
``View`` (§6) field for field, plus a ``cards`` table with the definition of exactly the
cards that view names. Enum maps and card definitions are built once at import: this
runs for every legal move and every view of every request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tribes.engine import MalformedMoveError
from tribes.games.fate_of_akalon.cards import DEF_OF, INSTANCE, KEY
from tribes.games.fate_of_akalon.data import CARDS
from tribes.games.fate_of_akalon.dsl import Faction
from tribes.games.fate_of_akalon.moves import (
    DECLINE,
    NO,
    YES,
    AkalonMove,
    ChooseCard,
    ChooseFirstAttacker,
    ChooseOpponent,
    ChooseYesNo,
    Decline,
    PlaceOnDiscard,
    PlayCard,
    ResolveTrigger,
)
from tribes.games.fate_of_akalon.state import (
    Decision,
    EffectKind,
    Phase,
    PlayerView,
    Side,
    View,
)
from tribes.v1 import common_pb2 as pb
from tribes.v1 import fate_of_akalon_pb2 as fpb
from tribes.wire import GameWire
from tribes.wire import protowire as pw

# -- enum maps (domain string values -> proto enums) ------------------------------------

_FACTION: dict[str, fpb.FateOfAkalonFaction] = {
    Faction.DWARF.value: fpb.FATE_OF_AKALON_FACTION_DWARF,
    Faction.ELF.value: fpb.FATE_OF_AKALON_FACTION_ELF,
    Faction.ORC.value: fpb.FATE_OF_AKALON_FACTION_ORC,
    Faction.UNDEAD.value: fpb.FATE_OF_AKALON_FACTION_UNDEAD,
}
_MODE: dict[str, fpb.FateOfAkalonMode] = {
    "2p": fpb.FATE_OF_AKALON_MODE_TWO_PLAYERS,
    "3p": fpb.FATE_OF_AKALON_MODE_THREE_PLAYERS,
    "4p": fpb.FATE_OF_AKALON_MODE_FOUR_PLAYERS,
}
_PHASE: dict[str, fpb.FateOfAkalonPhase] = {
    Phase.CHOOSE_FIRST_ATTACKER.value: fpb.FATE_OF_AKALON_PHASE_CHOOSE_FIRST_ATTACKER,
    Phase.ATTACK.value: fpb.FATE_OF_AKALON_PHASE_ATTACK,
    Phase.DEFEND.value: fpb.FATE_OF_AKALON_PHASE_DEFEND,
    Phase.FIGHT.value: fpb.FATE_OF_AKALON_PHASE_FIGHT,
    Phase.AFTERMATH.value: fpb.FATE_OF_AKALON_PHASE_AFTERMATH,
    Phase.REINFORCE.value: fpb.FATE_OF_AKALON_PHASE_REINFORCE,
    Phase.OVER.value: fpb.FATE_OF_AKALON_PHASE_OVER,
}
_SIDE: dict[str, fpb.FateOfAkalonSide] = {
    Side.ATTACKING.value: fpb.FATE_OF_AKALON_SIDE_ATTACKING,
    Side.DEFENDING.value: fpb.FATE_OF_AKALON_SIDE_DEFENDING,
    Side.NONE.value: fpb.FATE_OF_AKALON_SIDE_NONE,
}
_DECISION: dict[str, fpb.FateOfAkalonDecision] = {
    Decision.CHOOSE_FIRST_ATTACKER.value: fpb.FATE_OF_AKALON_DECISION_CHOOSE_FIRST_ATTACKER,
    Decision.PLAY.value: fpb.FATE_OF_AKALON_DECISION_PLAY,
    Decision.EXTRA_PLAY.value: fpb.FATE_OF_AKALON_DECISION_EXTRA_PLAY,
    Decision.PLAY_REVEALED.value: fpb.FATE_OF_AKALON_DECISION_PLAY_REVEALED,
    Decision.CHOOSE_OPPONENT.value: fpb.FATE_OF_AKALON_DECISION_CHOOSE_OPPONENT,
    Decision.CHOOSE_CARD.value: fpb.FATE_OF_AKALON_DECISION_CHOOSE_CARD,
    Decision.YES_NO.value: fpb.FATE_OF_AKALON_DECISION_YES_NO,
    Decision.ORDER_TRIGGERS.value: fpb.FATE_OF_AKALON_DECISION_ORDER_TRIGGERS,
    Decision.ORDER_DISCARD.value: fpb.FATE_OF_AKALON_DECISION_ORDER_DISCARD,
}
_EFFECT_KIND: dict[str, fpb.FateOfAkalonEffectKind] = {
    EffectKind.MODIFY.value: fpb.FATE_OF_AKALON_EFFECT_KIND_MODIFY,
    EffectKind.IGNORE_CARD.value: fpb.FATE_OF_AKALON_EFFECT_KIND_IGNORE_CARD,
    EffectKind.IGNORE_OPPOSING.value: fpb.FATE_OF_AKALON_EFFECT_KIND_IGNORE_OPPOSING,
}
_END_REASON: dict[str, fpb.FateOfAkalonEndReason] = {
    "threshold": fpb.FATE_OF_AKALON_END_REASON_THRESHOLD,
    "safeguard": fpb.FATE_OF_AKALON_END_REASON_SAFEGUARD,
}
#: ``EffectView.target`` for a selector target (every opposing card), not a card id.
_OPPOSING = "opposing"

#: Every instance's definition, keyed by instance id (§2 card anatomy, §3.1).
_CARD: dict[str, fpb.FateOfAkalonCard] = {
    KEY[card]: fpb.FateOfAkalonCard(
        name=CARDS[d].name,
        faction=_FACTION[CARDS[d].faction.value],
        printed_value=CARDS[d].value,
        attribute=CARDS[d].attribute or "",
        text=CARDS[d].text,
        definition_id=CARDS[d].id,
    )
    for card, d in enumerate(DEF_OF)
}

# -- moves ------------------------------------------------------------------------------


def move_to_proto(move: AkalonMove) -> pb.Move:
    return pb.Move(fate_of_akalon=_TO_PROTO[type(move)](move))


def _first_attacker(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, ChooseFirstAttacker)
    return fpb.FateOfAkalonMove(
        choose_first_attacker=fpb.FateOfAkalonChooseFirstAttacker(seat=move.seat)
    )


def _play(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, PlayCard)
    return fpb.FateOfAkalonMove(play_card=fpb.FateOfAkalonPlayCard(card=move.card))


def _decline(move: AkalonMove) -> fpb.FateOfAkalonMove:
    return fpb.FateOfAkalonMove(decline=fpb.FateOfAkalonDecline())


def _opponent(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, ChooseOpponent)
    return fpb.FateOfAkalonMove(choose_opponent=fpb.FateOfAkalonChooseOpponent(seat=move.seat))


def _choose(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, ChooseCard)
    return fpb.FateOfAkalonMove(choose_card=fpb.FateOfAkalonChooseCard(card=move.card))


def _yes_no(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, ChooseYesNo)
    return fpb.FateOfAkalonMove(choose_yes_no=fpb.FateOfAkalonChooseYesNo(yes=move.yes))


def _trigger(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, ResolveTrigger)
    return fpb.FateOfAkalonMove(
        resolve_trigger=fpb.FateOfAkalonResolveTrigger(card=move.card, ability=move.ability)
    )


def _place(move: AkalonMove) -> fpb.FateOfAkalonMove:
    assert isinstance(move, PlaceOnDiscard)
    return fpb.FateOfAkalonMove(place_on_discard=fpb.FateOfAkalonPlaceOnDiscard(card=move.card))


_TO_PROTO: dict[type, Callable[[AkalonMove], fpb.FateOfAkalonMove]] = {
    ChooseFirstAttacker: _first_attacker,
    PlayCard: _play,
    Decline: _decline,
    ChooseOpponent: _opponent,
    ChooseCard: _choose,
    ChooseYesNo: _yes_no,
    ResolveTrigger: _trigger,
    PlaceOnDiscard: _place,
}


def move_from_proto(msg: fpb.FateOfAkalonMove) -> AkalonMove:
    """The domain move; MalformedMoveError for an empty move or nonsense values.

    Only the form is checked here (a known card id, a seat or ability index >= 0);
    whether the move is legal now is the driver's question.
    """
    kind = msg.WhichOneof("kind")
    if kind == "play_card":
        return PlayCard(_card(msg.play_card.card))
    if kind == "choose_card":
        return ChooseCard(_card(msg.choose_card.card))
    if kind == "place_on_discard":
        return PlaceOnDiscard(_card(msg.place_on_discard.card))
    if kind == "decline":
        return DECLINE
    if kind == "choose_yes_no":
        return YES if msg.choose_yes_no.yes else NO
    if kind == "choose_first_attacker":
        return ChooseFirstAttacker(_seat(msg.choose_first_attacker.seat))
    if kind == "choose_opponent":
        return ChooseOpponent(_seat(msg.choose_opponent.seat))
    if kind == "resolve_trigger":
        trigger = msg.resolve_trigger
        if trigger.ability < 0:
            raise MalformedMoveError(
                f"ability index {trigger.ability} is negative (0-based index of the ability)"
            )
        return ResolveTrigger(_card(trigger.card), trigger.ability)
    raise MalformedMoveError("a Fate of Akalon move must set one of its kinds (e.g. play_card)")


def _card(card: str) -> str:
    if card not in INSTANCE:
        raise MalformedMoveError(
            f"{card!r} is not a card id (expected <faction>-<name>-<copy>, e.g. 'orc-goblin-1')"
        )
    return card


def _seat(seat: int) -> int:
    if seat < 0:
        raise MalformedMoveError(f"seat {seat} is negative (seats are numbered from 0)")
    return seat


# -- the view ---------------------------------------------------------------------------


_FIELD = fpb.FateOfAkalonView.DESCRIPTOR.fields_by_name
_VIEW_ARM = pb.View.DESCRIPTOR.fields_by_name["fate_of_akalon"].number
_PLAYERS, _LOG, _PRIVATE_LOG, _CARDS = (
    _FIELD[name].number for name in ("players", "log", "private_log", "cards")
)
_MEMO_LIMIT = 50_000
# Encoded repeated entries by value: players, log lines and card-table entries mostly
# repeat from one version to the next, so their bytes are reused (bounded memos).
_player_memo: dict[PlayerView, bytes] = {}
_line_memo: dict[tuple[int, str], bytes] = {}
_card_memo: dict[str, bytes] = {}


def _player_entry(p: PlayerView) -> bytes:
    return pw.message_field(
        _PLAYERS,
        fpb.FateOfAkalonPlayer(
            seat=p.seat,
            faction=_FACTION[p.faction],
            side=_SIDE[p.side],
            eliminated=p.eliminated,
            hand_size=p.hand_size,
            deck_size=p.deck_size,
            hand=p.hand,
            discard=p.discard,
            cemetery=p.cemetery,
            cemetery_value=p.cemetery_value,
            out_of_play=p.out_of_play,
            reveal=p.reveal,
            plays=p.plays,
            battlefield_value=p.battlefield_value,
        ).SerializeToString(),
    )


def _line_entry(key: tuple[int, str]) -> bytes:
    field, line = key
    return pw.message_field(field, line.encode())


def _card_entry(card: str) -> bytes:
    entry = pw.string_field(1, card) + pw.message_field(2, _CARD[card].SerializeToString())
    return pw.message_field(_CARDS, entry)


def _memo(memo: dict[Any, bytes], key: Any, build: Callable[[Any], bytes]) -> bytes:
    encoded = memo.get(key)
    if encoded is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        encoded = memo[key] = build(key)
    return encoded


def view_to_bytes(view: View) -> bytes:
    """The serialized ``View`` (arm ``fate_of_akalon``) of a domain view: every field and
    nothing the view lacks. Players, log lines and card entries come from memos."""
    named: set[str] = set()
    for p in view.players:
        named.update(p.hand, p.discard, p.cemetery, p.out_of_play, p.reveal)
    battlefield = []
    for b in view.battlefield:
        named.add(b.card)
        battlefield.append(
            fpb.FateOfAkalonBattlefieldCard(
                card=b.card, owner=b.owner, value=b.value, text_ignored=b.text_ignored
            )
        )
    effects = []
    for e in view.effects:
        selector = e.target == _OPPOSING
        named.add(e.source)
        if not selector:
            named.add(e.target)
        effect = fpb.FateOfAkalonEffect(
            kind=_EFFECT_KIND[e.kind],
            source=e.source,
            target="" if selector else e.target,
            targets_opposing=selector,
            active=e.active,
        )
        if e.amount is not None:
            effect.amount = e.amount
        effects.append(effect)
    out = fpb.FateOfAkalonView(
        viewer=view.viewer,
        mode=_MODE[view.mode],
        teams=[fpb.FateOfAkalonTeam(seats=team) for team in view.teams],
        phase=_PHASE[view.phase],
        battle=view.battle,
        attacker=view.attacker,
        play_order=view.play_order,
        battlefield=battlefield,
        effects=effects,
        designations=view.designations,
        team_values=view.team_values,
    )
    if view.pending is not None:
        options = view.pending.options
        named.update(_option_cards(options))
        out.pending.CopyFrom(
            fpb.FateOfAkalonPending(
                decision=_DECISION[view.pending.decision],
                actor=view.pending.actor,
                options=options,
            )
        )
    if view.result is not None:
        result = view.result
        winners = result.winners
        tie = len(winners) > (2 if len(view.players) == 4 else 1)
        out.result.CopyFrom(
            fpb.FateOfAkalonResult(
                outcome=fpb.FATE_OF_AKALON_OUTCOME_TIE if tie else fpb.FATE_OF_AKALON_OUTCOME_WIN,
                reason=_END_REASON.get(view.end_reason, fpb.FATE_OF_AKALON_END_REASON_UNSPECIFIED),
                winners=winners,
                ranks=result.ranks,
                cemetery_values=result.scores,
                summary=result.summary,
            )
        )
    tail = b"".join(
        [
            *(_memo(_player_memo, p, _player_entry) for p in view.players),
            *(_memo(_line_memo, (_LOG, line), _line_entry) for line in view.log),
            *(_memo(_line_memo, (_PRIVATE_LOG, line), _line_entry) for line in view.private_log),
            *(_memo(_card_memo, card, _card_entry) for card in sorted(named)),
        ]
    )
    return pw.message_field(_VIEW_ARM, out.SerializeToString() + tail)


def view_to_proto(view: View) -> pb.View:
    """The ``View`` message of a domain view (parsed from ``view_to_bytes``)."""
    return pb.View.FromString(view_to_bytes(view))


def _option_cards(options: Iterable[str]) -> Iterable[str]:
    """The card ids inside move ids (``play:<card>``, ``trigger:<card>:<index>``...)."""
    for option in options:
        _, _, rest = option.partition(":")
        card = rest.partition(":")[0]
        if card in INSTANCE:
            yield card


WIRE: GameWire[AkalonMove, View] = GameWire(
    game_id="fate_of_akalon",
    arm="fate_of_akalon",
    move_to_proto=move_to_proto,
    move_from_proto=move_from_proto,
    view_to_proto=view_to_proto,
    view_to_bytes=view_to_bytes,
)
