import { getEventListeners } from 'node:events';

import { describe, expect, it } from 'vitest';

import { linkSignals } from '../../src/util/abort-signals.js';

describe('linkSignals', () => {
  it('is undefined without sources, and a fresh signal even for one source', () => {
    expect(linkSignals(undefined, undefined).signal).toBeUndefined();
    const b = new AbortController();
    const linked = linkSignals(undefined, b.signal);
    expect(linked.signal).not.toBe(b.signal);
    b.abort('stop');
    expect(linked.signal!.reason).toBe('stop');
  });

  it('fires with the reason of the source that fired', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals(a.signal, b.signal);
    expect(linked.signal!.aborted).toBe(false);
    b.abort('timed out');
    expect(linked.signal!.aborted).toBe(true);
    expect(linked.signal!.reason).toBe('timed out');
  });

  it('starts aborted when a source already is', () => {
    const a = new AbortController();
    a.abort('early');
    expect(linkSignals(a.signal, new AbortController().signal).signal!.reason).toBe('early');
  });

  it('leaves no listener on its sources once disposed, so a long-lived signal does not collect them', () => {
    const run = new AbortController();
    for (let request = 0; request < 50; request++) {
      const linked = linkSignals(run.signal);
      // What the SDKs do with the signal they are given: listen, and never stop.
      linked.signal!.addEventListener('abort', () => {});
      linked.dispose();
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    const last = linkSignals(run.signal);
    last.dispose();
    run.abort();
    expect(last.signal!.aborted).toBe(false);
  });
});
