/**
 * `datetime.strptime` for the formats the simulated APIs use, with CPython's `_strptime` patterns
 * (`\d` is any Unicode decimal digit, whitespace in the format matches a run of Unicode whitespace)
 * and its exceptions, plus the calendar arithmetic the callers need.
 */
import { pyRepr } from './repr.js';
import { PY_SPACE_CLASS, pyIntParse } from './str.js';
import { PyException, pyTypeName, type PyValue } from './value.js';

const D = '\\p{Nd}';
const DATE = `(${D}${D}${D}${D})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]${D}|0[1-9]|[1-9]| [1-9])`;
const TIME = `(2[0-3]|[0-1]${D}|${D}):([0-5]${D}|${D}):(6[0-1]|[0-5]${D}|${D})`;
const FORMATS = {
  '%Y-%m-%d': new RegExp(`^${DATE}`, 'iu'),
  '%Y-%m-%d %H:%M:%S': new RegExp(`^${DATE}[${PY_SPACE_CLASS}]+${TIME}`, 'iu'),
} as const;

export type StrptimeFormat = keyof typeof FORMATS;

/** The fields of a parsed `datetime` (those a format lacks are 0). */
export interface DateTimeFields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Days in a month of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Days from 0001-01-01 (proleptic Gregorian), as `date.toordinal() - 1`. */
export function daysSinceYearOne(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 306; // shift the epoch from 0000-03-01 to 0001-01-01
}

/** `datetime.strptime(text, format)`, with CPython's TypeError and ValueErrors. */
export function strptime(text: PyValue, format: StrptimeFormat): DateTimeFields {
  if (typeof text !== 'string') {
    // CPython's argument checker names None by value and other types by type name.
    const given = text === null ? 'None' : pyTypeName(text);
    throw new PyException('TypeError', `strptime() argument 1 must be str, not ${given}`);
  }
  const fields = plainAsciiFields(text, format) ?? matchedFields(text, format);
  if (fields.year < 1) throw new PyException('ValueError', `year ${fields.year} is out of range`);
  if (fields.day > daysInMonth(fields.year, fields.month)) {
    throw new PyException('ValueError', 'day is out of range for month');
  }
  if (fields.second > 59) throw new PyException('ValueError', 'second must be in 0..59');
  return fields;
}

/** The fields by CPython's patterns, or its ValueError when the text does not match the format. */
function matchedFields(text: string, format: StrptimeFormat): DateTimeFields {
  const match = FORMATS[format].exec(text);
  if (match === null) {
    throw new PyException('ValueError', `time data ${pyRepr(text)} does not match format ${pyRepr(format)}`);
  }
  if (match[0].length !== text.length) {
    throw new PyException('ValueError', `unconverted data remains: ${text.slice(match[0].length)}`);
  }
  const field = (i: number): number => (match[i] === undefined ? 0 : Number(pyIntParse(match[i])));
  return { year: field(1), month: field(2), day: field(3), hour: field(4), minute: field(5), second: field(6) };
}

/**
 * The fields of the usual spelling (`2024-03-01`, `2024-03-01 09:30:00`: ASCII digits, two-digit
 * fields within the ranges the patterns accept) without the Unicode regex, which was most of the cost
 * of the trading API's date filters; undefined for anything else, which the patterns then decide.
 */
function plainAsciiFields(text: string, format: StrptimeFormat): DateTimeFields | undefined {
  const withTime = format === '%Y-%m-%d %H:%M:%S';
  if (text.length !== (withTime ? 19 : 10) || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (!withTime) return { year, month, day, hour: 0, minute: 0, second: 0 };
  if (text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 61) return undefined;
  return { year, month, day, hour, minute, second };
}

/** The value of `count` ASCII digits at `start`, or -1 when one is not an ASCII digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
