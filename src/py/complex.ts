import { floatRepr } from './repr.js';
import { PyObject, type PyValue } from './value.js';

/** A part of a complex as its repr prints it: `repr(float)` without a trailing `.0`. */
function partRepr(x: number): string {
  const s = floatRepr(x);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** A Python `complex` value (an imaginary literal such as `2j`, or `negative ** fractional`). */
export class PyComplex extends PyObject {
  readonly pyTypeName = 'complex';
  constructor(
    readonly real: number,
    readonly imag: number,
  ) {
    super();
  }

  /** CPython `complex.__repr__`: `(a+bj)`, or `bj` alone when the real part is +0.0. */
  override pyRepr(): string {
    if (this.real === 0 && !Object.is(this.real, -0)) return `${partRepr(this.imag)}j`;
    const negativeImag = this.imag < 0 || Object.is(this.imag, -0);
    return `(${partRepr(this.real)}${negativeImag ? '-' : '+'}${partRepr(Math.abs(this.imag))}j)`;
  }

  /** Equal to a complex with the same parts, or to a real number (bool included) when the imaginary part is 0. */
  override pyEquals(other: PyValue): boolean {
    if (other instanceof PyComplex) return this.real === other.real && this.imag === other.imag;
    if (typeof other === 'boolean') return this.imag === 0 && this.real === (other ? 1 : 0);
    if (typeof other === 'number' || typeof other === 'bigint') return this.imag === 0 && this.real === Number(other);
    return false;
  }
}
