import { pyRepr } from './repr.js';
import { PyObject, pyEquals, pyTypeName, type PyValue } from './value.js';

/**
 * A value together with its `json.dumps(value, ensure_ascii=False)` text, made earlier (see
 * src/data/line-texts.ts): `json.dumps` writes the text instead of encoding the value again. It
 * stands in for the value everywhere else (repr, equality, `ensure_ascii=True`).
 */
export class KnownJsonText extends PyObject {
  constructor(
    readonly value: PyValue,
    private readonly unicodeText: string,
  ) {
    super();
  }

  get pyTypeName(): string {
    return pyTypeName(this.value);
  }

  pyRepr(): string {
    return pyRepr(this.value);
  }

  override pyEquals(other: PyValue): boolean {
    return pyEquals(this.value, other instanceof KnownJsonText ? other.value : other);
  }

  override get jsonSerializable(): boolean {
    return true;
  }

  override jsonValue(): PyValue {
    return this.value;
  }

  override jsonText(ensureAscii: boolean): string | undefined {
    return ensureAscii ? undefined : this.unicodeText;
  }
}
