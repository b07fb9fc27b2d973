/** Public API of the memory engine. */
export { MemoryEngine } from './engine';
export { DEFAULT_MEMORY_ENGINE_OPTIONS, resolveMemoryEngineOptions, type MemoryEngineOptions } from './options';
export { MemoryError, isMemoryError } from './errors';
export { messages, COMMAND_NAMES, MAX_VIEW_LINES } from './messages';
export {
  parseMemoryPath,
  displayOf,
  isSameOrInside,
  MAX_PATH_CHARS,
  MAX_NAME_BYTES,
  TEMP_NAME_PREFIX,
  type MemoryPath,
} from './paths';
export { findSecrets, redactDeep, redactSecrets, redactText, summarizeRedactions, type Finding, type RedactionResult } from './redaction';
export { formatSize, numberLine } from './format';
export { MAX_IMAGE_BYTES, imageTypeOfPath, sniffImageType } from './images';
export { parseInput } from './input';
export { writeAtomically } from './atomicWrite';
export * from './types';
export * from './fileSystem';
export { AUTHORS, DEFAULT_HISTORY_RETENTION, mcpAuthor, historyRecordJson, type Author, type HistoryEntry, type HistoryOp, type HistoryRetention, type HistoryRecordJson } from './history/types';
export { HISTORY_FOLDER } from './history/historyStore';
export { undoPlanOf, fileHistoryOf, liveFiles, type UndoPlan } from './history/entries';
export { expiresAt, idleFiles, DAY_MS, DEFAULT_EXPIRY_DAYS, type ExpiredFile, type FileUse } from './history/expiry';
export { authorSubject, describeAuthor, describeChange, describeOp } from './history/describe';
