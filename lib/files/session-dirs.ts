/** Directory walking for the session formats: a directory that is not there lists nothing. */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** The names in `dir` that are files (or directories, with `kind: 'dir'`); none when `dir` cannot be read. */
export async function namesIn(dir: string, kind: 'file' | 'dir' = 'file'): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => (kind === 'dir' ? entry.isDirectory() : entry.isFile()))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
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

/** A file's first line, parsed (session headers); undefined when it is empty or not JSON. */
export async function firstLine(path: string): Promise<unknown> {
  const stream = createReadStream(path, { highWaterMark: 1 << 16 });
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      if (text.includes('\n') || text.length > FIRST_LINE_LIMIT) break;
    }
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
