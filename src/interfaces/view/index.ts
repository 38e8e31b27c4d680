export { prettyPrint, type PrettyOptions } from './pretty.js';
export { formatEvent, formatStatus, formatSummary, nest, type FormatOptions } from './format.js';
