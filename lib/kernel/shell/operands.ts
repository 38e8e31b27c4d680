/** A command's arguments read the getopt way. */
export interface Arguments {
  /** Positional operands: everything not a flag, and everything after `--`. */
  readonly operands: readonly string[];
  /** `[flag, value]` for each value flag and each `--flag=value`, in order. */
  readonly values: ReadonlyArray<readonly [string, string]>;
}

/**
 * Splits `args` into operands and flag values. `valueFlags` are the flags that take the next
 * argument as their value (a short one may also carry it attached: `-L2`); any other `-x` is a
 * switch. Unlike Codex, an operand after `--` counts even when it starts with `-`.
 */
export function parseArguments(args: readonly string[], valueFlags: readonly string[]): Arguments {
  const operands: string[] = [];
  const values: Array<readonly [string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      for (let j = i + 1; j < args.length; j++) operands.push(args[j]);
      break;
    }
    if (arg.startsWith('--') && arg.includes('=')) {
      const eq = arg.indexOf('=');
      values.push([arg.slice(0, eq), arg.slice(eq + 1)]);
    } else if (valueFlags.includes(arg)) {
      // A value flag with nothing after it takes nothing.
      if (i + 1 < args.length) values.push([arg, args[++i]]);
    } else if (arg.startsWith('-')) {
      const short = arg.slice(0, 2);
      if (arg.length > 2 && arg[1] !== '-' && valueFlags.includes(short)) values.push([short, arg.slice(2)]);
    } else {
      operands.push(arg);
    }
  }
  return { operands, values };
}

/** The value given to the first of `flags` that appears, if any. */
export function firstValue(parsed: Arguments, flags: readonly string[]): string | undefined {
  return parsed.values.find(([flag]) => flags.includes(flag))?.[1];
}
