/** `harness-events normalize`: a harness's raw output (FILE, standard input or --session) as normalized events. */
import type { Readable } from 'node:stream';
import { createNormalizer } from '../../runtime/normalizer.js';
import { serialize } from '../../transforms/serialize.js';
import { openInput, openMetrics, sameFile, statOf, type MetricsFile } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { publishing } from './jetstream.js';
import { formatOf, normalizeOptions, oneFile, parse } from './options.js';
import { loadPretty, runPipeline } from './output.js';
import { sessionInput } from './session-input.js';
import { UsageError } from './usage-error.js';

export async function normalizeCommand(
  args: string[],
  stdin: Readable,
  stdout: NodeJS.WritableStream,
): Promise<number> {
  const { values, positionals } = parse(args, 'normalize');
  if (values.help) return writeHelp(stdout, commandHelp('normalize'));
  const options = normalizeOptions(values);
  const format = formatOf(values, ['jsonl', 'pretty', 'trace']);
  const trace = format === 'trace';
  const pretty = format === 'pretty' ? await loadPretty(values, stdout) : undefined;
  const file = oneFile(positionals);
  // Before anything is opened: the metrics must not overwrite the input.
  if (values.metrics !== undefined && sameFile(values.metrics, statOf(file === undefined || file === '-' ? 0 : file))) {
    throw new UsageError(`--metrics ${values.metrics} is the input: it would be overwritten`);
  }
  const session = await sessionInput(values, file);
  const input = session?.input ?? (await openInput(file, stdin));
  let metrics: MetricsFile | undefined;
  let output;
  try {
    metrics = await openMetrics(values.metrics);
    output = publishing(values, values.harness!, () => normalizer.metrics);
  } catch (error) {
    input.destroy();
    await metrics?.discard();
    throw error;
  }
  const objects = pretty !== undefined || values.publish !== undefined;
  // Standard input may be a live harness (`claude ... | harness-events normalize`): do not hold text across a pause.
  const normalizer = createNormalizer({
    ...options,
    harness: session?.reader ?? options.harness,
    output: objects ? 'objects' : 'jsonl',
    // The live view takes the trace (each event under its agent, each call's duration); --publish sends its events.
    trace: trace || pretty !== undefined,
    idleFlushMs: input === stdin ? 200 : undefined,
  });
  const print = pretty ? [pretty(normalizer.metrics)] : objects ? [serialize()] : [];
  let metricsWritten = true;
  const code = await runPipeline(input, [normalizer, ...output(print)], stdout, async () => {
    metricsWritten = (await metrics?.write(normalizer.metrics)) ?? true;
  });
  return metricsWritten || code !== 0 ? code : 1;
}
