/**
 * Okapi BM25+ as `rank_bm25==0.2.2`'s `BM25Plus` computes it (reference §9.3), for the key search of
 * the key-value memory: same parameters, IDF form, operation grouping and accumulation order, so
 * the scores are the reference's IEEE doubles.
 */
import { pySplitWhitespace } from '../../py/builtins.js';
import { expectStr } from '../../py/ops.js';
import { PyException, type PyValue } from '../../py/value.js';
import { correctlyRoundedLog } from './correctly-rounded-log.js';

/** BM25+ parameters (`k1`, `b`, `delta`); the defaults are the reference's. */
export interface Bm25PlusParams {
  readonly k1: number;
  readonly b: number;
  readonly delta: number;
}

const DEFAULT_PARAMS: Bm25PlusParams = { k1: 1.5, b: 0.75, delta: 1 };

/**
 * The reference's tokenisation of keys and queries: `_` becomes a space, then Python `lower()` and
 * `split()`; no punctuation handling. A non-str raises Python's AttributeError for `.replace`.
 */
export function tokenizeKeyText(text: PyValue): string[] {
  return pySplitWhitespace(expectStr(text, 'replace').replaceAll('_', ' ').toLowerCase());
}

/** A BM25+ index over tokenised documents. */
export class Bm25Plus {
  private readonly docFreqs: Map<string, number>[] = [];
  private readonly docLengths: number[] = [];
  private readonly idf = new Map<string, number>();
  private readonly avgdl: number;

  constructor(
    corpus: readonly (readonly string[])[],
    private readonly params: Bm25PlusParams = DEFAULT_PARAMS,
  ) {
    const documentsWithWord = new Map<string, number>();
    let totalLength = 0;
    for (const document of corpus) {
      this.docLengths.push(document.length);
      totalLength += document.length;
      const frequencies = new Map<string, number>();
      for (const word of document) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
      this.docFreqs.push(frequencies);
      for (const word of frequencies.keys()) documentsWithWord.set(word, (documentsWithWord.get(word) ?? 0) + 1);
    }
    // BFCL parity: rank_bm25 0.2.2 BM25._initialize — `num_doc / corpus_size` on ints: an empty corpus raises.
    if (corpus.length === 0) throw new PyException('ZeroDivisionError', 'division by zero');
    this.avgdl = totalLength / corpus.length;
    // BFCL parity: rank_bm25 0.2.2 BM25Plus._calc_idf — log((N + 1) / n(t)), not log(N + 1) - log(n(t)),
    // with libm's log (V8's Math.log is one ulp off for 8% of these arguments; see correctly-rounded-log.ts).
    for (const [word, freq] of documentsWithWord) this.idf.set(word, correctlyRoundedLog((corpus.length + 1) / freq));
  }

  /** The score of every document for `query`, in corpus order. */
  scores(query: readonly string[]): number[] {
    const { k1, b, delta } = this.params;
    const scores = new Array<number>(this.docLengths.length).fill(0);
    // Query tokens in order, duplicates counted each time; an unknown token adds 0 * (...) = 0.
    for (const q of query) {
      const idf = this.idf.get(q) ?? 0;
      for (let d = 0; d < scores.length; d++) {
        const tf = this.docFreqs[d]!.get(q) ?? 0;
        const lengthNorm = 1 - b + (b * this.docLengths[d]!) / this.avgdl;
        scores[d]! += idf * (delta + (tf * (k1 + 1)) / (k1 * lengthNorm + tf));
      }
    }
    return scores;
  }
}
