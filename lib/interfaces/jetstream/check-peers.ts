/** The entry point's first import: without its packages, importing harness-events/jetstream fails here, in one line. */
import { needPeers } from '../peers.js';

needPeers('harness-events/jetstream', import.meta.url);
