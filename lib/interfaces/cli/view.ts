/**
 * `harness-events view`: normalized events or a saved trace (FILE, standard input, --session or --from) shown for a
 * person.
 */
import type { Readable } from 'node:stream';
import { createNormalizer } from '../../runtime/normalizer.js';
import { readEvents } from '../../runtime/read-events.js';
import { isTraceInput, readTrace } from '../trace-input.js';
import { openInput } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { storedEvents, writeStored } from './jetstream.js';
import { oneFile, parse } from './options.js';
import { loadPretty, runPipeline } from './output.js';
import { sessionInput } from './session-input.js';
import { UsageError } from './usage-error.js';

export async function viewCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'view');
  if (values.help) return writeHelp(stdout, commandHelp('view'));
  const pretty = await loadPretty(values, stdout);
  const stored = storedEvents(values, oneFile(positionals));
  if (stored) return await writeStored(stored, [pretty()], stdout);
  const session = await sessionInput(values, oneFile(positionals));
  if (session) {
    const normalizer = createNormalizer({ harness: session.reader });
    return await runPipeline(session.input, [normalizer, pretty(normalizer.metrics)], stdout, async () => {});
  }
  if (values.harness !== undefined) throw new UsageError('view takes --harness only with --session');
  const input = await openInput(oneFile(positionals), stdin);
  const reader = (await isTraceInput(input)) ? readTrace() : readEvents();
  return await runPipeline(input, [reader, pretty()], stdout, async () => {});
}
