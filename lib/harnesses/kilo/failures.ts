/** docs/harnesses/kilo.md "Failures": Kilo, OpenCode's fork, names its errors as OpenCode does. */
export { failures } from '../opencode/failures.js';
