/**
 * `harness: 'auto'`: a harness that becomes the one its stream turns out to be. The correlate
 * stage holds the first lines while a `HarnessDetector` (src/runtime/detect.ts) reads them, then makes
 * this object the detected harness and replays them; the classifier, which holds this same
 * object, then classifies with the detected harness's tool table.
 */
import { HarnessDetector } from './detect.js';
import type { Correlator, Harness, RunContext, ToolTable } from '../kernel/harness.js';
import { recordTable } from '../kernel/record-table.js';
import { toolTable } from '../kernel/tool-rules.js';

/** What a stream no harness's signature placed is read as: every record `unknown`, verbatim. */
const unplaced: Harness = {
  name: 'auto',
  records: {},
  tools: toolTable({}),
  correlator: (run: RunContext): Correlator => ({ record: recordTable(run, {}), end() {} }),
};

export class AutoHarness implements Harness {
  readonly detector = new HarnessDetector();
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

  /** Becomes `harness`, or, when none could be placed, the harness that keeps every record as `unknown`. */
  become(harness: Harness | undefined): void {
    this.detected = harness ?? unplaced;
  }
}
