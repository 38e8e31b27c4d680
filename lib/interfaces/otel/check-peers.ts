/** The entry point's first import: without `@opentelemetry/api`, importing harness-events/otel fails here. */
import { needPeers } from '../peers.js';

needPeers('harness-events/otel', import.meta.url);
