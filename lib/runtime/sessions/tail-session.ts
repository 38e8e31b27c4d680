/**
 * A followed session's files as one stream of whole lines: its main file, its further parts
 * (Gemini CLI's resume in a later minute) and, for a format that merges its subagents'
 * transcripts (Claude Code), each subagent file, each as it appears, interleaved as they are
 * written. Lines are never cut across files: each file's partial last line waits for
 * its end, and one longer than `LONG_LINE_BYTES` (1 MiB) is passed on as it comes, holding the
 * other files back until it ends, or until its file has brought nothing for a whole poll period: the line is then
 * cut there (a line that never ends, such as a subagent's last one left unfinished, must not stop the main file's
 * reading) and what comes after it is a line of its own.
 * The other files are looked for when the following starts, at the poll's pace (a directory
 * listing, not per line: Gemini CLI's lookup reads every chat file's first line) and once more
 * when the main file ends, which decides the end; the others are then read to their ends. A format that merges no
 * subagents and whose location names no parts (Codex, Copilot, pi) is located once: nothing it finds would be read.
 */
import type { SessionFormat } from '../../kernel/session.js';
import { LONG_LINE_BYTES } from './merge-lines.js';
import { TailNotice, tailFile, type TailOptions } from './tail.js';

interface Source {
  readonly path: string;
  readonly chunks: AsyncGenerator<Buffer | TailNotice>;
  /** The file's bytes after its last line break. */
  rest: Buffer[];
  restBytes: number;
  /** The file's partial line has been passed on: only this file is read until it ends. */
  open: boolean;
  /** Bytes came from it since the last poll tick: a long line still coming. */
  fresh: boolean;
  next?: Promise<{ source: Source; result: IteratorResult<Buffer | TailNotice> }>;
}

const NEWLINE = Buffer.from('\n');

interface SessionTailOptions extends Omit<TailOptions, 'ended'> {
  /** Whether the last record read ends the session (checked for the main file). */
  ended(): boolean;
}

export async function* tailSession(
  format: SessionFormat,
  path: string,
  options: SessionTailOptions,
): AsyncGenerator<Buffer | TailNotice> {
  // Ends the subagents' reading once the main file's has: each reads to its end, then stops.
  const finish = new AbortController();
  // Ends the main file's reading when this generator is left early (an error, or its reader gone).
  const stop = new AbortController();
  let lastActivity = Date.now();
  const sources: Source[] = [];
  const known = new Set<string>();
  const add = (file: string, from: 'start' | 'end' | undefined, main: boolean) => {
    known.add(file);
    const chunks = main
      ? tailFile(file, { ...options, from, finish: stop.signal, lastActivity: () => lastActivity })
      : tailFile(file, {
          ...options,
          from,
          finish: finish.signal,
          quietMs: Infinity,
          ended: () => false,
          onStart: undefined,
        });
    sources.push({ path: file, chunks, rest: [], restBytes: 0, open: false, fresh: false });
  };
  // The session's other files: its further parts (Gemini CLI's resume in a later minute), and its subagents' for a
  // format that merges them.
  let relocate = true;
  const discover = async (from: 'start' | 'end' | undefined) => {
    if (!relocate) return;
    const location = await format.locate(path).catch(() => undefined);
    relocate = format.mergesSubagents || location?.parts !== undefined;
    const agents = format.mergesSubagents ? (location?.subagents ?? []).map((agent) => agent.path) : [];
    for (const file of [...(location?.parts ?? []), ...agents]) if (!known.has(file)) add(file, from, false);
  };
  add(path, options.from, true);
  await discover(options.from);
  const main = sources[0]!;
  let mainDone = false;
  // A subagent's or a resume's file appears while the main file may be quiet: look for new ones at the poll's pace.
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<'tick'> | undefined;
  const nextTick = () =>
    (tick ??= new Promise((resolve) => (timer = setTimeout(() => resolve('tick'), options.pollMs))));
  try {
    while (sources.length > 0) {
      const exclusive = sources.find((source) => source.open);
      const waiting = (exclusive ? [exclusive] : sources).map(
        (source) => (source.next ??= source.chunks.next().then((result) => ({ source, result }))),
      );
      const first = await Promise.race<Awaited<Source['next']> | 'tick'>(
        !mainDone && options.signal?.aborted !== true ? [...waiting, nextTick()] : waiting,
      );
      if (first === 'tick') {
        tick = undefined;
        if (exclusive !== undefined && !exclusive.fresh) {
          // Its long line has stopped coming for a whole period: it is cut here, and the other files read on.
          yield NEWLINE;
          exclusive.open = false;
        }
        for (const source of sources) source.fresh = false;
        await discover('start');
        continue;
      }
      const { source, result } = first!;
      source.next = undefined;
      if (result.done === true) {
        // A file that ends inside a line: its rest goes on as the line it is.
        if (source.restBytes > 0 || source.open) yield Buffer.concat([...source.rest, NEWLINE]);
        sources.splice(sources.indexOf(source), 1);
        if (source === main) {
          mainDone = true;
          await discover('start');
          finish.abort();
        }
        continue;
      }
      lastActivity = Date.now();
      source.fresh = true;
      const chunk = result.value;
      if (chunk instanceof TailNotice) {
        if (source.restBytes > 0 || source.open) yield Buffer.concat([...source.rest, NEWLINE]);
        source.rest = [];
        source.restBytes = 0;
        source.open = false;
        yield chunk;
        continue;
      }
      const end = chunk.lastIndexOf(0x0a);
      if (end === -1 && (source.open || source.restBytes + chunk.length > LONG_LINE_BYTES)) {
        // A long line: what there is goes on now, and this file alone is read until the line ends.
        yield Buffer.concat([...source.rest, chunk]);
        source.rest = [];
        source.restBytes = 0;
        source.open = true;
        continue;
      }
      if (end === -1) {
        source.rest.push(chunk);
        source.restBytes += chunk.length;
        continue;
      }
      yield Buffer.concat([...source.rest, chunk.subarray(0, end + 1)]);
      source.rest = end + 1 < chunk.length ? [chunk.subarray(end + 1)] : [];
      source.restBytes = chunk.length - end - 1;
      source.open = false;
    }
  } finally {
    clearTimeout(timer);
    finish.abort();
    stop.abort();
    await Promise.all(sources.map((source) => source.chunks.return(undefined)));
  }
}
