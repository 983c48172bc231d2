// Cards, knowledge and moves in words, the same words the terminal client uses:
// "Slot 2: red 3", "could be red or blue 1-3", "bob clued alice red, touching slot 2".
// Slot 1 is the newest card, on the left. Every sentence comes from the catalogue
// (i18n.js): msgids with {name} placeholders, plurals with ngettext.

import { _, lang, ngettext, pgettext } from "./i18n.js";
import { suitSymbols } from "./suits.js";

/** Why a game ended, in words, for each end reason the engine and server give. */
export const REASONS = {
  perfect: _("a perfect game"),
  deck_out: _("the deck ran out"),
  strikeout: _("three strikes"),
  terminated: _("ended by vote"),
  timeout: _("a clock ran out"),
  idle: _("nobody moved for too long"),
};

/** The suits and clue colours as each language's players call them (a card is "red 3",
 * "红3", "красная 3"; a colour clue "red", "红色", "красный"); a suit not listed here
 * keeps the variant's English name. */
const SUITS = {
  red: pgettext("suit", "red"), yellow: pgettext("suit", "yellow"), green: pgettext("suit", "green"),
  blue: pgettext("suit", "blue"), purple: pgettext("suit", "purple"), teal: pgettext("suit", "teal"),
  black: pgettext("suit", "black"), rainbow: pgettext("suit", "rainbow"), pink: pgettext("suit", "pink"),
  white: pgettext("suit", "white"), brown: pgettext("suit", "brown"), orange: pgettext("suit", "orange"),
  gray: pgettext("suit", "gray"), omni: pgettext("suit", "omni"), null: pgettext("suit", "null"),
  prism: pgettext("suit", "prism"), "dark rainbow": pgettext("suit", "dark rainbow"),
  "muddy rainbow": pgettext("suit", "muddy rainbow"), "light pink": pgettext("suit", "light pink"),
};
const COLOURS = {
  red: pgettext("colour", "red"), yellow: pgettext("colour", "yellow"), green: pgettext("colour", "green"),
  blue: pgettext("colour", "blue"), purple: pgettext("colour", "purple"), teal: pgettext("colour", "teal"),
  black: pgettext("colour", "black"), pink: pgettext("colour", "pink"), brown: pgettext("colour", "brown"),
  orange: pgettext("colour", "orange"), white: pgettext("colour", "white"), gray: pgettext("colour", "gray"),
};
/** The one-letter names of the standard suits on a card's face ("R3", "红3", "К3"). */
const LETTERS = {
  red: pgettext("suit letter", "R"), yellow: pgettext("suit letter", "Y"), green: pgettext("suit letter", "G"),
  blue: pgettext("suit letter", "B"), purple: pgettext("suit letter", "P"), rainbow: pgettext("suit letter", "M"),
  black: pgettext("suit letter", "K"), white: pgettext("suit letter", "W"), teal: pgettext("suit letter", "T"),
};

/** A suit's name (hanab.live's, "Red", "Cocoa Rainbow") in words: the language's name for
 * it, else the variant's English name (a proper name, as the variants' own). */
export function suitWord(name) {
  return SUITS[String(name).toLowerCase()] || name;
}

/** A clue colour (an id, "red") in words. */
export function colourWord(id) {
  return COLOURS[id] || String(id);
}

/** An end reason in words: REASONS, or for a reason this page does not know yet (a newer
 * server's), the code with spaces ("seat_deleted" -> "seat deleted"), never the raw code. */
export function reasonText(code) {
  if (!code) return "";
  return REASONS[code] || String(code).replaceAll("_", " ");
}

/** "1 turn", "2 turns" ("1 ход", "2 хода", "5 ходов"): the turns of a final round. */
export function turnsText(n) {
  return ngettext("{n} turn", "{n} turns", n);
}

/** Up or Down's START card has rank 7 in the API (hanab.live's number); people read "S". */
export const START_RANK = 7;

/** What the page knows of a variant: its suits by id, in order. */
export class VariantInfo {
  constructor(variant) {
    this.id = variant.id;
    this.name = variant.name;
    this.variant = variant;
    this.suits = variant.suits;
    this.byId = Object.fromEntries(variant.suits.map((s) => [s.id, s]));
    this.clueColors = variant.clue_colors;
    this.clueRanks = variant.clue_ranks;
  }

  suitName(id) {
    const english = (this.byId[id]?.name || id || "?").toLowerCase();
    return SUITS[english] || english;
  }

