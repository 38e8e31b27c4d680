/**
 * The pretty printer (a Transform: events in, text out) and its pure formatting. Needs the optional peers
 * log-update, picocolors and wrap-ansi.
 *
 * @module harness-events/view
 */
// First: without its packages, the import fails here with one line, before anything loads them.
import './check-peers.js';
export { prettyPrint, type PrettyOptions } from './pretty.js';
export { formatEvent, formatStatus, formatSummary, type FormatOptions } from './format.js';
export { Nesting } from './nesting.js';
export type { RunSummary, Totals, FileActivity } from '../summary.js';
