// Cards, knowledge and moves in words, the same words the terminal client uses:
// "Slot 2: red 3", "could be red or blue 1-3", "bob clued alice red, touching slot 2".
// Slot 1 is the newest card, on the left.

/** Why a game ended, in words, for each end reason the engine and server give. */
export const REASONS = {
  perfect: "a perfect game",
  deck_out: "the deck ran out",
  strikeout: "three strikes",
  terminated: "ended by vote",
  timeout: "a clock ran out",
  idle: "nobody moved for too long",
};

/** An end reason in words: REASONS, or for a reason this page does not know yet (a newer
 * server's), the code with spaces ("seat_deleted" -> "seat deleted"), never the raw code. */
export function reasonText(code) {
  if (!code) return "";
  return REASONS[code] || String(code).replaceAll("_", " ");
}

/** A count with its noun, singular or plural as the number wants: count(1, "turn") is
 * "1 turn", count(2, "turn") "2 turns"; `plural` for nouns that do not just take an s. */
export function count(n, singular, plural = `${singular}s`) {
  return `${n} ${n === 1 ? singular : plural}`;
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
    return (this.byId[id]?.name || id || "?").toLowerCase();
  }

  letter(id) {
    return this.byId[id]?.abbreviation || (id ? id[0].toUpperCase() : "?");
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
    return `${this.suitName(suit)} ${rank === START_RANK ? "START" : rank}`;
  }
}

/** What a seat is, when not a person: "hat bot" (the server plays it) or "hat program"
 * (an API client that said it plays hat), with ", plays conventions here" when the table
 * makes it play another strategy (the view's `playing`); null for a person. */
export function seatKind(p) {
  const kind = p.bot ? `${p.bot} bot` : p.plays ? `${p.plays} program` : null;
  // The table can make a bot play another strategy (hat plays conventions next to people).
  return kind && p.playing && p.playing !== (p.bot || p.plays) ? `${kind}, plays ${p.playing} here` : kind;
}

/** One sentence a person understands about what a variant changes. */
export function describeVariant(v) {
  const notes = [`${v.suits.length} suits`, `${v.card_count} cards`, `best score ${v.max_score}`];
  for (const s of v.suits) {
    const name = s.name;
    if (s.wild) notes.push(`${name} is touched by every colour clue and may be played on any firework`);
    else if (s.all_colors) notes.push(`${name} is touched by every colour clue`);
    else if (s.no_colors) notes.push(`${name} is touched by no colour clue`);
    else if (s.prism) notes.push(`${name} is touched by the colour at its rank's place`);
    if (s.all_ranks) notes.push(`${name} is touched by every rank clue`);
    else if (s.no_ranks) notes.push(`${name} is touched by no rank clue`);
    if (s.one_of_each) notes.push(`${name} has one card of each rank: never discard one`);
    if (s.reversed) notes.push(`${name} is built from 5 down to 1`);
    if (s.inverted) notes.push(`playing ${name} discards it, discarding it plays it`);
  }
  const rules = Object.keys(v.rules || {}).filter((r) => !r.startsWith("special_rank_") && r !== "stack_size");
  if (rules.length) notes.push(`rules: ${rules.map((r) => r.replaceAll("_", " ")).join(", ")}`);
  if (v.rules?.special_rank) notes.push(`the ${v.rules.special_rank}s are special`);
  return notes.join("; ");
}

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
  if (!suits.length) return "nothing (the clues contradict)";
  const all = info.suits.length * info.clueRanks.length;
  const count = suits.reduce((n, id) => n + possible[id].length, 0);
  if (suits.length === info.suits.length && count === all) return "anything";
  const keys = suits.map((id) => ranksText(possible[id]));
  if (keys.every((k) => k === keys[0])) {
    return `${orList(suits.map((id) => info.suitName(id)))} ${keys[0]}`;
  }
  return orList(suits.map((id, i) => `${info.suitName(id)} ${keys[i]}`));
}