  /** A suit's symbol on a card's face: its letter in the reader's language (hanab.live's
   * in English), told apart from the variant's other suits and from digits (suitSymbols). */
  letter(id) {
    this.symbols ||= suitSymbols(
      this.suits,
      (s) => (lang !== "en" && LETTERS[s.name.toLowerCase()]) || s.abbreviation,
      (s) => [suitWord(s.name), s.name, s.id],
    );
    return this.symbols[id] || (id ? id[0].toUpperCase() : "?");
  }

  /** CSS class of a suit's colour ("suit-red", "suit-rainbow", ...). */
  suitClass(id) {
    const suit = this.byId[id];
    if (!suit) return "suit-unknown";
    if (suit.all_colors || suit.wild) return "suit-rainbow";
    if (suit.no_colors) return "suit-black";
    return `suit-${suit.color || suit.id}`;
  }

  cardText(suit, rank) {
    return `${suit ? this.letter(suit) : "?"}${rank === START_RANK ? "S" : rank ?? "?"}`;
  }

  cardWords(suit, rank) {
    return _("{suit} {rank}", { suit: this.suitName(suit), rank: rank === START_RANK ? _("START") : rank });
  }
}

/** What a seat is, when not a person: "hat bot" (the server plays it) or "hat program"
 * (an API client that said it plays hat), with ", plays conventions here" when the table
 * makes it play another strategy (the view's `playing`); null for a person. */
export function seatKind(p) {
  const kind = p.bot ? _("{strategy} bot", { strategy: p.bot }) : p.plays ? _("{strategy} program", { strategy: p.plays }) : null;
  // The table can make a bot play another strategy (hat plays conventions next to people).
  return kind && p.playing && p.playing !== (p.bot || p.plays) ? _("{kind}, plays {strategy} here", { kind, strategy: p.playing }) : kind;
}

/** One sentence a person understands about what a variant changes. */
export function describeVariant(v) {
  const notes = [
    ngettext("{n} suit", "{n} suits", v.suits.length),
    ngettext("{n} card", "{n} cards", v.card_count),
    _("best score {score}", { score: v.max_score }),
  ];
  for (const s of v.suits) {
    const name = SUITS[s.name.toLowerCase()] || s.name;
    if (s.wild) notes.push(_("{name} is touched by every colour clue and may be played on any firework", { name }));
    else if (s.all_colors) notes.push(_("{name} is touched by every colour clue", { name }));
    else if (s.no_colors) notes.push(_("{name} is touched by no colour clue", { name }));
    else if (s.prism) notes.push(_("{name} is touched by the colour at its rank's place", { name }));
    if (s.all_ranks) notes.push(_("{name} is touched by every rank clue", { name }));
    else if (s.no_ranks) notes.push(_("{name} is touched by no rank clue", { name }));
    if (s.one_of_each) notes.push(_("{name} has one card of each rank: never discard one", { name }));
    if (s.reversed) notes.push(_("{name} is built from 5 down to 1", { name }));
    if (s.inverted) notes.push(_("playing {name} discards it, discarding it plays it", { name }));
  }
  for (const [key, value] of Object.entries(v.rules || {})) {
    if (key === "stack_size" || !value) continue;
    const say = RULES[key];
    notes.push(say ? say(value) : key.replaceAll("_", " ")); // a rule newer than this page
  }
  return notes.join(_("; "));
}

/** The special rules (the API's `rules` keys) in words, as the terminal says them. */
const RULES = {
  special_rank: (value) => _("the special rank is {value}: its cards are touched as the rules below say", { value }),
  special_rank_all_colors: () => _("every colour clue touches the special rank"),
  special_rank_all_ranks: () => _("every rank clue touches the special rank"),
  special_rank_no_colors: () => _("no colour clue touches the special rank"),
  special_rank_no_ranks: () => _("no rank clue touches the special rank"),
  special_rank_deceptive: () => _("deceptive: the special rank answers to a rank clue chosen by its suit's place"),
  critical_rank: (value) => _("one copy of each {value}: every {value} is critical", { value }),
  scarce_ones: () => _("scarce ones: two copies of each 1 instead of three"),
  clue_starved: () => _("clue starved: a discard gives back half a clue token"),
  color_clues_touch_nothing: () => _("colour-blind: a colour clue touches no card"),
  rank_clues_touch_nothing: () => _("number-blind: a rank clue touches no card"),
  alternating_clues: () => _("alternating clues: colour and rank clues take turns"),
  cow_and_pig: () => _("cow & pig: a clue says only moo (colour) or oink (rank)"),
  duck: () => _("duck: a clue says only quack, not even its kind"),
  odds_and_evens: () => _("odds and evens: a 1 clue touches 1, 3 and 5; a 2 clue 2 and 4"),
  synesthesia: () => _("synesthesia: only colour clues; each also touches the rank at its colour's place"),
  up_or_down: () => _("up or down: a firework starts at 1, 5 or START and goes up or down"),
  throw_it_in_a_hole: () => _("throw it in a hole: plays go face down; fireworks and score hidden until the end"),
  funnels: () => _("funnels: a rank clue touches its rank and every lower rank"),
  chimneys: () => _("chimneys: a rank clue touches its rank and every higher rank"),
  sudoku: () => _("sudoku: a firework starts at any rank no other started at, and wraps round"),
};

