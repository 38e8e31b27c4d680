// A process that only SIGKILL ends, as a tool an agent started may be. It says so on stdout once
// its SIGTERM handler is in place, and again for each SIGTERM it ignores:
// {"stubborn":"ready","pid":N} then {"stubborn":"SIGTERM","pid":N}
const say = (state) => process.stdout.write(JSON.stringify({ stubborn: state, pid: process.pid }) + '\n');
// Its reader may be gone by then: that must not end it either.
process.stdout.on('error', () => {});
process.on('SIGTERM', () => say('SIGTERM'));
say('ready');
setInterval(() => {}, 1 << 30);
