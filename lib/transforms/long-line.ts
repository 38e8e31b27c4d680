/**
 * A line too long to parse whole (over `streamLinesAbove`), parsed as its pieces arrive with
 * stream-json's incremental tokenizer, and assembled within a budget: memory stays near the
 * budget however long the line is.
 *
 * What such lines carry in bulk is what no event reports: base64 images, file contents,
 * command output, huge tool results. So the value keeps its shape and its small fields (types,
 * ids, names, paths, statuses, session ids), and its bulk is cut:
 * - a string keeps at most the budget that is left, and never less than 256 characters;
 * - once the budget is spent, at most 10,000 more array elements and object members are kept in
 *   all, and an array that already holds 1,000 elements takes no more (so the small fields after
 *   a huge array, such as a session id, survive it); later ones are dropped.
 * What was cut is reported (`Cut`), so the record's events come with a warning saying so.
 */
import { StringDecoder } from 'node:string_decoder';
import { getManyValues, isMany, none } from 'stream-chain';
import { jsonParser } from 'stream-json/parser.js';

/** What a long line lost to the budget. */
export interface Cut {
  /** Strings cut short, and the characters they lost. */
  strings: number;
  /** The characters those strings lost. */
  characters: number;
  /** Array elements and object members dropped whole. */
  items: number;
  /** Where the first cuts were, as JSON paths (`message.content[0].text`). */
  paths: string[];
  /** Cuts happened at more places than `paths` names. */
  morePaths: boolean;
}

/** A string is never cut below this: ids, names, types and paths survive a spent budget. */
const STRING_FLOOR = 256;
/** Array elements and object members kept after the budget is spent, over the whole line. */
const ITEMS_AFTER_BUDGET = 10_000;
/** After the budget is spent, an array this long takes no more elements. */
const ARRAY_AFTER_BUDGET = 1_000;
/** What a kept member or element costs the budget, besides its text. */
const ITEM_COST = 64;
const WHITESPACE = /^[ \t\r\n]*$/;
/** How much of a line that is not JSON its warning shows. */
const HEAD = 1024;
/** How much of a line is decoded and tokenized at once: a slice of tiny objects is tens of thousands of tokens. */
const SLICE = 64 * 1024;
/** Paths named in a cut report. */
const PATHS_SHOWN = 3;

type Token = { name: string; value?: unknown };
type Container = Record<string, unknown> | unknown[];

/** The tokenizer's output: one token, several (stream-chain's `many`), or nothing (`none`). */
function tokensOf(result: unknown): Token[] {
  if (result === none || result === undefined) return [];
  return isMany(result) ? (getManyValues(result) as Token[]) : [result as Token];
}

export class LongLine {
  /** The line's size so far, in bytes. */
  bytes = 0;
  private readonly decoder = new StringDecoder('utf8');
  private readonly tokenize = jsonParser({
    packKeys: true,
    packStrings: false,
    streamStrings: true,
    packNumbers: true,
    streamNumbers: false,
  });
  private failure: Error | undefined;
  /** The beginning of the line, for a warning when it is not JSON; all of it when it is short. */
  private head = '';
  private characters = 0;
  /** Nothing but whitespace so far. */
  private blank = true;

  // The value being assembled: the containers open above the current one, with the key or index each sits under.
  private readonly stack: { container: Container; key: string | number }[] = [];
  private current: Container | undefined;
  private key: string | number = '';
  private root: unknown;
  private done = false;
  /** Depth of a dropped container still being read through. */
  private skipping = 0;
  private spent = 0;
  private itemsAfterBudget = 0;
  // The string being read: its kept pieces, their length, and what it lost.
  private pieces: string[] = [];
  private kept = 0;
  private lost = 0;
  private stringKeep = 0;
  private droppingString = false;
  private readonly cut: Cut = { strings: 0, characters: 0, items: 0, paths: [], morePaths: false };

  constructor(private readonly budget: number) {}

  write(bytes: Buffer): void {
    // A slice at a time: a whole line arriving in one chunk is not decoded into one huge string.
    for (let at = 0; at < bytes.length; at += SLICE) this.writeSlice(bytes.subarray(at, at + SLICE));
  }

