/** The entry point's first import: without its packages, importing harness-events/view fails here, in one line. */
import { needPeers } from '../peers.js';

needPeers('harness-events/view', import.meta.url);
