// What `require('harness-events/view')` and `require('harness-events/report')` find: those two load their optional
// packages with a top-level await, which require() of an ES module cannot wait for (ERR_REQUIRE_ASYNC_MODULE). One
// line saying how to load them instead.
throw new Error(
  'harness-events/view and harness-events/report load their optional packages with a top-level await, which ' +
    "require() cannot wait for: use `import { prettyPrint } from 'harness-events/view'`, or `await " +
    "import('harness-events/view')` from CommonJS",
);
