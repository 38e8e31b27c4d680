/**
 * `harness-events otel [FILE]`: a saved trace stream (`normalize --format trace`) exported as OpenTelemetry GenAI
 * spans over OTLP/HTTP JSON; and `--otlp URL` checked for normalize and run, which load the exporter (otlp.ts) only
 * when it is asked for.
 */
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { compose, toTransform, type Sink, type Stage } from '../../kernel/stage.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { trace as isTraceRecord } from '../../kernel/validators.js';
import { BLANK, NotJson, parseJson, type Parsed } from '../../transforms/parse-json.js';
import { LineTooLong, splitLines } from '../../transforms/split-lines.js';
import { openInput } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { oneFile } from './options.js';
import { runPipeline, say } from './output.js';
import { UsageError } from './usage-error.js';
import type { Exporting, ExportingOptions } from './otlp.js';

/** `--otlp`'s value, checked: an http(s) URL. */
export function otlpUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new UsageError(`--otlp takes the collector's http(s) URL (e.g. http://localhost:4318), got "${text}"`);
  return text;
}

/** The exporter, loaded now (its chunk carries the OTel SDK). */
export async function startExporting(options: ExportingOptions): Promise<Exporting> {
  const { exporting } = await import('./otlp.js');
  return exporting(options);
}

/** JSONL trace records in; valid ones out. A line that is not one is said on stderr (with its number) and skipped. */
function traceReader(sink: Sink<TraceRecord>): Stage<Parsed> {
  let line = 0;
  const skip = (why: string) => say(`line ${line}: ${why}; skipped`);
  return {
    write(parsed) {
      if (parsed === BLANK || parsed instanceof NotJson || parsed instanceof LineTooLong || 'value' in parsed) line++;
      if (parsed === BLANK) return;
      if (parsed instanceof NotJson) return skip('not JSON');
      if (parsed instanceof LineTooLong) return skip(`${parsed.bytes} bytes long`);
      if (!('value' in parsed)) return;
      if (isTraceRecord(parsed.value)) return sink(parsed.value as TraceRecord);
      skip('not a trace record (schemas/trace.schema.json)');
    },
    end() {},
  };
}

/** `harness-events otel [--otlp URL] [FILE]`. */
export async function otelCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { otlp: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return writeHelp(stdout, commandHelp('otel'));
  const url = otlpUrl(parsed.values.otlp);
  const input = await openInput(oneFile(parsed.positionals), stdin);
  // A saved trace is read back: its observed times are not the run's.
  const exporting = await startExporting({ url, kind: 'internal', clock: 'harness', pass: () => undefined });
  const reader = toTransform<Buffer, TraceRecord>(compose(splitLines.stage({}), parseJson.stage(), traceReader), {
    bytesIn: true,
  });
  let lost: string | undefined;
  const code = await runPipeline(input, [reader, exporting.stage], stdout, async () => {
    lost = await exporting.finish();
  });
  if (lost === undefined) return code;
  say(lost);
  return code === 0 ? 1 : code;
}
