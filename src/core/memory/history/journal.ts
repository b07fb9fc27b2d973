/**
 * The history journal's on-disk record format (one segment file, `.meta/history/journal-<epoch>`,
 * is a sequence of these frames):
 *
 *   [u32 LE length][zlib stream of `length` bytes]
 *
 * The zlib stream (node:zlib deflate with a preset dictionary, whose trailer is an Adler-32 of the
 * inflated bytes) holds one or more records, each a JSON line (its metadata, with `n`, the body's
 * length) then its body bytes: a version with the versions retention drops as it is recorded, or
 * a compacted segment's versions a few hundred to a frame (compressed together). A frame is appended with
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

/** At most this many deltas/references between a version and a full copy (above the default 50 versions per file: a file edited often keeps one full copy, its oldest kept version). */
export const FULL_EVERY = 64;
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
/**
 * A preset deflate dictionary (RFC 1950): most records are a small JSON line and a short patch,
 * too small for deflate to find repeats within one record, so the repeats are given up front.
 * Changing it makes old frames unreadable: a new format needs a new dictionary id in the frame.
 */
const DICTIONARY = new TextEncoder().encode(
  '{"k":"drop","v":[],"last":0}{"k":"v","e":{"version":0,"time":17,"op":"create","path":"","author":{"name":"exec"},"sha256":"","size":0,"oldPath":"","restoredFrom":0,"redacted":true,' +
    '"author":{"name":"chat","session":"","turn":0,"title":""},"author":{"name":"user"},"author":{"name":"mcp:"},"author":{"name":"run"},"author":{"name":"lm-tool"},"author":{"name":"expiry"},' +
    '"op":"str_replace","op":"insert","op":"edit","op":"delete","op":"rename","op":"restore","blob":""},"s":"full"}"s":"same","b":0,"d":1}"s":"delta","b":0,"d":1}\n' +
    '@@ -1,0 +1,1 @@\n-\n+\n\\ No newline at end of file\n@@ -1,1 +1,1 @@\n.md"},"s":"delta","b":',
);
const dec = new TextDecoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeRecord(record: JournalRecord): Uint8Array {
  return encodeFrame([record]);
}

/**
 * One frame holding `records` (written with one append: all or none of them count). Each record
 * is a JSON line, then `n` body bytes; several records in one zlib stream compress together.
 */
export function encodeFrame(records: readonly JournalRecord[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const record of records) {
    const body = record.k === 'v' ? record.body : new Uint8Array(0);
    const meta =
      record.k === 'v'
        ? { k: 'v', e: withoutBlob(record.entry), ...record.storage, ...(body.length > 0 ? { n: body.length } : {}) }
        : { k: 'drop', v: record.versions, ...(record.last !== undefined ? { last: record.last } : {}) };
    parts.push(enc.encode(`${JSON.stringify(meta)}\n`), body);
  }
  const plain = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    plain.set(p, at);
    at += p.length;
  }
  const packed = deflateSync(plain, { dictionary: DICTIONARY, ...windowFor(plain.length) });
  const frame = new Uint8Array(4 + packed.length);
  new DataView(frame.buffer).setUint32(0, packed.length, true);
  frame.set(packed, 4);
  return frame;
}

/**
 * The smallest deflate window that holds the dictionary and the frame (zlib's default 32 KiB
 * window and 128 KiB of hash tables cost more to set up than a one-version frame takes to
 * compress: about 20x the time of a 1 KiB window here). Any reader inflates it: inflate's
 * default window is the largest, and a stream's header names its own.
 */
function windowFor(bytes: number): { windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(10, Math.ceil(Math.log2(bytes + DICTIONARY.length))));
  return { windowBits, memLevel: Math.max(1, windowBits - 7) };
}

export interface Parsed {
  records: JournalRecord[];
  /** Bytes of whole, valid frames read (the next read starts here). */
  consumed: number;
  /** Bytes after the last valid frame: a write in progress or a torn tail. */
  leftover: number;
  /** Frames of one version each (appended by a writer, not yet compacted together). */
  singles: number;
}

/** The whole valid frames at the start of `bytes`; stops at the first short or damaged one. */
export function parseRecords(bytes: Uint8Array, parseEntry: (v: unknown) => HistoryEntry | undefined): Parsed {
  const records: JournalRecord[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let singles = 0;
  while (bytes.length - at >= 4) {
    const length = view.getUint32(at, true);
    if (length === 0 || at + 4 + length > bytes.length) break;
    let plain: Uint8Array;
    try {
      plain = inflateSync(bytes.subarray(at + 4, at + 4 + length), { dictionary: DICTIONARY });
    } catch {
      break; // Checksum or stream damage: a torn tail.
    }
    const items = itemsOf(plain, parseEntry);
    if (items === undefined) break;
    at += 4 + length;
    records.push(...items);
    if (items.filter((r) => r.k === 'v').length === 1) singles++;
  }
  return { records, consumed: at, leftover: bytes.length - at, singles };
}

/** The records of one inflated frame; undefined when it does not parse (treated as damage). Records not ours (a newer format) are skipped. */
function itemsOf(plain: Uint8Array, parseEntry: (v: unknown) => HistoryEntry | undefined): JournalRecord[] | undefined {
  const out: JournalRecord[] = [];
  let at = 0;
  while (at < plain.length) {
    const nl = plain.indexOf(10, at);
    if (nl < 0) return undefined;
    let meta: Record<string, unknown>;
    try {
      meta = JSON.parse(dec.decode(plain.subarray(at, nl))) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const n = Number.isSafeInteger(meta.n) && (meta.n as number) >= 0 ? (meta.n as number) : 0;
    if (nl + 1 + n > plain.length) return undefined;
    const record = recordOf(meta, plain.subarray(nl + 1, nl + 1 + n), parseEntry);
    if (record !== undefined) out.push(record);
    at = nl + 1 + n;
  }
  return out;
}

function recordOf(meta: Record<string, unknown>, body: Uint8Array, parseEntry: (v: unknown) => HistoryEntry | undefined): JournalRecord | undefined {
  if (meta.k === 'drop') {
    const versions = Array.isArray(meta.v) ? meta.v.filter((x): x is number => Number.isSafeInteger(x)) : [];
    return { k: 'drop', versions, ...(Number.isSafeInteger(meta.last) ? { last: meta.last as number } : {}) };
  }
  if (meta.k !== 'v') return undefined;
  // `blob` is left out when it is the content's own SHA-256 (no redaction): half the hex of a record.
  const e = meta.e as Record<string, unknown> | null;
  const entry = parseEntry(e !== null && typeof e === 'object' && e.blob === undefined ? { ...e, blob: e.sha256 } : e);
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
  const unified = createPatch('', a, b, '', '', { context: 0 });
  // The hunks alone: the file-name header lines say nothing here.
  const at = unified.indexOf('@@');
  const patch = at < 0 ? '' : unified.slice(at);
  // The library's own applier must give back these very bytes (line endings, a missing final newline).
  if (applyPatch(a, patch) !== b) return undefined;
  return enc.encode(patch);
}

function withoutBlob(entry: HistoryEntry): Omit<HistoryEntry, 'blob'> & { blob?: string } {
  if (entry.blob !== entry.sha256) return entry;
  const { blob: _blob, ...rest } = entry;
  return rest;
}

/** `base` with the stored delta applied. */
export function applyDelta(base: Uint8Array, body: Uint8Array): Uint8Array {
  const out = applyPatch(dec.decode(base), dec.decode(body));
  if (out === false) throw new Error('history: a stored delta does not apply');
  return enc.encode(out);
}
