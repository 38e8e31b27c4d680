/**
 * What an agent may do without asking: one vocabulary for every harness, which each harness maps
 * onto its own CLI (lib/runtime/command-lines.ts) or, for ACP, onto its answers to permission
 * requests. The default approves nothing: a library embedded in a service must not choose for its users.
 */

/**
 * The values of the `permissions` option, each with what it means (docs/library.md lists each CLI's flags per value).
 *
 * @enum
 */
export const permissionModes = {
  default:
    'approves nothing: no approving flag, and where the CLI approves by itself when headless, the switch that stops it',
  'read-only': 'the CLI runs its tools in a read-only sandbox, where it has one',
  plan: "the CLI's plan mode, where it has one: it plans and changes nothing",
  bypass: 'every tool call approved (the flags the lab captures and the live suite run with)',
  ask:
    'every tool call the agent would ask about goes to the onPermission callback, which decides it (Claude Code, ' +
    'Qwen Code, ACP agents)',
} as const;

/** What an agent may do without asking: a key of {@link permissionModes}; `default` approves nothing. */
export type Permissions = keyof typeof permissionModes;

/** Whether a value (from a command line, from plain JavaScript) is one of the vocabulary. */
export function isPermissions(value: unknown): value is Permissions {
  return typeof value === 'string' && Object.hasOwn(permissionModes, value);
}

/** The vocabulary as an error message lists it. */
export const permissionList = Object.keys(permissionModes)
  .map((mode) => `"${mode}"`)
  .join(', ');
