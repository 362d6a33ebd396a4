import { describe, expect, it } from 'vitest';

import { combineSignals } from '../../src/util/abort-signals.js';

describe('combineSignals', () => {
  it('is the other signal when one is missing', () => {
    const b = new AbortController().signal;
    expect(combineSignals(undefined, b).signal).toBe(b);
    expect(combineSignals(undefined, undefined).signal).toBeUndefined();
  });

  it('fires with the reason of the source that fired', () => {
    const a = new AbortController();
    const b = new AbortController();
    const combined = combineSignals(a.signal, b.signal);
    expect(combined.signal.aborted).toBe(false);
    b.abort('timed out');
    expect(combined.signal.aborted).toBe(true);
    expect(combined.signal.reason).toBe('timed out');
  });

  it('starts aborted when a source already is', () => {
    const a = new AbortController();
    a.abort('early');
    const combined = combineSignals(a.signal, new AbortController().signal);
    expect(combined.signal.reason).toBe('early');
  });

  it('no longer follows its sources once disposed', () => {
    const a = new AbortController();
    const combined = combineSignals(a.signal, new AbortController().signal);
    combined.dispose();
    a.abort();
    expect(combined.signal.aborted).toBe(false);
  });
});
