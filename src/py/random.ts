import { PyException } from './value.js';

const N = 624;
/**
 * MT state per seed, as the first output finds it: seeded, then twisted once (every generator
 * twists before its first output, so the simulated APIs' many same-seed instances share both steps).
 */
const SEEDED_STATES = new Map<bigint, Uint32Array>();
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/**
 * CPython's `random.Random(seed)` for an int seed, bit for bit: MT19937 seeded with
 * `init_by_array` over the seed's 32-bit words, and the `getrandbits`-based integer methods.
 * The reference's simulated APIs seed one generator per instance, so ids and timestamps match.
 */
export class PyRandom {
  /**
   * The MT state, made at the first draw: most simulated instances never draw a number, and each
   * one made a state of 624 words for its default seed and another for its scenario's.
   */
  private state: Uint32Array | undefined;
  private mti = N + 1;
  private readonly seedKey: bigint;

  constructor(seed: bigint | number) {
    this.seedKey = typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed));
  }

  private get mt(): Uint32Array {
    if (this.state !== undefined) return this.state;
    // Seeding runs init_by_array over 624 words; the simulated APIs seed many instances with the same few seeds.
    const seeded = SEEDED_STATES.get(this.seedKey);
    if (seeded !== undefined) {
      this.state = seeded.slice();
      this.mti = 0;
      return this.state;
    }
    this.state = new Uint32Array(N);
    this.seed(this.seedKey);
    this.twist();
    if (SEEDED_STATES.size < 64) SEEDED_STATES.set(this.seedKey, this.state.slice());
    return this.state;
  }

  private seed(seed: bigint): void {
    let n = seed;
    if (n < 0n) n = -n;
    const key: number[] = [];
    while (n > 0n) {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** The next 624 words of state (the generation step of `genrand_uint32`). */
  private twist(): void {
    const mt = this.mt;
    let kk = 0;
    for (; kk < N - M; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; kk < N - 1; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (mt[N - 1]! & UPPER_MASK) | (mt[0]! & LOWER_MASK);
    mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.mti = 0;
  }

  /** One 32-bit output of MT19937 (`genrand_uint32`). */
  private next32(): number {
    const mt = this.mt; // seeds on the first draw
    if (this.mti >= N) this.twist();
    let y = mt[this.mti++]!;
    y ^= y >>> 11;
    y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
    y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: 53 random bits in [0, 1). */
  random(): number {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `random.getrandbits(k)`: 32-bit words from least to most significant. */
  getrandbits(k: number): bigint {
    if (k < 0) throw new PyException('ValueError', 'number of bits must be non-negative');
    if (k === 0) return 0n;
    if (k <= 32) return BigInt(this.next32() >>> (32 - k));
    let result = 0n;
    let shift = 0n;
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let r = this.next32();
      if (remaining < 32) r >>>= 32 - remaining;
      result |= BigInt(r) << shift;
      shift += 32n;
    }
    return result;
  }

  /** `_randbelow_with_getrandbits(n)`: rejection sampling on `n.bit_length()` bits. */
  private randbelow(n: bigint): bigint {
    if (n <= 0n) return 0n;
    const k = n.toString(2).length;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random.randint(a, b)`, both ends included. */
  randint(a: bigint, b: bigint): bigint {
    const width = b + 1n - a;
    if (width <= 0n) {
      throw new PyException('ValueError', `empty range in randrange(${a}, ${b + 1n})`);
    }
    return a + this.randbelow(width);
  }

  /** `random.uniform(a, b)`. */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }

  /** `random.choice(seq)`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new PyException('IndexError', 'Cannot choose from an empty sequence');
    return seq[Number(this.randbelow(BigInt(seq.length)))]!;
  }
}
