/** A command line the CLI cannot run: it says why on one line and exits 2. */
export class UsageError extends Error {}
