/** The entry point's first import: without the OTel SDK and exporter, importing harness-events/otlp fails here. */
import { needPeers } from '../peers.js';

needPeers('harness-events/otlp', import.meta.url);
