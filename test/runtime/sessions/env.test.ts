/**
 * The variables that move an agent's files (each harness's docs page names its own): a capture's
 * session folder moved out of the home is found through the variable, with the same entries.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { findSessions, type FindSessionsOptions, type SessionEntry } from '../../../lib/runtime/sessions/sessions.js';
import { transcripts } from './pairs.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-env-'));
  dirs.push(dir);
  return dir;
}

async function find(options: FindSessionsOptions): Promise<SessionEntry[]> {
  const found: SessionEntry[] = [];
  for await (const entry of findSessions(options)) found.push(entry);
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** `[harness, fixtures, scenario, the folder under the capture's home, the variable that moves it]` */
const moves = [
  ['claude-code', 'claude-code', 'subagent', '.claude', 'CLAUDE_CONFIG_DIR'],
  ['codex', 'codex', 'subagent', '.codex', 'CODEX_HOME'],
  ['copilot', 'copilot', 'resume', '.copilot', 'COPILOT_HOME'],
  ['pi', 'pi', 'files', '.pi/agent', 'PI_CODING_AGENT_DIR'],
  ['pi', 'pi', 'files', '.pi/agent/sessions', 'PI_CODING_AGENT_SESSION_DIR'],
  // A session directory given by hand may hold the files themselves, not one folder per project.
  ['pi', 'pi', 'files', '.pi/agent/sessions/--home-user-project--', 'PI_CODING_AGENT_SESSION_DIR'],
] as const;

describe('findSessions follows the variables that move the files', () => {
  test.each(moves)(
    '%s: %s/%s moved out of the home, named by %s',
    async (harness, fixtures, scenario, folder, name) => {
      const home = join(transcripts(fixtures, scenario), 'home');
      const inPlace = await find({ home, harness });
      expect(inPlace.length).toBeGreaterThan(0);
      const moved = join(temp(), 'moved');
      cpSync(join(home, folder), moved, { recursive: true });
      const found = await find({ home: temp(), harness, env: { [name]: moved } });
      const relative = (entries: SessionEntry[], root: string) =>
        entries.map((entry) => ({ ...entry, path: entry.path.slice(root.length), subagents: entry.subagents.length }));
      expect(relative(found, moved).map(({ path, id, cwd, started }) => ({ path, id, cwd, started }))).toEqual(
        relative(inPlace, join(home, folder)).map(({ path, id, cwd, started }) => ({ path, id, cwd, started })),
      );
      expect(found.map((entry) => entry.subagents.length)).toEqual(inPlace.map((entry) => entry.subagents.length));
    },
  );

  test("a home given is searched as the agents lay it out: the process's variables do not apply", async () => {
    const home = join(transcripts('claude-code', 'subagent'), 'home');
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = temp();
    try {
      expect(await find({ home, harness: 'claude-code' })).toHaveLength(1);
      // Without a home, the process's own variable is where the files are (here: an empty folder).
      expect(await find({ harness: 'claude-code' })).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
    }
  });
});
