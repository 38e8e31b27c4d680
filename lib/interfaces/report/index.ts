/**
 * The run report: HTML or Markdown from a run's events and metrics. Needs the optional peers picocolors and
 * wrap-ansi.
 *
 * @module harness-events/report
 */
// First: without its packages, the import fails here with one line, before anything loads them.
import './check-peers.js';
export {
  buildReport,
  parseMetrics,
  type Report,
  type ReportOptions,
  type ReportSummary,
  type Timeline,
  type TimelineItem,
  type FileRow,
  type CommandRow,
} from './model.js';
export { reportHtml, reportHtmlChunks } from './html.js';
export { reportMarkdown } from './markdown.js';
