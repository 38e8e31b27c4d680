/** A live scenario: what the scripted model does, and what the run must give. */
import type { EventBody, Tokens } from '../lib/kernel/events.js';
import type { Conversation, Turn } from '../lib/testing/index.js';
import type { Place } from './workspace.js';
import type { Permissions } from '../lib/kernel/permissions.js';

export interface Scenario {
  name: string;
  prompt: string;
  /**
   * The model's turns in the main conversation (the requests whose user text holds the prompt). Paths go through the
   * place: the workspace is temporary.
   */
  turns(place: Place): Turn[];
  /** Other conversations of the model, matched before the main one (a subagent's, by a marker in its prompt). */
  conversations?(place: Place): Conversation[];
  /** Extra workspace files. */
  files?: Record<string, string>;
  /** Extra arguments (the row places them on its command line). */
  args?: string[];
  /** What the agent may do without asking; default `'bypass'`, as the lab ran them. */
  permissions?: Permissions;
  /** The workspace must be unchanged afterwards: every file's hash the same, no file added or removed. */
  unchanged?: boolean;
  /** Extra environment. */
  env?: Record<string, string>;
  /** The exit code the CLI ends with. */
  exitCode: number;
  /**
   * The exact normalized events, without timestamps, session ids and stderr warnings, checked by hand against the
   * harness's spec page.
   */
  events(expect: Expected): EventBody[];
  /**
   * The other exact lists a CLI gives for the same run from one run to the next (a known flake of the CLI, named
   * where it is set): the run passes with `events` or one of these, never with anything else.
   */
  orEvents?: (expect: Expected) => EventBody[][];
  /** `events` in any order (sources that race: stdout, stderr, a file beside them), each exactly once. */
  unordered?: true;
  /** The run's token totals (metrics.tokens), where the scenario checks the usage mapping. */
  tokens?: Tokens;
  /**
   * The exact events of the session file the CLI wrote, read back with `readSession` (without timestamps and
   * session ids), checked by hand against the harness page's "Session" section like `events`.
   */
  session?: (expect: Expected) => EventBody[];
  /**
   * The files the run must leave, relative to the workspace, with their content (null: the file must not exist);
   * and every path the events name is then checked against the workspace (live/paths.ts): the agent really read,
   * wrote and ran there. `stdoutPaths: false` checks the session's events only (where stdout cannot tell).
   */
  leaves?: Record<string, string | null>;
  stdoutPaths?: false;
}

/** What expected events are written with. */
export interface Expected {
  /** An absolute path inside the run's workspace. */
  path(relative: string): string;
  readonly workspace: string;
  /** The scripted model's origin (it appears in some CLIs' error messages). */
  readonly url: string;
  /** The error event spawnHarness gives a non-zero exit. */
  exited(code: number): EventBody;
}
