// Preloaded by bench/run.ts's start-up case (node --require) into both `node -e 0` and the CLI: on exit, the
// process's own CPU time (getrusage: user + system), in milliseconds.
process.on('exit', () => {
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String((userCPUTime + systemCPUTime) / 1000));
});
