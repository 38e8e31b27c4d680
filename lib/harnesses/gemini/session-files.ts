/**
 * Where Gemini CLI's chat files are and which of them make one session (docs/harnesses/gemini.md "Session files"):
 * `<home>/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`, `<home>` being `GEMINI_CLI_HOME` when
 * set. A `--resume` in a later minute leaves a second file of the same session id (its metadata and the injected
 * context only; the continuation is appended to the first file): the files of one id are one session, the earliest
 * (by the start minute in its name) its main file, the others its parts. A subagent's conversation is
 * `chats/<parentSessionId>/<sessionId>.jsonl`, and a subagent's own subagents are under its id the same way.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isObject } from '../../kernel/json.js';
import type { SessionEnv, SessionLocation } from '../../kernel/session.js';
import { envDir } from '../../kernel/session.js';
import { filesIn, firstLine, namesIn } from '../../files/session-dirs.js';

const MAIN_FILE = /^session-.+\.jsonl$/;
const SUBAGENT_FILE = /^.+\.jsonl$/;

/** The `tmp` directory the projects' chats are in. */
function geminiTmp(home: string, env: SessionEnv): string {
  return join(envDir(env, 'GEMINI_CLI_HOME') ?? home, '.gemini', 'tmp');
}

/** The session id a file's metadata line names, else the id8 of its name. */
async function sessionIdOf(path: string): Promise<string> {
  const header = await firstLine(path);
  if (isObject(header) && typeof header.sessionId === 'string') return header.sessionId;
  return basename(path, '.jsonl').slice(-8);
}

/**
 * The project root the CLI recorded beside the chats a file is in (`<project>/.project_root`), if any: the session's
 * working directory, which no record names. Read synchronously: a reader's working directory is fixed when it is made.
 */
export function projectRootOf(path: string): string | undefined {
  // A main file is in `chats/`, a subagent's one level below it.
  const chats = basename(dirname(path)) === 'chats' ? dirname(path) : dirname(dirname(path));
  let root: string;
  try {
    root = readFileSync(join(dirname(chats), '.project_root'), 'utf8').trim();
  } catch {
    return undefined;
  }
  return root === '' ? undefined : root;
}

/** The subagents run under a session, theirs included, in name order (each directory visited once). */
async function subagentsOf(
  chats: string,
  id: string,
  visited = new Set<string>(),
): Promise<SessionLocation['subagents']> {
  if (visited.has(id)) return [];
  visited.add(id);
  const found: { id: string; path: string }[] = [];
  for (const path of await filesIn(join(chats, id), SUBAGENT_FILE)) {
    const agent = basename(path, '.jsonl');
    found.push({ id: agent, path }, ...(await subagentsOf(chats, agent, visited)));
  }
  return found;
}

/** The main files of a chats directory grouped by session id, each group in name (start) order. */
async function sessionsIn(chats: string, id8 = ''): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>();
  for (const path of await filesIn(chats, MAIN_FILE)) {
    if (!path.endsWith(`${id8}.jsonl`)) continue;
    const id = await sessionIdOf(path);
    groups.set(id, [...(groups.get(id) ?? []), path]);
  }
  return groups;
}

async function location(chats: string, id: string, files: string[]): Promise<SessionLocation> {
  const [path, ...parts] = files;
  const cwd = projectRootOf(path!);
  return { id, path: path!, subagents: await subagentsOf(chats, id), parts, ...(cwd === undefined ? {} : { cwd }) };
}

export async function* findGeminiSessions(home: string, env: SessionEnv): AsyncGenerator<SessionLocation> {
  const tmp = geminiTmp(home, env);
  for (const project of await namesIn(tmp, 'dir')) {
    const chats = join(tmp, project, 'chats');
    for (const [id, files] of await sessionsIn(chats)) yield await location(chats, id, files);
  }
}

/** A main file's session (its parts found beside it); a subagent's file is a session of its own. */
export async function locateGeminiSession(path: string): Promise<SessionLocation> {
  const name = basename(path);
  if (!MAIN_FILE.test(name)) {
    const chats = dirname(dirname(path));
    const id = basename(path, '.jsonl');
    return { id, path, subagents: await subagentsOf(chats, id), parts: [] };
  }
  const chats = dirname(path);
  const id = await sessionIdOf(path);
  // Only the files named with the same id8 can be its parts.
  const files = (await sessionsIn(chats, basename(path, '.jsonl').slice(-8))).get(id) ?? [];
  return location(chats, id, files.includes(path) ? files : [path]);
}
