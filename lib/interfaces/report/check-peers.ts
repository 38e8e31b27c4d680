/** The entry point's first import: without its packages, importing harness-events/report fails here, in one line. */
import { needPeers } from '../peers.js';

needPeers('harness-events/report', import.meta.url);
