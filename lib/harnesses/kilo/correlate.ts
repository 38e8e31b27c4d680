/**
 * Kilo Code CLI, `kilo run --format json`: a fork of OpenCode that writes OpenCode's stream,
 * so docs/harnesses/kilo.md is docs/harnesses/opencode.md plus numbered differences. This table restates OpenCode's
 * rows
 * where a difference speaks to them; the rules, and the correlator that applies them, are
 * OpenCode's (lib/harnesses/opencode/correlate.ts): each difference on this side is either a tool
 * row (tools.ts) or a behaviour OpenCode's rules already have, pinned by Kilo's own tests.
 */
import { recordRows } from '../../kernel/record-table.js';
import { openCodeCorrelator, records as opencode } from '../opencode/correlate.js';

/** docs/harnesses/kilo.md: docs/harnesses/opencode.md "Normalized mapping", with the rows its differences restate. */
export const records = recordRows({
  ...opencode,
  step_finish: {
    ...opencode.step_finish,
    handling:
      "consumed; this step's usage (`part.tokens`, all five classes, zeros included, and `part.cost`) is a usage " +
      "event, summed into the run's metrics; `part.metrics` (generation speed) is telemetry, consumed " +
      '(differences 3, 4)',
  },
  tool_use: {
    ...opencode.tool_use,
    handling:
      "the events its tool classifies to (Kilo's tool table: differences 1, 2, 6, 7), then, for a call the " +
      'permission config refused, a `permission_denied` warning; a part id already seen is consumed',
  },
  error: {
    ...opencode.error,
    handling:
      "error: OpenCode's `{name, data}` (message = `data.message`, else `name`; code = `name`), or a plain string " +
      "Kilo's `run` writes itself, which is the message; every one sets `is_error` (difference 5)",
  },
});

export const correlator = openCodeCorrelator('Kilo');
