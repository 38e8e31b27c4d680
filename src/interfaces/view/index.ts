export { prettyPrint, type PrettyOptions } from './pretty.js';
export { formatEvent, formatStatus, formatSummary, type FormatOptions } from './format.js';
export { Nesting } from './nesting.js';