function orList(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** The clue marks a card carries: "red, 3" (empty when never clued). */
export function cluesText(info, knowledge) {
  const marks = [];
  for (const c of knowledge.clues || []) {
    // Cow & Pig and Duck: nobody sees what a clue said, only that it touched the card
    const mark = c.color != null ? c.color : c.rank != null ? String(c.rank) : "clued";
    if (!marks.includes(mark)) marks.push(mark);
  }
  return marks.join(", ");
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
  const clued = k.clued ? `, clued ${cluesText(info, k)}` : "";
  if (card.suit == null || card.rank == null) {
    const sure = certain(k.deduced || k.possible);
    if (sure) return `Slot ${slot}: ${info.cardWords(sure.suit, sure.rank)}${clued}`;
    return `Slot ${slot}: unknown, could be ${possibleText(info, k.deduced || k.possible)}${clued}`;
  }
  const held = own ? "" : k.clued ? `; they know it could be ${possibleText(info, k.possible)}` : "";
  return `Slot ${slot}: ${info.cardWords(card.suit, card.rank)}${clued}${held}`;
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
    return Number.isInteger(seat) && seat < this.names.length ? this.names[seat] : `seat ${seat}`;
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
    return ` from slot ${slot}`;
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
        return { text: e.suit == null ? `${who} drew a card` : `${who} drew ${card()}`, kind: "aside" };
      }
      case "clue": {
        const what = e.color != null ? e.color : e.rank != null ? e.rank : e.sound ? `"${e.sound}"` : "something";
        const slots = (e.touched || []).map((o) => this.slot(e.target, o));
        const known = slots.filter((s) => s !== null).sort((a, b) => a - b);
        let tail = "";
        if (known.length === slots.length) {
          if (!known.length) tail = ", touching nothing";
          else if (known.length === 1) tail = `, touching slot ${known[0]}`;
          else tail = `, touching slots ${known.slice(0, -1).join(", ")} and ${known[known.length - 1]}`;
        }
        return { text: `${who} clued ${this.name(e.target)} ${what}${tail}`, kind: "move" };
      }
      case "play": {
        const where = this.take(e.seat, e.card);
        const onto = e.firework && e.firework !== e.suit ? ` on the ${this.info.suitName(e.firework)} firework` : "";
        return { text: `${who} played ${card()}${where}${onto}`, kind: "move" };
      }
      case "misplay":
        return { text: `${who} misplayed ${card()}${this.take(e.seat, e.card)}`, kind: "move" };
      case "strike":
        return { text: ` (strike ${e.strikes} of 3)`, kind: "move", joins: true };
      case "clue_token":
        return { text: " and got a clue back", kind: "move", joins: true };
      case "discard":
        return { text: `${who} discarded ${card()}${this.take(e.seat, e.card)}`, kind: "move" };
      case "final_round":
        return { text: `The deck is empty: final round, ${count(e.turns_left, "turn")} left`, kind: "system" };
      case "terminate":
        if (e.reason === "timeout") return { text: `${who} ran out of time`, kind: "system" };
        if (e.reason === "idle") return { text: "Nobody moved for too long: the server ended the game", kind: "system" };
        return { text: e.seat == null ? "The players voted to end the game" : `${who} ended the game`, kind: "system" };
      case "vote": {
        const votes = `${e.votes} of ${e.needed} needed`;
        return { text: e.end ? `Someone voted to end the game (${votes})` : `A vote to end the game was taken back (${votes})`, kind: "system" };
      }
      case "game_over":
        return { text: `Game over (${reasonText(e.reason)}): score ${e.score}`, kind: "system" };
      case "chat":
        return { text: e.text, speaker: e.name || who, kind: "chat" };
      case "join": {
        if (!this.fixed) {
          while (this.names.length <= e.seat) this.names.push(`seat ${this.names.length}`);
          this.names[e.seat] = e.name;
        }
        const what = e.bot ? ` (${e.bot} bot)` : e.plays ? ` (a ${e.plays} program)` : "";
        return { text: `${e.name} joined${what}`, kind: "system" };
      }
      case "plays":
        return { text: e.plays ? `${e.name} plays ${e.plays} (a program)` : `${e.name} plays in person`, kind: "system" };
      case "leave":
      case "remove": {
        const name = e.name || who;
        if (!this.fixed && Number.isInteger(e.seat) && e.seat < this.names.length) this.names.splice(e.seat, 1);
        return { text: `${name} left`, kind: "system" };
      }
      case "start":
        return { text: "The game started", kind: "system" };
      default:
        return null;
    }
  }
}
