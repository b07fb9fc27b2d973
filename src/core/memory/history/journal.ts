/**
 * The history journal's on-disk record format (one segment file, `.meta/history/journal-<epoch>`,
 * is a sequence of these frames):
 *
 *   [u32 LE length][zlib stream of `length` bytes]
 *
 * The zlib stream (node:zlib deflate, whose trailer is an Adler-32 of the inflated bytes) holds
 * one JSON line (the record's metadata) then the record's body bytes. A frame is appended with
 * one O_APPEND write, the commit point of a version; a writer killed mid-write leaves a short
 * frame (its length runs past the end) or one whose checksum fails, and the reader stops there:
 * everything before is intact, the torn tail is ignored (and dropped by the next writer, which
 * rewrites the segment without it).
 *
 * Contents are stored as the copy history keeps (secrets redacted where the engine asks), either
 *   - `full`:  the bytes themselves,
 *   - `delta`: a unified diff (the `diff` library, no context lines) against the stored copy of
 *              an earlier version of the same file, checked to apply back to exactly these bytes,
 *   - `same`:  no body, the bytes of an earlier version (a rename, a delete, a restore).
 * A chain of deltas is cut by a full copy every FULL_EVERY versions, so reading any version
 * applies at most that many patches.
 */
import { applyPatch, createPatch } from 'diff';
import { deflateSync, inflateSync } from 'node:zlib';
import type { HistoryEntry } from './types';

/** At most this many deltas/references between a version and a full copy. */
export const FULL_EVERY = 24;
/** Contents larger than this are stored whole (a diff of huge texts costs more than it saves). */
const MAX_DELTA_BYTES = 512 * 1024;

export type Storage = { s: 'full' } | { s: 'delta'; b: number; d: number } | { s: 'same'; b: number; d: number };

/** A version as the journal holds it: its entry, how its content is stored, the body. */
export interface VersionRecord {
  k: 'v';
  entry: HistoryEntry;
  storage: Storage;
  body: Uint8Array;
}

/** Versions retention dropped: gone from every reader's list at once, gone from disk at the next compaction. */
export interface DropRecord {
  k: 'drop';
  versions: number[];
  /** The highest version number ever used (a compacted segment starts with it: numbers are never reused). */
  last?: number;
}

export type JournalRecord = VersionRecord | DropRecord;

const enc = new TextEncoder();
const dec = new TextDecoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeRecord(record: JournalRecord): Uint8Array {
  const meta = record.k === 'v' ? { k: 'v', e: record.entry, ...record.storage } : { k: 'drop', v: record.versions, ...(record.last !== undefined ? { last: record.last } : {}) };
  const head = enc.encode(`${JSON.stringify(meta)}\n`);
  const body = record.k === 'v' ? record.body : new Uint8Array(0);
  const plain = new Uint8Array(head.length + body.length);
  plain.set(head, 0);
  plain.set(body, head.length);
  const packed = deflateSync(plain);
  const frame = new Uint8Array(4 + packed.length);
  new DataView(frame.buffer).setUint32(0, packed.length, true);
  frame.set(packed, 4);
  return frame;
}

export interface Parsed {
  records: JournalRecord[];
  /** Bytes of whole, valid frames read (the next read starts here). */
  consumed: number;
  /** Bytes after the last valid frame: a write in progress or a torn tail. */
  leftover: number;
}

/** The whole valid frames at the start of `bytes`; stops at the first short or damaged one. */
export function parseRecords(bytes: Uint8Array, parseEntry: (v: unknown) => HistoryEntry | undefined): Parsed {
  const records: JournalRecord[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (bytes.length - at >= 4) {
    const length = view.getUint32(at, true);
    if (length === 0 || at + 4 + length > bytes.length) break;
    let plain: Uint8Array;
    try {
      plain = inflateSync(bytes.subarray(at + 4, at + 4 + length));
    } catch {
      break; // Checksum or stream damage: a torn tail.
    }
    const nl = plain.indexOf(10);
    if (nl < 0) break;
    let meta: Record<string, unknown>;
    try {
      meta = JSON.parse(dec.decode(plain.subarray(0, nl))) as Record<string, unknown>;
    } catch {
      break;
    }
    const record = recordOf(meta, plain.subarray(nl + 1), parseEntry);
    at += 4 + length;
    // A frame that is whole and checksummed but not ours (a newer format) is skipped, never fatal.
    if (record !== undefined) records.push(record);
  }
  return { records, consumed: at, leftover: bytes.length - at };
}

function recordOf(meta: Record<string, unknown>, body: Uint8Array, parseEntry: (v: unknown) => HistoryEntry | undefined): JournalRecord | undefined {
  if (meta.k === 'drop') {
    const versions = Array.isArray(meta.v) ? meta.v.filter((x): x is number => Number.isSafeInteger(x)) : [];
    return { k: 'drop', versions, ...(Number.isSafeInteger(meta.last) ? { last: meta.last as number } : {}) };
  }
  if (meta.k !== 'v') return undefined;
  const entry = parseEntry(meta.e);
  if (entry === undefined) return undefined;
  const b = meta.b as number;
  const d = meta.d as number;
  if (meta.s === 'full') return { k: 'v', entry, storage: { s: 'full' }, body };
  if ((meta.s === 'delta' || meta.s === 'same') && Number.isSafeInteger(b) && Number.isSafeInteger(d)) {
    return { k: 'v', entry, storage: { s: meta.s, b, d }, body };
  }
  return undefined;
}

/**
 * How to store `content` given the stored copy of an earlier version of the same file (`base`),
 * or a version that holds the very same bytes (`same`).
 */
export function storageFor(
  content: Uint8Array,
  same: { version: number; depth: number } | undefined,
  base: { version: number; depth: number; bytes: Uint8Array } | undefined,
): { storage: Storage; body: Uint8Array } {
  if (same !== undefined && same.depth + 1 < FULL_EVERY) return { storage: { s: 'same', b: same.version, d: same.depth + 1 }, body: new Uint8Array(0) };
  if (base !== undefined && base.depth + 1 < FULL_EVERY && content.length <= MAX_DELTA_BYTES && base.bytes.length <= MAX_DELTA_BYTES) {
    const patch = textPatch(base.bytes, content);
    if (patch !== undefined && patch.length < content.length) return { storage: { s: 'delta', b: base.version, d: base.depth + 1 }, body: patch };
  }
  return { storage: { s: 'full' }, body: content };
}

/** The unified diff from `from` to `to`, only when both are text and it applies back exactly. */
function textPatch(from: Uint8Array, to: Uint8Array): Uint8Array | undefined {
  let a: string;
  let b: string;
  try {
    a = strictUtf8.decode(from);
    b = strictUtf8.decode(to);
  } catch {
    return undefined;
  }
  const patch = createPatch('', a, b, '', '', { context: 0 });
  // The library's own applier must give back these very bytes (line endings, a missing final newline).
  if (applyPatch(a, patch) !== b) return undefined;
  return enc.encode(patch);
}

/** `base` with the stored delta applied. */
export function applyDelta(base: Uint8Array, body: Uint8Array): Uint8Array {
  const out = applyPatch(dec.decode(base), dec.decode(body));
  if (out === false) throw new Error('history: a stored delta does not apply');
  return enc.encode(out);
}
