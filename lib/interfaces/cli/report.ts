/** `harness-events report`: the HTML page or Markdown summary of one run. */
import { resolve } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import type { HarnessEvent } from '../../kernel/events.js';
import { createNormalizer } from '../../runtime/normalizer.js';
import { readEvents } from '../../runtime/read-events.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { isTraceInput, readTrace } from '../trace-input.js';
import { openInput, openOutput, readMetrics, sameFile, statOf, writeChunks } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { formatOf, normalizeOptions, oneFile, parse } from './options.js';
import { runPipeline } from './output.js';
import { sessionInput } from './session-input.js';
import { UsageError } from './usage-error.js';

/** Reads the whole run (normalized events, a trace, or raw output with --harness), then writes its report. */
export async function reportCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'report');
  if (values.help) return writeHelp(stdout, commandHelp('report'));
  const format = formatOf(values, ['html', 'md']);
  // Its modules, not harness-events/report's entry point, which first checks that the peers this bundle carries are
  // installed.
  const [{ buildReport, parseMetrics }, { reportHtmlChunks }, { reportMarkdown }] = await Promise.all([
    import('../report/model.js'),
    import('../report/html.js'),
    import('../report/markdown.js'),
  ]);
  if (values.harness !== undefined && values.metrics !== undefined)
    throw new UsageError(
      '--metrics reads the metrics of normalized events; with --harness they come from the input itself',
    );
  const session = await sessionInput(values, oneFile(positionals));
  const normalizer =
    values.harness === undefined
      ? undefined
      : createNormalizer({ ...normalizeOptions(values), ...(session && { harness: session.reader }) });
  const metrics = normalizer?.metrics ?? (await readMetrics(values.metrics, parseMetrics));
  const file = oneFile(positionals);
  if (
    values.output !== undefined &&
    session === undefined &&
    sameFile(values.output, statOf(file === undefined || file === '-' ? 0 : file))
  )
    throw new UsageError(`-o ${values.output} is the input: it would be overwritten`);
  // Before the input is read: a report that cannot be written is said at once.
  const output = values.output === undefined ? undefined : await openOutput(values.output, 'the report');
  let input;
  try {
    input = session?.input ?? (await openInput(file, stdin));
  } catch (error) {
    await output?.discard();
    throw error;
  }
  const records: (HarnessEvent | TraceRecord)[] = [];
  const collect = new Writable({
    objectMode: true,
    write(record: HarnessEvent | TraceRecord, _encoding, done) {
      records.push(record);
      done();
    },
  });
  const reader = normalizer ?? ((await isTraceInput(input)) ? readTrace() : readEvents());
  const code = await runPipeline(input, [reader], collect, async () => {});
  if (code === 1) {
    await output?.discard();
    return code;
  }
  const model = buildReport(records as HarnessEvent[] | TraceRecord[], { metrics, cwd: resolve(values.cwd ?? '.') });
  const text = format === 'md' ? [reportMarkdown(model)] : reportHtmlChunks(model);
  if (output === undefined) await writeChunks(stdout, text);
  else if (!(await output.write(text))) return 1;
  return code;
}