/** [1,2,3,5] -> "1-3, 5" */
export function ranksText(ranks) {
  const sorted = [...ranks].sort((a, b) => a - b);
  const parts = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

/**
 * What a card may be, from suit -> ranks: "red or blue 1-3", "red 1-3 or blue 2",
 * "red 3", or "anything" when nothing is ruled out.
 */
export function possibleText(info, possible) {
  const suits = info.suits.map((s) => s.id).filter((id) => (possible[id] || []).length);
  if (!suits.length) return _("nothing (the clues contradict)");
  const all = info.suits.length * info.clueRanks.length;
  const count = suits.reduce((n, id) => n + possible[id].length, 0);
  if (suits.length === info.suits.length && count === all) return _("anything");
  const keys = suits.map((id) => ranksText(possible[id]));
  if (keys.every((k) => k === keys[0])) {
    return _("{suit} {rank}", { suit: orList(suits.map((id) => info.suitName(id))), rank: keys[0] });
  }
  return orList(suits.map((id, i) => _("{suit} {rank}", { suit: info.suitName(id), rank: keys[i] })));
}

function orList(items) {
  if (items.length <= 1) return items.join("");
  return _("{some} or {last}", { some: items.slice(0, -1).join(_(", ")), last: items[items.length - 1] });
}

/** The clue marks a card carries: "red, 3" (empty when never clued). */
export function cluesText(info, knowledge) {
  const marks = [];
  for (const c of knowledge.clues || []) {
    // Cow & Pig and Duck: nobody sees what a clue said, only that it touched the card
    const mark = c.color != null ? colourWord(c.color) : c.rank != null ? String(c.rank) : _("clued");
    if (!marks.includes(mark)) marks.push(mark);
  }
  return marks.join(_(", "));
}

/** The single identity `possible` allows, or null. */
export function certain(possible) {
  const ids = Object.keys(possible).filter((id) => possible[id].length);
  if (ids.length === 1 && possible[ids[0]].length === 1) return { suit: ids[0], rank: possible[ids[0]][0] };
  return null;
}

/**
 * A card's accessible name. Your own: "Slot 2: unknown, could be red or blue 1-3" (or
 * "Slot 2: red 3" once you know it). Another's: "Slot 2: red 3", with what its holder
 * knows when it was clued.
 */
export function cardLabel(info, slot, card, own) {
  const k = card.knowledge;
  const clued = k.clued ? _(", clued {marks}", { marks: cluesText(info, k) }) : "";
  if (card.suit == null || card.rank == null) {
    const sure = certain(k.deduced || k.possible);
    if (sure) return _("Slot {slot}: {card}", { slot, card: info.cardWords(sure.suit, sure.rank) }) + clued;
    return _("Slot {slot}: unknown, could be {possible}", { slot, possible: possibleText(info, k.deduced || k.possible) }) + clued;
  }
  const held = own ? "" : k.clued ? _("; they know it could be {possible}", { possible: possibleText(info, k.possible) }) : "";
  return _("Slot {slot}: {card}", { slot, card: info.cardWords(card.suit, card.rank) }) + clued + held;
}

/** Turns events into sentences, following the hands to name slots. */
export class Narrator {
  /** `fixed`: the names are the seated players' (a started game); joins and leaves
   * before the start then leave them alone. */
  constructor(names, info, fixed = false) {
    this.names = [...names];
    this.info = info;
    this.fixed = fixed;
    this.hands = new Map();
  }

  name(seat) {
    return Number.isInteger(seat) && seat < this.names.length ? this.names[seat] : _("seat {seat}", { seat });
  }

  slot(seat, order) {
    const hand = this.hands.get(seat) || [];
    const i = hand.indexOf(order);
    return i < 0 ? null : i + 1;
  }

  take(seat, order) {
    const slot = this.slot(seat, order);
    if (slot === null) return "";
    this.hands.get(seat).splice(slot - 1, 1);
    return _(" from slot {slot}", { slot });
  }

  /**
   * One event -> {text, kind, joins} or null. kind: "move", "chat", "aside" (draws),
   * "system"; joins: the text continues the previous line (a strike, a clue back).
   */
  line(e) {
    const who = this.name(e.seat);
    const card = () => this.info.cardText(e.suit, e.rank);
    switch (e.type) {
      case "draw": {
        if (!this.hands.has(e.seat)) this.hands.set(e.seat, []);
        this.hands.get(e.seat).unshift(e.card);
        return { text: e.suit == null ? _("{who} drew a card", { who }) : _("{who} drew {card}", { who, card: card() }), kind: "aside" };
      }
      case "clue": {
        const what = e.color != null ? colourWord(e.color) : e.rank != null ? e.rank : e.sound ? `"${e.sound}"` : _("something");
        const slots = (e.touched || []).map((o) => this.slot(e.target, o));
        const known = slots.filter((s) => s !== null).sort((a, b) => a - b);
        let tail = "";
        if (known.length === slots.length) {
          if (!known.length) tail = _(", touching nothing");
          else if (known.length === 1) tail = _(", touching slot {slot}", { slot: known[0] });
          else tail = _(", touching slots {some} and {last}", { some: known.slice(0, -1).join(_(", ")), last: known[known.length - 1] });
        }
        return { text: _("{who} clued {target} {clue}", { who, target: this.name(e.target), clue: what }) + tail, kind: "move" };
      }
      case "play": {
        const where = this.take(e.seat, e.card);
        const onto = e.firework && e.firework !== e.suit ? _(" on the {suit} firework", { suit: this.info.suitName(e.firework) }) : "";
        return { text: _("{who} played {card}", { who, card: card() }) + where + onto, kind: "move" };
      }
      case "misplay":
        return { text: _("{who} misplayed {card}", { who, card: card() }) + this.take(e.seat, e.card), kind: "move" };
      case "strike":
        return { text: _(" (strike {strikes} of 3)", { strikes: e.strikes }), kind: "move", joins: true };
      case "clue_token":
        return { text: _(" and got a clue back"), kind: "move", joins: true };
      case "discard":
        return { text: _("{who} discarded {card}", { who, card: card() }) + this.take(e.seat, e.card), kind: "move" };
      case "final_round":
        return { text: ngettext("The deck is empty: final round, {n} turn left", "The deck is empty: final round, {n} turns left", e.turns_left), kind: "system" };
      case "terminate":
        if (e.reason === "timeout") return { text: _("{who} ran out of time", { who }), kind: "system" };
        if (e.reason === "idle") return { text: _("Nobody moved for too long: the server ended the game"), kind: "system" };
        return { text: e.seat == null ? _("The players voted to end the game") : _("{who} ended the game", { who }), kind: "system" };
      case "vote": {
        const votes = { votes: e.votes, needed: e.needed };
        return { text: e.end ? _("Someone voted to end the game ({votes} of {needed} needed)", votes) : _("A vote to end the game was taken back ({votes} of {needed} needed)", votes), kind: "system" };
      }
      case "pause": {
        const votes = { votes: e.votes, needed: e.needed };
        if (e.changed) return { text: e.paused ? _("The game is paused") : _("The game goes on"), kind: "system" };
        if (!e.votes) return { text: _("A vote was taken back ({votes} of {needed} needed)", votes), kind: "system" };
        return { text: e.paused ? _("Someone voted to go on ({votes} of {needed} needed)", votes) : _("Someone voted to pause ({votes} of {needed} needed)", votes), kind: "system" };
      }
      case "decline":
        return { text: _("{name} declined: the seat is open", { name: e.name }), kind: "system" };
      case "game_over":
        return { text: _("Game over ({reason}): score {score}", { reason: reasonText(e.reason), score: e.score }), kind: "system" };
      case "chat":
        return { text: e.text, speaker: e.name || who, kind: "chat" };
      case "join": {
        if (!this.fixed) {
          while (this.names.length <= e.seat) this.names.push(_("seat {seat}", { seat: this.names.length }));
          this.names[e.seat] = e.name;
        }
        if (e.bot) return { text: _("{name} joined ({strategy} bot)", { name: e.name, strategy: e.bot }), kind: "system" };
        if (e.plays) return { text: _("{name} joined (a {strategy} program)", { name: e.name, strategy: e.plays }), kind: "system" };
        return { text: _("{name} joined", { name: e.name }), kind: "system" };
      }
      case "plays":
        return { text: e.plays ? _("{name} plays {strategy} (a program)", { name: e.name, strategy: e.plays }) : _("{name} plays in person", { name: e.name }), kind: "system" };
      case "leave":
      case "remove": {
        const name = e.name || who;
        if (!this.fixed && Number.isInteger(e.seat) && e.seat < this.names.length) this.names.splice(e.seat, 1);
        return { text: _("{name} left", { name }), kind: "system" };
      }
      case "start":
        return { text: _("The game started"), kind: "system" };
      default:
        return null;
    }
  }
}
