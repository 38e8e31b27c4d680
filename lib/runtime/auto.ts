/**
 * `harness: 'auto'`: a harness that becomes the one its stream turns out to be. The correlate
 * stage holds the first records while a `HarnessDetector` (lib/runtime/detect.ts) reads them, then
 * makes this object the detected harness and replays them; the tool calls it correlates carry this
 * same object, so the classifier uses the detected harness's tool table.
 */
import { HarnessDetector, type NamedSignature } from './detect.js';
import type { Correlator, DetectingHarness, Harness, RunContext, ToolTable } from '../kernel/harness.js';
import { recordTable } from '../kernel/record-table.js';
import { toolTable } from '../kernel/tool-rules.js';

/** What a stream no harness's signature placed is read as: every record `unknown`, verbatim. */
const unplaced: Harness = {
  name: 'auto',
  records: {},
  tools: toolTable({}),
  correlator: (run: RunContext): Correlator => ({ record: recordTable(run, {}), end() {} }),
};

export class AutoHarness implements DetectingHarness {
  private readonly detector: HarnessDetector;
  /** The harness the stream turned out to be (or `unplaced`), once known. */
  detected: Harness | undefined;

  get name(): string {
    return this.detected?.name ?? 'auto';
  }
  get records() {
    return this.detected?.records ?? {};
  }
  get tools(): ToolTable {
    return this.detected?.tools ?? unplaced.tools;
  }
  get terminal(): string | undefined {
    return this.detected?.terminal;
  }
  toolKey(name: string): string {
    return this.detected?.toolKey ? this.detected.toolKey(name) : name;
  }
  correlator(run: RunContext): Correlator {
    return (this.detected ?? unplaced).correlator(run);
  }

  constructor(
    signatures: readonly NamedSignature[],
    /** The harness a detected name stands for (the registry's). */
    private readonly named: (name: string) => Harness,
  ) {
    this.detector = new HarnessDetector(signatures);
  }

  read(value: unknown): string | undefined {
    return this.detector.read(value);
  }
  settle(): string | undefined {
    return this.detector.settle();
  }
  get seen(): readonly string[] {
    return this.detector.seen;
  }

  /** Becomes the named harness, or, when none could be placed, the harness that keeps every record as `unknown`. */
  become(name: string | undefined): void {
    this.detected = name === undefined ? unplaced : this.named(name);
  }
}
