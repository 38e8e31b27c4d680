import type { Harness, ToolCallFields } from './harness.js';

/**
 * A finished (or abandoned) tool call, as the correlator hands it to the classifier: what the
 * harness asked for and what it reported back, before the tool table decides what it is.
 */
export class ToolCall {
  /** The harness's id for the call, when it has one (Claude Code's and Qwen Code's `tool_use` id). */
  readonly id: string | undefined;
  /** The tool's name as the harness gave it. */
  readonly name: string;
  /** The tool's input, verbatim (not necessarily an object). */
  readonly input: unknown;
  /** Unset when the harness reported no outcome (a call still waiting at the end of input). */
  readonly is_success: boolean | undefined;
  /** A shell call's exit code, when the harness reports one. */
  readonly exit_code: number | undefined;
  /** The directory the call ran in, when the harness reports one. */
  readonly working_directory: string | undefined;
  /** Result metadata a row may need (Claude's `tool_use_result`, OpenCode's `state.metadata`). */
  readonly result: unknown;
  /** What the tool returned to the model, when the harness reports it. */
  readonly output: unknown;
  /** The harness output the call came from, verbatim, for an `unknown` event. */
  readonly raw: unknown;

  constructor(
    fields: ToolCallFields,
    /** The run's working directory when the call was observed. */
    readonly cwd: string | undefined,
    /** When the call was observed: its events' `timestamp`. */
    readonly timestamp: string,
    /** The run's session id when the call was observed, if known. */
    readonly session_id: string | undefined,
    /** The run's home directory, which `~` in a path means (docs/contract.md "Paths"); unset: this process's. */
    readonly home?: string,
    /** The harness whose tool table classifies it: the correlator's, so the classifier needs none of its own. */
    readonly harness?: Harness,
  ) {
    // Field by field, not spread: one of these per tool call, so the shape stays fixed and cheap.
    this.id = fields.id;
    this.name = fields.name;
    this.input = fields.input;
    this.is_success = fields.is_success;
    this.exit_code = fields.exit_code;
    this.working_directory = fields.working_directory;
    this.result = fields.result;
    this.output = fields.output;
    this.raw = fields.raw;
  }

  /** The same call with another input: for a row that hands part of its input to another row. */
  withInput(input: unknown): ToolCall {
    return this.with({ input });
  }

  /**
   * The same call with some fields replaced: for a row that reads more from the result than the correlator did (an exit
   * code in its text).
   */
  with(fields: Partial<ToolCallFields>): ToolCall {
    return new ToolCall({ ...this, ...fields }, this.cwd, this.timestamp, this.session_id, this.home, this.harness);
  }
}
