/**
 * What the session reader has already given of each message (lib/harnesses/gemini/session.ts): Gemini CLI writes a
 * message again under its `id` with more in it (a response once its tool calls ran, the whole history restated on
 * resume), so each id keeps how much of it became events: its text as a length and a digest (the text itself is not
 * held), its thoughts counted, whether its usage was counted, and its calls by id. Bounded by the run's limits (count
 * and bytes, lib/kernel/bounded-map.ts); a message pushed out is forgotten, and a later rewrite of it reads as new.
 */
import { createHash } from 'node:crypto';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Limits } from '../../kernel/harness.js';

export interface Seen {
  /** The UTF-16 length of the text already given, and the digest of that text. */
  textLength: number;
  textDigest: string;
  thoughts: number;
  usage: boolean;
  /** The ids of the calls already given. */
  calls: string[];
}

export const digest = (text: string): string => createHash('sha1').update(text).digest('base64');

const EMPTY_DIGEST = digest('');

/** What a message's text adds to what was given: the new tail, all of it when it changed, or nothing. */
export function newText(seen: Seen, text: string): { text: string; rewritten: boolean } | undefined {
  if (text.length === seen.textLength && digest(text) === seen.textDigest) return undefined;
  if (text.length > seen.textLength && digest(text.slice(0, seen.textLength)) === seen.textDigest)
    return { text: text.slice(seen.textLength), rewritten: false };
  return { text, rewritten: true };
}

export class SeenMessages {
  private readonly messages: BoundedMap<Seen>;
  /** Ids in the order they were first read, for `$rewindTo`; pruned with the map. */
  private readonly order: string[] = [];

  constructor(limits: Limits, onForget: () => void) {
    this.messages = new BoundedMap<Seen>(limits, onForget);
  }

  has(id: string): boolean {
    return this.messages.has(id);
  }

  /** The message's state, made empty when it is new (or was forgotten). */
  get(id: string): Seen {
    const held = this.messages.get(id);
    if (held !== undefined) return held;
    const seen: Seen = { textLength: 0, textDigest: EMPTY_DIGEST, thoughts: 0, usage: false, calls: [] };
    this.messages.set(id, seen);
    this.order.push(id);
    if (this.order.length > 2 * this.messages.size + 64) this.prune();
    return seen;
  }

  /** Stores what a message's state became (its bytes are counted again). */
  update(id: string, seen: Seen): void {
    if (this.messages.has(id)) this.messages.set(id, seen);
  }

  /** `$rewindTo`: the message and every later one are forgotten; false when the id is not held. */
  rewind(id: string): boolean {
    this.prune();
    const at = this.order.indexOf(id);
    if (at < 0) return false;
    for (const dropped of this.order.splice(at)) this.messages.take(dropped);
    return true;
  }

  /** Drops the ids no longer held; an id read again after it was forgotten keeps its latest place. */
  private prune(): void {
    const kept = new Set<string>();
    for (let i = this.order.length - 1; i >= 0; i--) {
      const id = this.order[i]!;
      if (this.messages.has(id)) kept.add(id);
    }
    this.order.splice(0, this.order.length, ...[...kept].reverse());
  }
}
