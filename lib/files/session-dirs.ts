/**
 * Directory walking for the session formats: a directory that is not there lists nothing. A symbolic link is
 * followed (a project directory or a transcript linked into the agent's tree is listed as what it points at); a link
 * that leads back to a directory the walk is already in is not.
 */
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** The names in `dir` that are files (or directories, with `kind: 'dir'`); none when `dir` cannot be read. */
export async function namesIn(dir: string, kind: 'file' | 'dir' = 'file'): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    const names: string[] = [];
    for (const entry of entries) {
      if (
        entry.isSymbolicLink()
          ? await linkIs(dir, entry.name, kind)
          : kind === 'dir'
            ? entry.isDirectory()
            : entry.isFile()
      )
        names.push(entry.name);
    }
    return names.sort();
  } catch {
    return [];
  }
}

/**
 * Whether the link `name` in `dir` leads to a file (or a directory) there is; a directory link whose target holds
 * `dir` (a loop: the walk would go round it as deep as it goes) is not followed.
 */
async function linkIs(dir: string, name: string, kind: 'file' | 'dir'): Promise<boolean> {
  const target = await stat(join(dir, name)).catch(() => undefined);
  if (target === undefined) return false;
  if (kind === 'file') return target.isFile();
  if (!target.isDirectory()) return false;
  const [real, here] = await Promise.all([realpath(join(dir, name)), realpath(dir)]);
  return !`${here}/`.startsWith(`${real}/`);
}

/** The paths of the files in `dir` whose names match `pattern`, sorted. */
export async function filesIn(dir: string, pattern: RegExp): Promise<string[]> {
  return (await namesIn(dir)).filter((name) => pattern.test(name)).map((name) => join(dir, name));
}

/** The subagent transcripts `agent-<agentId>.jsonl` in `dir` (Claude Code's and Qwen Code's), by agent id. */
export async function agentFiles(dir: string): Promise<{ id: string; path: string }[]> {
  return (await filesIn(dir, /^agent-.+\.jsonl$/)).map((file) => ({
    id: basename(file, '.jsonl').slice('agent-'.length),
    path: file,
  }));
}

/** A file's first line, parsed (session headers); undefined when it is empty, not JSON, or cannot be read. */
export async function firstLine(path: string): Promise<unknown> {
  const stream = createReadStream(path, { highWaterMark: 1 << 16 });
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      if (text.includes('\n') || text.length > FIRST_LINE_LIMIT) break;
    }
  } catch {
    // Unreadable (its mode, or deleted since it was listed): the caller goes on without its header.
    return undefined;
  } finally {
    stream.destroy();
  }
  try {
    return JSON.parse(text.split('\n', 1)[0]!);
  } catch {
    return undefined;
  }
}

/** A header longer than this (Codex's session_meta with its system prompt is ~22 KB) is not read. */
const FIRST_LINE_LIMIT = 4 << 20;

/** `map` applied to each item, at most `limit` at a time, the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await map(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
