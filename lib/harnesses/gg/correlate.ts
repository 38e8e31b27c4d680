/**
 * gg, which the core invokes directly: its purpose-built telemetry stream is carried verbatim,
 * one `gg` event per JSON line (docs/contract.md "gg telemetry"). gg's own mapping onto the
 * human-facing event types is not documented, so none is derived here; a line that is not
 * JSON is a warning, as for every harness.
 */
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { recordRows } from '../../kernel/record-table.js';
import { toolTable } from '../../kernel/tool-rules.js';

/** docs/contract.md "gg telemetry": every JSON line is one event, whatever its shape. */
export const records = recordRows({
  'any JSON': { handling: 'gg, the telemetry event verbatim', rules: { gg: 'gg telemetry: gg' } },
});

export function correlator(run: RunContext): Correlator {
  return {
    record(value) {
      run.emit({ type: 'gg', event: value });
      return records['any JSON'].rules.gg;
    },
    end() {},
  };
}

/** gg reports no tool calls of its own. */
export const tools = toolTable({});
