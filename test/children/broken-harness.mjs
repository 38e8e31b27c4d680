// Preloaded into the CLI (node --import ./broken-harness.mjs bin/harness-events.js ...): adds a
// harness named "broken" whose every record becomes an event that breaks its schema, so that
// with --strict a stage throws mid-run, which no built-in harness does on any input.
import { harnesses } from '../../dist/harnesses/index.js';

harnesses.set('broken', {
  name: 'broken',
  records: {},
  tools: new Map(),
  correlator: (run) => ({
    record: () => (run.emit({ type: 'read' }), 'broken'),
    end() {},
  }),
});
