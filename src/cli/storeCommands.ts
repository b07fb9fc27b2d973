/**
 * The store commands (exec, history, restore, expire, checkpoints, rewind), bundled on their own as
 * dist/cli-store.js: the entry, dist/cli.js, is then only the dispatcher, so `mcp` and `run` never
 * compile them, and each is loaded through the V8 code cache (codeCache.ts).
 */
export { execCommand } from './exec';
export { historyCommand } from './history';
export { restoreCommand } from './restore';
export { expireCommand } from './expire';
export { checkpointsCommand, rewindCommand } from './checkpoints';
