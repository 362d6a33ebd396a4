/**
 * The judge record files of a run: existing answers are read back (a unit whose request was
 * answered before is not asked again), each new record is appended as soon as it is made (a crash
 * loses nothing finished), and at the end each file is rewritten in order with one line per unit.
 */

import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

import { isAnswered, parseRecordLine, recordLine, unitKey, type JudgeRecord } from './judge-record.js';

/** Where the records of a unit go. */
export type RecordFileOf = (record: Pick<JudgeRecord, 'category'>) => string;

/** Records of one judge configuration: read, appended, rewritten. */
export class JudgeRecordStore {
  private readonly existing = new Map<string, JudgeRecord[]>();
  /** Files appended to in this run, each open (appending) until `finish`. */
  private readonly open = new Map<string, number>();

  constructor(private readonly fileOf: RecordFileOf) {}

  /**
   * Read the record files of `categories` (once each). Returns answered records by cache key, the
   * answers a run may reuse; lines that are not records (a torn last line) are ignored.
   */
  load(categories: readonly string[]): Map<string, JudgeRecord> {
    const byKey = new Map<string, JudgeRecord>();
    for (const category of categories) {
      const file = this.fileOf({ category });
      if (this.existing.has(file)) continue;
      const records = existsSync(file) ? readRecords(file) : [];
      this.existing.set(file, records);
      for (const record of records) if (isAnswered(record) && record.cache_key !== null) byKey.set(record.cache_key, record);
    }
    return byKey;
  }

  /** Append one record to its file now. */
  append(record: JudgeRecord): void {
    const file = this.fileOf(record);
    let fd = this.open.get(file);
    if (fd === undefined) {
      mkdirSync(dirname(file), { recursive: true });
      if (!this.existing.has(file)) this.existing.set(file, existsSync(file) ? readRecords(file) : []);
      fd = openSync(file, 'a');
      this.open.set(file, fd);
    }
    // One write per line: what was written survives a crash or a kill.
    writeSync(fd, recordLine(record) + '\n');
  }

  /**
   * Rewrite every file this run appended to: the records of this run (`current`, in the given
   * order) and, after them in `order`'s terms, the earlier records of units this run did not reach;
   * one line per unit. `order` sorts the final list (BFCL's entry order), or keeps it as given.
   */
  finish(current: readonly JudgeRecord[], order: (records: JudgeRecord[]) => JudgeRecord[] = (records) => records): string[] {
    const written: string[] = [];
    const byFile = new Map<string, JudgeRecord[]>();
    for (const record of current) {
      const file = this.fileOf(record);
      const list = byFile.get(file);
      if (list === undefined) byFile.set(file, [record]);
      else list.push(record);
    }
    for (const [file, fd] of this.open) {
      closeSync(fd);
      const mine = byFile.get(file) ?? [];
      const keys = new Set(mine.map(unitKey));
      const earlier = (this.existing.get(file) ?? []).filter((r) => !keys.has(unitKey(r)));
      const lines = order([...mine, ...dedupeLast(earlier)]).map(recordLine);
      const temp = `${file}.tmp-${process.pid}`;
      writeFileSync(temp, lines.length === 0 ? '' : lines.join('\n') + '\n');
      renameSync(temp, file);
      written.push(file);
    }
    this.open.clear();
    return written;
  }
}

/** Every record line of a file. */
export function readRecords(file: string): JudgeRecord[] {
  const records: JudgeRecord[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = parseRecordLine(line);
    if (record !== undefined) records.push(record);
  }
  return records;
}

/** The last record of each unit, in the order of their last lines. */
function dedupeLast(records: readonly JudgeRecord[]): JudgeRecord[] {
  const last = new Map<string, JudgeRecord>();
  for (const r of records) {
    const key = unitKey(r);
    last.delete(key);
    last.set(key, r);
  }
  return [...last.values()];
}
