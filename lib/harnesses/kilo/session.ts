/**
 * Kilo's session store, `$XDG_DATA_HOME/kilo/kilo.db`: OpenCode's schema and change log
 * (lib/harnesses/opencode/session.ts reads it), with Kilo's name, variable and tool table. The
 * one record OpenCode's log lacks, `message.part.removed.1` (Kilo's transient snapshot part), is a
 * row of the shared table.
 */
import { openCodeSessions } from '../opencode/session.js';
import { correlator } from './correlate.js';
import { tools } from './tools.js';

export const session = openCodeSessions({
  harness: 'kilo',
  // `kilo-<channel>.db` for other channels (the 7.7.9 bundle); `KILO_DB` names one.
  layout: { dir: 'kilo', names: /^kilo(-[\w.-]+)?\.db$/, dbEnv: 'KILO_DB' },
  stdoutCorrelator: correlator,
  tools,
});
