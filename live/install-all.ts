/**
 * `npm run live:install`: installs the live suite's agent CLIs into the cache (live/install.ts), pinned, or the
 * newest with LIVE_VERSIONS=latest. `.ci/run` calls it before `npm run test:live`; nothing else installs them.
 */
import { installAll, isInstalled } from './install.js';

const results = await installAll(process.env.LIVE_VERSIONS === 'latest' ? 'latest' : 'pinned', console.log);
for (const result of results)
  console.log(
    isInstalled(result) ? `live: ${result.cli.pkg}@${result.version}: ${result.dir}` : `live: ${result.reason}`,
  );
