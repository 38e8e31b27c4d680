/**
 * An OTLP/HTTP (JSON) exporter ready for harness-events/otel's sink: the SDK's provider, a batch processor and the
 * exporter, configured by a URL and the standard OTEL_EXPORTER_OTLP_* variables. Its packages are optional peer
 * dependencies: importing this without them fails at once, naming what to install (lib/interfaces/peers.ts).
 *
 * @module harness-events/otlp
 */
// First: without its packages, the import fails here with one line, before anything loads them.
import './check-peers.js';
export { otlpExport, tracesUrl, type OtlpExport, type OtlpExportOptions } from './exporter.js';
