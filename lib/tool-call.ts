/**
 * A finished (or abandoned) tool call, as the correlator hands it to the classifier: what the
 * harness asked for and what it reported back, before the tool table decides what it is.
 */
export class ToolCall {
  /** The tool's name as the harness gave it. */
  readonly name!: string;
  /** The tool's input, verbatim (not necessarily an object). */
  readonly input!: unknown;
  /** Unset when the harness reported no outcome (a call still waiting at the end of input). */
  readonly is_success?: boolean;
  readonly exit_code?: number;
  /** The directory the call ran in, when the harness reports one. */
  readonly working_directory?: string;
  /** Result metadata a row may need (Claude's `tool_use_result`, OpenCode's `state.metadata`). */
  readonly result?: unknown;
  /** The harness output the call came from, verbatim, for an `unknown` event. */
  readonly raw!: unknown;
  /** The run's working directory when the call was observed. */
  readonly cwd?: string;
  readonly timestamp!: string;
  readonly session_id?: string;

  constructor(fields: ToolCall) {
    Object.assign(this, fields);
  }
}
