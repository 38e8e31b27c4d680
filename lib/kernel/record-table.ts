/**
 * The first table of every harness page, "Raw event stream": dispatch on a record's top-level
 * `type`. Each row is data (what the page says the record is, and the names of the rules that
 * handle it), so the reference in docs/harnesses/ is generated from the same table the code
 * runs, and tests name rules from it rather than copying strings. A parsed line that is not an
 * object with a string `type`, or whose type the table lacks, is `unknown` carrying it
 * verbatim (docs/contract.md: nothing is lost), under rule names every harness shares.
 *
 * A row keyed `<prefix>*` is a family the page names as a whole (Copilot's "every
 * `permission.` type"): it takes each type that starts with the prefix and has no row of its
 * own, the longest prefix first.
 */
import type { RunContext } from './harness.js';
import { isObject, type JsonObject } from './json.js';

/** One row as the spec page words it: its handling, and each rule's sentence under a short key. */
export interface RowSpec {
  /** The spec page's handling of the record, in its words. */
  readonly handling: string;
  /** Each rule this row applies: a short key (what the rule is for) and the rule's sentence. */
  readonly rules: Readonly<Record<string, string>>;
}

/** One row of a "Raw event stream" table, as the code runs it (`recordRows` makes it from a `RowSpec`). */
export interface RecordRow {
  /** The spec page's handling of the record, in its words. */
  readonly handling: string;
  /**
   * Each rule's stable id, `<row>:<key>` (`thread.started:session`): what a rule returns, the key
   * of `metrics.input.rules` and the audit trail's name (`onLine`). Rewording a sentence keeps it.
   */
  readonly rules: Readonly<Record<string, string>>;
  /** Each rule's sentence, by the same keys: what the generated docs show beside the id. */
  readonly descriptions: Readonly<Record<string, string>>;
  /**
   * The ids of the rules that keep their record verbatim as an `unknown` event (their sentence's outcome is
   * `unknown`): what the lossless check holds every such line to.
   */
  readonly verbatim: readonly string[];
}

/** A "Raw event stream" table: one row per record `type`. */
export type RecordRows = Readonly<Record<string, RecordRow>>;

/** The rows of a table as `recordRows` gives them: every rule key's id typed as its literal. */
type RowsWithIds<Specs extends Readonly<Record<string, RowSpec>>> = {
  readonly [Row in keyof Specs & string]: {
    readonly handling: string;
    readonly rules: { readonly [Key in keyof Specs[Row]['rules'] & string]: `${Row}:${Key}` };
    readonly descriptions: Specs[Row]['rules'];
    readonly verbatim: readonly string[];
  };
};

/**
 * A table as the spec page words it, with a stable id for each rule (`<row>:<key>`); a row
 * that already has ids (spread from another harness's table) keeps them.
 */
export function recordRows<const Specs extends Readonly<Record<string, RowSpec>>>(specs: Specs): RowsWithIds<Specs> {
  const rows: Record<string, RecordRow> = {};
  for (const [row, spec] of Object.entries(specs)) {
    if ('descriptions' in spec) {
      rows[row] = spec as RecordRow;
      continue;
    }
    const rules = Object.fromEntries(Object.keys(spec.rules).map((key) => [key, `${row}:${key}`]));
    const verbatim = Object.keys(spec.rules)
      .filter((key) => spec.rules[key]!.endsWith(': unknown'))
      .map((key) => rules[key]!);
    rows[row] = { handling: spec.handling, rules, descriptions: spec.rules, verbatim };
  }
  return rows as RowsWithIds<Specs>;
}

/** Handles one record; returns the id of the rule it applied (one of its row's `rules`). */
export type RecordRule = (record: JsonObject) => string;

/** One handler per row of a record table. */
export type RecordHandlers<Rows extends RecordRows> = { readonly [Type in keyof Rows]: RecordRule };

const sharedSpecs = {
  'blank line': { handling: 'consumed', rules: { blank: 'blank line' } },
  'not JSON': { handling: 'warning (code `not_json`) carrying the line', rules: { warning: 'not JSON -> warning' } },
  'too long': {
    handling: 'warning (code `line_too_long`) giving its length; its content is skipped',
    rules: { warning: 'line too long -> warning' },
  },
  'not a typed object': {
    handling: 'unknown (JSON that is not an object with a string `type`)',
    rules: { unknown: 'not a typed object: unknown' },
  },
  'any other type': { handling: 'unknown', rules: { unknown: 'other type: unknown' } },
} as const;

// sharedRecords' type is named, not inferred, so the API reference shows it as declared, not expanded row by row.
/**
 * The rows every harness shares: what the line splitter, the parser and the dispatch itself handle (`blank line`,
 * `not JSON`, `too long`, `not a typed object`, `any other type`; each harness's page lists them with their rules).
 * Spread it into a table of your own so its ids are the ones every harness uses.
 */
export const sharedRecords: RowsWithIds<typeof sharedSpecs> = recordRows(sharedSpecs);

/** Every rule id of a table, for an audit of which rule handled each line. */
export function ruleNames(...tables: RecordRows[]): string[] {
  return tables.flatMap((rows) => Object.values(rows).flatMap((row) => Object.values(row.rules)));
}

/** The ids of the rules of these tables that keep their record verbatim as an `unknown` event. */
export function verbatimRules(...tables: RecordRows[]): Set<string> {
  return new Set(tables.flatMap((rows) => Object.values(rows).flatMap((row) => row.verbatim)));
}

/** A record's row: its top-level `type`, for the harnesses whose records have one. */
const typeOf = (record: JsonObject): string | undefined => (typeof record.type === 'string' ? record.type : undefined);

/**
 * The dispatch of a correlator's `record`: each parsed line goes to its row's handler by the record's `type` (or by
 * `rowOf`), and a line that is not a typed object, or whose type has no row, is an `unknown` event carrying it. It
 * returns the id of the rule that handled the line.
 */
export function recordTable<Rows extends RecordRows>(
  run: RunContext,
  handlers: RecordHandlers<Rows>,
  /**
   * Runs before every line is handled (the record, or undefined when the line is not a typed object): a flush, a
   * session id.
   */
  before?: (record: JsonObject | undefined) => void,
  /**
   * The row an object belongs to, undefined when it has none: its `type` unless the harness says otherwise (ACP's
   * JSON-RPC messages).
   */
  rowOf: (record: JsonObject) => string | undefined = typeOf,
): (value: unknown) => string {
  // A Map, so a record typed `constructor` finds no handler of Object's.
  const rows = new Map<string, RecordRule>(Object.entries(handlers));
  const families = [...rows]
    .filter(([type]) => type.endsWith('*'))
    .map(([type, rule]) => [type.slice(0, -1), rule] as const)
    .sort(([a], [b]) => b.length - a.length);
  const family = (type: string) => families.find(([prefix]) => type.startsWith(prefix))?.[1];
  return (value) => {
    const type = isObject(value) ? rowOf(value) : undefined;
    if (!isObject(value) || type === undefined) {
      before?.(undefined);
      run.emit({ type: 'unknown', raw: value });
      return sharedRecords['not a typed object'].rules.unknown;
    }
    before?.(value);
    const rule = rows.get(type) ?? family(type);
    if (rule) return rule(value);
    run.emit({ type: 'unknown', raw: value });
    return sharedRecords['any other type'].rules.unknown;
  };
}
