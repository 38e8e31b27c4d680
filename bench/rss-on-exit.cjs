// Preloaded into the CLI by bench/run.ts (node --require): reports its peak RSS on exit.
process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS / 1024));
});
