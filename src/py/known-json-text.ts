import { pyRepr } from './repr.js';
import { PyObject, pyEquals, pyTypeName, type PyValue } from './value.js';

/**
 * A Python value held with JSON text (`JsonFragment`, `KnownJsonText`): it is the value for repr,
 * equality and type; `json.dumps` may write the text instead of encoding the value.
 */
export abstract class JsonStandIn extends PyObject {
  /** The Python value it stands for. */
  abstract get value(): PyValue;

  get pyTypeName(): string {
    return pyTypeName(this.value);
  }

  pyRepr(): string {
    return pyRepr(this.value);
  }

  override pyEquals(other: PyValue): boolean {
    return pyEquals(this.value, other instanceof JsonStandIn ? other.value : other);
  }

  override get jsonSerializable(): boolean {
    return true;
  }

  override jsonValue(): PyValue {
    return this.value;
  }
}

/**
 * A value together with its `json.dumps(value, ensure_ascii=False)` text, made earlier (see
 * src/data/line-texts.ts): `json.dumps` writes the text instead of encoding the value again
 * (with `ensure_ascii=True` it encodes the value).
 */
export class KnownJsonText extends JsonStandIn {
  constructor(
    private readonly known: PyValue,
    private readonly unicodeText: string,
  ) {
    super();
  }

  get value(): PyValue {
    return this.known;
  }

  override jsonText(ensureAscii: boolean): string | undefined {
    return ensureAscii ? undefined : this.unicodeText;
  }
}
