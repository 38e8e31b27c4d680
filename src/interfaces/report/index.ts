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
