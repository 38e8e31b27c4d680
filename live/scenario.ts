/** A live scenario: what the scripted model does, and what the run must give. */
import type { EventBody, Tokens } from '../lib/kernel/events.js';
import type { Turn } from '../lib/testing/index.js';
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
  /** The run's token totals (metrics.tokens), where the scenario checks the usage mapping. */
  tokens?: Tokens;
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
