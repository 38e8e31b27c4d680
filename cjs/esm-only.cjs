// What `require('harness-events')` (or a subpath of it) finds on a Node.js that cannot require an ES module (before
// 20.19 and 22.12, or with --no-experimental-require-module): one line saying how to load it instead. A Node.js that
// can resolves the `module-sync` condition first and gets the package.
throw new Error(
  "harness-events is an ES module: use `import { createNormalizer } from 'harness-events'`, or `await " +
    "import('harness-events')` from CommonJS, for its subpaths too (require() of it needs Node.js 20.19, 22.12 or " +
    'later)',
);
