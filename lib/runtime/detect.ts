/**
 * Which harness wrote a stream, told from its first records (`harness: 'auto'`): each harness
 * opens its stream in a shape of its own, which its folder states as its `signature`
 * (lib/harnesses/<name>/signature.ts), so the first record that has one of these shapes decides.
 * Records no signature knows (a banner line, an unknown type) are held and the next ones read.
 * Pure: records in, a harness name (or not yet) out.
 */
import type { Signature } from '../kernel/harness.js';
import { isObject } from '../kernel/json.js';

/** A harness's name and its signature, in the order the detector tries them. */
export type NamedSignature = readonly [harness: string, signature: Signature];

/** Reads records one by one until it knows which harness wrote them. */
export class HarnessDetector {
  /** The harness, once known. */
  harness: string | undefined;
  /** A signature matched that needs more records to tell its harness from a look-alike (OpenCode or Kilo). */
  private family: NamedSignature | undefined;
  /** What was seen that no signature placed: record types, or kinds of value. */
  readonly seen: string[] = [];

  /** `signatures` in order: the first that matches decides. */
  constructor(readonly signatures: readonly NamedSignature[]) {}

  /** Reads one parsed record; returns the harness once it is known. */
  read(value: unknown): string | undefined {
    if (this.harness !== undefined) return this.harness;
    if (!isObject(value))
      return this.note(value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);
    if (this.family) return (this.harness = this.family[1].tellApart!(value));
    const row = this.signatures.find(([, signature]) => signature.matches(value));
    if (row === undefined)
      return this.note(typeof value.type === 'string' ? `type "${value.type}"` : 'an object without a type');
    if (row[1].tellApart === undefined) return (this.harness = row[0]);
    this.family = row;
    return (this.harness = row[1].tellApart(value));
  }

  /**
   * No more records will come (the input ended, or the detector read as many as it may): the
   * harness if it can be named now; a family that never said which of its harnesses wrote the
   * stream is its signature's own harness.
   */
  settle(): string | undefined {
    if (this.harness === undefined && this.family) this.harness = this.family[0];
    return this.harness;
  }

  private note(what: string): undefined {
    if (this.seen.length < 10 && !this.seen.includes(what)) this.seen.push(what);
    return undefined;
  }
}