  private writeSlice(bytes: Buffer): void {
    this.bytes += bytes.length;
    if (this.failure) return;
    let text = this.decoder.write(bytes);
    // A line-start byte-order mark (concatenated files) is dropped, as for short lines.
    if (this.head === '' && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (this.head.length < HEAD) this.head += text.slice(0, HEAD - this.head.length);
    this.characters += text.length;
    if (this.blank && !WHITESPACE.test(text)) this.blank = false;
    this.feed(text);
  }

  /** The line's value and what it lost, or an error when it is not one JSON value; undefined for a blank line. */
  end(): { value: unknown; cut?: Cut } | Error | undefined {
    if (!this.failure) {
      const rest = this.decoder.end();
      if (rest !== '') this.feed(rest);
    }
    if (!this.failure) {
      try {
        for (const token of tokensOf(this.tokenize(none as unknown as string))) this.token(token);
      } catch (error) {
        this.failure = error as Error;
      }
    }
    if (this.failure) {
      if (this.blank) return undefined;
      // A line short enough to show whole is shown as it is, as `JSON.parse`'s path does.
      if (this.characters <= HEAD) return new Error(this.head);
      return new Error(
        `${this.head}… (a line of ${this.bytes} bytes that is not JSON: ${this.failure.message}; its first ${HEAD} ` +
          `characters shown)`,
      );
    }
    const { cut } = this;
    return cut.strings + cut.items === 0 ? { value: this.root } : { value: this.root, cut };
  }

  private feed(text: string): void {
    try {
      for (const token of tokensOf(this.tokenize(text))) this.token(token);
    } catch (error) {
      this.failure = error as Error;
    }
  }

  private token(token: Token): void {
    if (this.done) throw new Error('more than one JSON value on the line');
    if (this.skipping > 0) return this.skip(token.name);
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        return this.open(token.name === 'startObject' ? {} : []);
      case 'endObject':
      case 'endArray':
        return this.close();
      case 'keyValue':
        this.key = token.value as string;
        return;
      case 'startString':
        return this.startString();
      case 'stringChunk':
        return this.stringChunk(token.value as string);
      case 'endString':
        return this.endString();
      case 'numberValue':
        return this.add(Number(token.value));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.add(token.value);
    }
  }

  /** Whether the next member or element is kept; a dropped one is counted. */
  private keeps(): boolean {
    if (this.current === undefined || this.spent < this.budget) return true;
    const full =
      this.itemsAfterBudget >= ITEMS_AFTER_BUDGET ||
      (Array.isArray(this.current) && this.current.length >= ARRAY_AFTER_BUDGET);
    if (!full) {
      this.itemsAfterBudget++;
      return true;
    }
    this.drop();
    return false;
  }

  private drop(): void {
    this.cut.items++;
    this.note();
  }

  private add(value: unknown): void {
    if (!this.keeps()) return;
    this.place(value);
  }

  private place(value: unknown): void {
    this.spent += ITEM_COST;
    if (this.current === undefined) {
      this.root = value;
      this.done = true;
    } else if (Array.isArray(this.current)) this.current.push(value);
    // defineProperty: a `__proto__` key is an own property, as JSON.parse makes it.
    else Object.defineProperty(this.current, this.key, { value, enumerable: true, writable: true, configurable: true });
  }

  private open(container: Container): void {
    if (!this.keeps()) {
      this.skipping = 1;
      return;
    }
    this.place(container);
    this.done = false;
    const parent = this.current;
    if (parent !== undefined)
      this.stack.push({ container: parent, key: Array.isArray(parent) ? parent.length - 1 : this.key });
    this.current = container;
  }

  private close(): void {
    const parent = this.stack.pop();
    if (parent === undefined) {
      this.current = undefined;
      this.done = true;
      return;
    }
    this.current = parent.container;
    this.key = parent.key;
  }

  private skip(name: string): void {
    if (name === 'startObject' || name === 'startArray') this.skipping++;
    else if (name === 'endObject' || name === 'endArray') this.skipping--;
  }

  private startString(): void {
    this.pieces = [];
    this.kept = 0;
    this.lost = 0;
    this.droppingString = !this.keeps();
    this.stringKeep = Math.max(STRING_FLOOR, this.budget - this.spent);
  }

  private stringChunk(chunk: string): void {
    if (this.droppingString) return;
    const room = this.stringKeep - this.kept;
    if (chunk.length <= room) {
      this.pieces.push(chunk);
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.pieces.push(chunk.slice(0, room));
      this.kept += room;
    }
    this.lost += chunk.length - Math.max(room, 0);
  }

  private endString(): void {
    if (this.droppingString) return;
    if (this.lost > 0) {
      this.cut.strings++;
      this.cut.characters += this.lost;
      this.note();
    }
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.pieces = [];
    this.spent += text.length;
    this.place(text);
  }

  /** Remembers where a cut happened, for the first few places. */
  private note(): void {
    const { cut } = this;
    if (cut.morePaths) return;
    const keys = this.stack.map((level) => level.key);
    if (this.current !== undefined) keys.push(Array.isArray(this.current) ? this.current.length : this.key);
    const path = pathOf(keys);
    if (cut.paths.at(-1) === path) return;
    if (cut.paths.length < PATHS_SHOWN) cut.paths.push(path);
    else cut.morePaths = true;
  }
}

function pathOf(keys: (string | number)[]): string {
  let path = '';
  for (const key of keys) path += typeof key === 'number' ? `[${key}]` : path === '' ? key : `.${key}`;
  return path === '' ? '(the line)' : path;
}
