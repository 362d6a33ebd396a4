/** `datetime.strptime` for the simulated APIs' formats; expected outcomes are CPython 3.11's. */
import { describe, expect, it } from 'vitest';
import { daysSinceYearOne, strptime, type StrptimeFormat } from '../../src/py/datetime.js';
import type { PyValue } from '../../src/py/value.js';
import { raised } from '../helpers/python.js';

const fields = (text: PyValue, format: StrptimeFormat): number[] => {
  const t = strptime(text, format);
  return [t.year, t.month, t.day, t.hour, t.minute, t.second];
};

describe('strptime', () => {
  it('parses as CPython does (Unicode digits, a space-padded day, Unicode whitespace)', () => {
    expect(fields('2024-01- 5', '%Y-%m-%d')).toEqual([2024, 1, 5, 0, 0, 0]);
    expect(fields('٢٠٢٤-01-05', '%Y-%m-%d')).toEqual([2024, 1, 5, 0, 0, 0]);
    expect(fields('2024-01-05\u200a10:00:07', '%Y-%m-%d %H:%M:%S')).toEqual([2024, 1, 5, 10, 0, 7]);
    expect(fields('2024-2-29', '%Y-%m-%d')).toEqual([2024, 2, 29, 0, 0, 0]);
  });

  it.each([
    [null, '%Y-%m-%d', 'TypeError: strptime() argument 1 must be str, not None'],
    [5n, '%Y-%m-%d', 'TypeError: strptime() argument 1 must be str, not int'],
    ['0000-01-01', '%Y-%m-%d', 'ValueError: year 0 is out of range'],
    ['2024-02-30', '%Y-%m-%d', 'ValueError: day is out of range for month'],
    ['2023-02-29', '%Y-%m-%d', 'ValueError: day is out of range for month'],
    ['2024-1-5x', '%Y-%m-%d', 'ValueError: unconverted data remains: x'],
    ['2024-01-05 10:00:60', '%Y-%m-%d %H:%M:%S', 'ValueError: second must be in 0..59'],
    ['2024-01-05\ufeff10:00:00', '%Y-%m-%d %H:%M:%S', "ValueError: time data '2024-01-05\\ufeff10:00:00' does not match format '%Y-%m-%d %H:%M:%S'"],
    ['x', '%Y-%m-%d', "ValueError: time data 'x' does not match format '%Y-%m-%d'"],
  ] as [PyValue, StrptimeFormat, string][])('%o', (text, format, expected) => {
    expect(raised(() => strptime(text, format))).toBe(expected);
  });

  it('gives plain ASCII spellings the outcome of the patterns (which an Arabic-Indic digit forces)', () => {
    /** The text with the year's last digit as the Arabic-Indic digit of the same value. */
    const arabicIndic = (text: string): string => `${text.slice(0, 3)}${String.fromCharCode(0x660 + Number(text[3]))}${text.slice(4)}`;
    const outcome = (text: string, format: StrptimeFormat): string => {
      try {
        return fields(text, format).join(' ');
      } catch {
        return raised(() => strptime(text, format)).replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x660));
      }
    };
    const two = (n: number): string => String(n).padStart(2, '0');
    let compared = 0;
    for (const year of ['0000', '2023', '2024']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const date = `${year}-${two(month)}-${two(day)}`;
          const times = day === 29 ? ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60', '12:00:61', '12:00:62', '7:00:00'] : ['10:20:30'];
          const cases: [string, StrptimeFormat][] = [[date, '%Y-%m-%d'], ...times.map((time): [string, StrptimeFormat] => [`${date} ${time}`, '%Y-%m-%d %H:%M:%S'])];
          for (const [text, format] of cases) {
            expect(outcome(text, format), text).toBe(outcome(arabicIndic(text), format));
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1500);
  });

  it('counts days from 0001-01-01 as date.toordinal() - 1', () => {
    expect(daysSinceYearOne(1, 1, 1)).toBe(0);
    expect(daysSinceYearOne(2024, 9, 1)).toBe(739129); // date(2024, 9, 1).toordinal() == 739130
  });
});
