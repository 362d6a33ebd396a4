import { describe, expect, it } from 'vitest';

import { ProgressReporter, formatDuration } from '../../src/generate/progress.js';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('ProgressReporter', () => {
  it('prints a plain line every N entries, after a quiet period, and at the end', () => {
    const out: string[] = [];
    const c = clock();
    const progress = new ProgressReporter('Generating m', 10, { write: (t) => void out.push(t), isTTY: false }, { everyEntries: 4, everyMs: 1000, now: c.now });
    for (let i = 0; i < 10; i++) {
      c.advance(100);
      progress.tick(i === 2);
    }
    expect(out).toEqual([
      'Generating m: 4/10 (40%, 1 errors) 0s, 10.0 entries/s, ~1s left\n',
      'Generating m: 8/10 (80%, 1 errors) 1s, 10.0 entries/s, ~0s left\n',
      'Generating m: 10/10 (100%, 1 errors) 1s, 10.0 entries/s\n',
    ]);
    out.length = 0;
    const slow = new ProgressReporter('g', 100, { write: (t) => void out.push(t), isTTY: false }, { everyEntries: 50, everyMs: 1000, now: c.now });
    c.advance(1500);
    slow.tick();
    expect(out).toEqual(['g: 1/100 (1%) 2s, 0.7 entries/s, ~2m29s left\n']);
  });

  it('redraws a bar in place on a terminal and keeps messages on their own lines', () => {
    const out: string[] = [];
    const c = clock();
    const progress = new ProgressReporter('Gen', 2, { write: (t) => void out.push(t), isTTY: true }, { now: c.now });
    c.advance(200);
    progress.tick();
    progress.message('simple_python_1: attempt 1 failed (429); retrying in 6.0s');
    c.advance(200);
    progress.tick();
    progress.finish();
    const text = out.join('');
    expect(text.startsWith('\r\x1b[2KGen [..............................] 0/2 (0%)')).toBe(true);
    expect(text).toContain('\r\x1b[2KGen [###############...............] 1/2 (50%)');
    expect(text).toContain('\r\x1b[2Ksimple_python_1: attempt 1 failed (429); retrying in 6.0s\n');
    expect(text.endsWith('2/2 (100%) 0s, 5.0 entries/s\n')).toBe(true);
  });

  it('formats durations', () => {
    expect([formatDuration(4.4), formatDuration(185), formatDuration(3720)]).toEqual(['4s', '3m05s', '1h02m']);
  });

  it('estimates the time left from the work done (requests), when given, instead of entries', () => {
    const out: string[] = [];
    const c = clock();
    let work = { done: 30, total: 40 };
    const progress = new ProgressReporter('g', 10, { write: (t) => void out.push(t), isTTY: false }, { everyEntries: 1, now: c.now, work: () => work });
    c.advance(30_000);
    progress.tick();
    // 1 of 10 entries in 30 s would say 4m30s; 30 of 40 requests in 30 s leave 10 s.
    expect(out).toEqual(['g: 1/10 (10%) 30s, 0.0 entries/s, ~10s left\n']);
    work = { done: 0, total: 0 };
    c.advance(1_000);
    progress.tick();
    expect(out[1]).toBe('g: 2/10 (20%) 31s, 0.1 entries/s\n');
  });
});
