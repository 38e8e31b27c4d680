/** `harness-events normalize`: a harness's raw output (FILE, standard input or --session) as normalized events. */
import type { Readable } from 'node:stream';
import { createNormalizer } from '../../runtime/normalizer.js';
import { serialize } from '../../transforms/serialize.js';
import { openInput, openMetrics, sameFile, statOf, type MetricsFile } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { publishing } from './jetstream.js';
import { formatOf, normalizeOptions, oneFile, parse } from './options.js';
import { otlpUrl, startExporting } from './otel.js';
import type { Exporting } from './otlp.js';
import { loadPretty, runPipeline, say } from './output.js';
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
  if (trace && values.publish !== undefined)
    throw new UsageError('--format trace writes the trace to standard output; --publish sends events (not both)');
  const pretty = format === 'pretty' ? await loadPretty(values, stdout) : undefined;
  const file = oneFile(positionals);
  const url = otlpUrl(values.otlp);
  // Before anything is opened: the metrics must not overwrite the input.
  if (values.metrics !== undefined && sameFile(values.metrics, statOf(file === undefined || file === '-' ? 0 : file))) {
    throw new UsageError(`--metrics ${values.metrics} is the input: it would be overwritten`);
  }
  const session = await sessionInput(values, file);
  const input = session?.input ?? (await openInput(file, stdin));
  let metrics: MetricsFile | undefined;
  let output;
  let exporting: Exporting | undefined;
  try {
    metrics = await openMetrics(values.metrics);
    output = publishing(values, values.harness!, () => normalizer.metrics);
    if (values.otlp !== undefined)
      exporting = await startExporting({
        url,
        kind: 'internal',
        // Read from a file, the run is over: the reading's clock is not the run's.
        clock: input === stdin ? 'observed' : 'harness',
        harness: values.harness === 'auto' ? undefined : values.harness,
        // What is printed: the records themselves with --format trace, else the events.
        pass: (record) => (trace ? record : record.kind === 'event' ? record.event : undefined),
      });
  } catch (error) {
    input.destroy();
    await metrics?.discard();
    throw error;
  }
  const objects = pretty !== undefined || values.publish !== undefined || exporting !== undefined;
  // Standard input may be a live harness (`claude ... | harness-events normalize`): do not hold text across a pause.
  const normalizer = createNormalizer({
    ...options,
    harness: session?.reader ?? options.harness,
    output: objects ? 'objects' : 'jsonl',
    idleFlushMs: input === stdin ? 200 : undefined,
    trace: trace || exporting !== undefined,
  });
  const print = pretty ? [pretty(normalizer.metrics)] : objects ? [serialize()] : [];
  let metricsWritten = true;
  let lost: string | undefined;
  const stages = [normalizer, ...(exporting ? [exporting.stage] : []), ...output(print)];
  const code = await runPipeline(input, stages, stdout, async () => {
    metricsWritten = (await metrics?.write(normalizer.metrics)) ?? true;
    lost = await exporting?.finish();
  });
  if (lost !== undefined) say(lost);
  return (metricsWritten && lost === undefined) || code !== 0 ? code : 1;
}
