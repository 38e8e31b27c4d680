/**
 * The files the CLI reads and writes: its input (a file, a FIFO, standard input), and what it writes at its end
 * (--metrics, report -o), opened before the work starts so that a path that cannot be written is a usage error at once.
 */
import {
  closeSync,
  createReadStream,
  fstat as fstatCallback,
  fstatSync,
  open as openCallback,
  statSync,
  type Stats,
} from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { RunMetrics } from '../../kernel/events.js';
import { UsageError } from './usage-error.js';
import { say } from './output.js';

const openFile = promisify(openCallback);
const fstat = promisify(fstatCallback);

/** FILE, or standard input for none or "-"; a file that cannot be read is a usage error. */
export async function openInput(file: string | undefined, stdin: Readable): Promise<Readable> {
  if (file === undefined || file === '-') return stdin;
  let fd: number | undefined;
  try {
    // Opening a FIFO waits for its writer.
    fd = await openFile(file, 'r');
    const stats = await fstat(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
    // A FIFO or a socket is read as a pipe: a file read would wait for an idle writer, even after Ctrl-C.
    if (stats.isFIFO() || stats.isSocket()) return new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
  }
  // A plain descriptor: fs.ReadStream's callback reads are cheaper than a FileHandle's promises.
  return createReadStream('', { fd, highWaterMark: 1 << 18 });
}

/** A path's (or an open descriptor's) stats; undefined when there is nothing there. */
export function statOf(target: string | number): Stats | undefined {
  try {
    return typeof target === 'number' ? fstatSync(target) : statSync(target);
  } catch {
    return undefined;
  }
}

export function sameFile(path: string, other: Stats | undefined): boolean {
  const stats = statOf(path);
  return (
    stats !== undefined && other !== undefined && stats.isFile() && stats.dev === other.dev && stats.ino === other.ino
  );
}

interface OutputFile {
  /** Replaces the file's content with `text`, and closes it; false (said in one line on stderr) when it could not. */
  write(text: string | Iterable<string>): Promise<boolean>;
  /** A usage error came after all: closes the file, and removes it if opening it created it. */
  discard(): Promise<void>;
}

/**
 * Opens a file the command writes at its end (--metrics, report -o) before any work starts, so a path that cannot be
 * written is a usage error at once, not a stack trace after the run. Opened for appending, so nothing is lost until it
 * is written; a write that fails then (ENOSPC: /dev/full) is one line on stderr.
 */
export async function openOutput(file: string, what: string): Promise<OutputFile> {
  const created = statOf(file) === undefined;
  let handle;
  try {
    handle = await open(file, 'a');
  } catch (error) {
    throw new UsageError(`cannot write ${what} to ${file}: ${errorCode(error)}`);
  }
  const opened = handle;
  const regular = (await opened.stat()).isFile();
  return {
    async write(text) {
      try {
        if (regular) await opened.truncate(0);
        for (const chunk of batches(typeof text === 'string' ? [text] : text)) await opened.write(chunk);
        await opened.close();
        return true;
      } catch (error) {
        await opened.close().catch(() => {});
        say(`cannot write ${what} to ${file}: ${errorCode(error)}`);
        return false;
      }
    },
    async discard() {
      await opened.close();
      if (created) await rm(file, { force: true });
    },
  };
}

/** Pieces joined up to about 1 MiB: one write each, and never one string of the whole. */
function* batches(chunks: Iterable<string>): Generator<string> {
  let batch = '';
  for (const chunk of chunks) {
    batch += chunk;
    if (batch.length >= 1 << 20) {
      yield batch;
      batch = '';
    }
  }
  if (batch !== '') yield batch;
}

/** Writes the pieces to a stream at its pace. */
export async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  for (const chunk of batches(chunks)) {
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export interface MetricsFile extends Pick<OutputFile, 'discard'> {
  write(metrics: RunMetrics): Promise<boolean>;
}

/** --metrics: opened at once, written when the input ends. */
export async function openMetrics(file: string | undefined): Promise<MetricsFile | undefined> {
  if (file === undefined) return undefined;
  const output = await openOutput(file, 'the metrics');
  return { write: (metrics) => output.write(JSON.stringify(metrics, null, 2) + '\n'), discard: output.discard };
}

/**
 * Writes the metrics to `file` at once (replay's, which come at the end); `run` and `normalize` open theirs before they
 * start.
 */
export async function writeMetrics(file: string | undefined, metrics: RunMetrics): Promise<boolean> {
  return (await (await openMetrics(file))?.write(metrics)) ?? true;
}

/** `report --metrics`: the metrics `normalize` or `run` wrote; a file that is not run metrics is a usage error. */
export async function readMetrics(
  file: string | undefined,
  parseMetrics: (text: string) => RunMetrics | string,
): Promise<RunMetrics | undefined> {
  if (file === undefined) return undefined;
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${errorCode(error)}`);
  }
  const metrics = parseMetrics(text);
  if (typeof metrics === 'string') throw new UsageError(`${file} is not run metrics: ${metrics}`);
  return metrics;
}
