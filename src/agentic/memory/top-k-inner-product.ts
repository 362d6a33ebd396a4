/**
 * The ranking of FAISS 1.11's exact inner-product search (`IndexFlatIP.search`, one query, k < 100),
 * ties included (reference §10.3). Scores are float32 values (as JS numbers).
 */

/** `-FLT_MAX`, the value FAISS's result heap starts with. */
const MINUS_FLT_MAX = -3.4028234663852886e38;

/** The float32 inner product of two vectors (accumulated in double, rounded once to float32). */
export function innerProduct(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return Math.fround(sum);
}

/**
 * Positions of the `k` best scores, best first, as FAISS returns them; a slot it could not fill is -1.
 * BFCL parity: faiss IndexFlat.cpp/Heap.h — k = 1 keeps the first strict maximum; k > 1 keeps a
 * min-heap of (score, position) whose smallest pair is replaced by any strictly greater score, and
 * the result is sorted by (score, position) descending, so tied entries come later-position first.
 */
export function topKPositions(scores: readonly number[], k: number): number[] {
  if (k === 1) {
    let best = MINUS_FLT_MAX;
    let position = -1;
    for (let j = 0; j < scores.length; j++) {
      if (scores[j]! > best) {
        best = scores[j]!;
        position = j;
      }
    }
    return [position];
  }
  const slots: [number, number][] = Array.from({ length: k }, () => [MINUS_FLT_MAX, -1]);
  for (let j = 0; j < scores.length; j++) {
    let smallest = 0;
    for (let s = 1; s < k; s++) if (comparePairs(slots[s]!, slots[smallest]!) < 0) smallest = s;
    if (scores[j]! > slots[smallest]![0]) slots[smallest] = [scores[j]!, j];
  }
  return slots.sort((x, y) => comparePairs(y, x)).map(([, position]) => position);
}

/** Lexicographic order of (score, position) pairs. */
function comparePairs(a: readonly [number, number], b: readonly [number, number]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}
