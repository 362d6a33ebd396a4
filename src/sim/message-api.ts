/**
 * MessageAPI: the simulated workspace messenger of the multi-turn categories.
 *
 * Port of the reference's `message_api.py` (spec §6.3). Users are a name → id dict, the "inbox" is
 * a list of one-entry dicts `{receiver_id: message}` holding every message ever sent, and message
 * ids come from a per-instance CPython-compatible random generator.
 */
import { PyRandom } from '../py/random.js';
import { pyStr } from '../py/repr.js';
import {
  PyException,
  PyObject,
  PySet,
  PyTuple,
  dictHas,
  listContains,
  pyDict,
  pyEquals,
  pyTruthy,
  pyTypeName,
  setHas,
  type PyDict,
  type PyKey,
  type PyValue,
} from '../py/value.js';
import { SimulatedApi, req, type MethodSignatures, type SimContext } from './simulated-api.js';

/** Seed of `_random` when the scenario has no `random_seed`. */
const DEFAULT_RANDOM_SEED = 200191n;
/** Message ids are five-digit numbers. */
const MESSAGE_ID_MIN = 10000n;
const MESSAGE_ID_MAX = 99999n;

const NOT_LOGGED_IN = 'No user is currently logged in.';

/** The reference's DEFAULT_STATE, built fresh for every instance (it deep-copies its module dict). */
function defaultUserMap(): PyDict {
  return pyDict({ Alice: 'USR001', Bob: 'USR002', Catherine: 'USR003', Daniel: 'USR004' });
}

function defaultInbox(): PyValue[] {
  return [
    pyDict({ USR002: 'My name is Alice. I want to connect.' }),
    pyDict({ USR003: 'Could you upload the file?' }),
    pyDict({ USR004: 'Could you upload the file?' }),
  ];
}

export class MessageAPI extends SimulatedApi {
  readonly _className = 'MessageAPI';

  // Public state, in the order the reference's `_load_scenario` assigns it (= `vars()` order).
  generated_ids: PyValue = new PySet();
  user_count: PyValue = 4n;
  user_map: PyDict = defaultUserMap();
  inbox: PyValue[] = defaultInbox();
  message_count: PyValue = 3n;
  current_user: PyValue = null;

  private _random = new PyRandom(DEFAULT_RANDOM_SEED);

  readonly _signatures: MethodSignatures = {
    list_users: [],
    get_user_id: [req('user')],
    message_login: [req('user_id')],
    message_get_login_status: [],
    send_message: [req('receiver_id'), req('message')],
    delete_message: [req('receiver_id')],
    view_messages_sent: [],
    add_contact: [req('user_name')],
    search_messages: [req('keyword')],
    get_message_stats: [],
  };

  constructor(_ctx: SimContext) {
    super();
  }

  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    this._random = new PyRandom(seedOf(scenarioGet(scenario, 'random_seed', DEFAULT_RANDOM_SEED)));
    this.generated_ids = scenarioGet(scenario, 'generated_ids', new PySet());
    this.user_count = scenarioGet(scenario, 'user_count', 4n);
    this.user_map = expectDict(scenarioGet(scenario, 'user_map', defaultUserMap()), 'user_map');
    this.inbox = expectList(scenarioGet(scenario, 'inbox', defaultInbox()), 'inbox');
    this.message_count = scenarioGet(scenario, 'message_count', 3n);
    this.current_user = scenarioGet(scenario, 'current_user', null);
  }

  /** A fresh message id: redrawn while it collides with an id already handed out. */
  private _generateId(): PyDict {
    let newId = this._random.randint(MESSAGE_ID_MIN, MESSAGE_ID_MAX);
    while (pyContains(this.generated_ids, newId)) {
      newId = this._random.randint(MESSAGE_ID_MIN, MESSAGE_ID_MAX);
    }
    if (!(this.generated_ids instanceof PySet)) {
      throw new PyException('AttributeError', `'${pyTypeName(this.generated_ids)}' object has no attribute 'add'`);
    }
    this.generated_ids.items.add(newId);
    return pyDict({ new_id: newId });
  }

  list_users(): PyValue {
    return pyDict({ user_list: [...this.user_map.keys()] });
  }

  get_user_id(user: PyValue): PyValue {
    if (!dictHas(this.user_map, hashable(user))) {
      return errorResult(`User '${pyStr(user)}' not found in the workspace.`);
    }
    return pyDict({ user_id: lookup(this.user_map, user) });
  }

  message_login(user_id: PyValue): PyValue {
    if (!listContains([...this.user_map.values()], user_id)) {
      return pyDict({ login_status: false, message: `User ID '${pyStr(user_id)}' not found.` });
    }
    this.current_user = user_id;
    return pyDict({ login_status: true, message: `User '${pyStr(user_id)}' logged in successfully.` });
  }

  message_get_login_status(): PyValue {
    return pyDict({ login_status: pyTruthy(this.current_user) });
  }

  send_message(receiver_id: PyValue, message: PyValue): PyValue {
    if (!pyTruthy(this.current_user)) return errorResult(NOT_LOGGED_IN);
    if (!listContains([...this.user_map.values()], receiver_id)) {
      return errorResult(`Receiver ID '${pyStr(receiver_id)}' not found.`);
    }
    const messageId = this._generateId();
    this.inbox.push(new Map([[hashable(receiver_id), message]]));
    this.message_count = increment(this.message_count);
    return pyDict({
      sent_status: true,
      message_id: messageId,
      message: `Message sent to '${pyStr(receiver_id)}' successfully.`,
    });
  }

  delete_message(receiver_id: PyValue): PyValue {
    if (!pyTruthy(this.current_user)) return errorResult(NOT_LOGGED_IN);
    for (let i = this.inbox.length - 1; i >= 0; i--) {
      const message = this.inbox[i]!;
      const [receiver] = firstItem(message);
      if (pyEquals(receiver, receiver_id)) {
        // BFCL parity: message_api.py::delete_message — `inbox.remove(message)` drops the *first*
        // entry equal to the latest match, so with duplicate messages an earlier copy goes.
        const firstEqual = this.inbox.findIndex((m) => pyEquals(m, message));
        this.inbox.splice(firstEqual, 1);
        return pyDict({
          deleted_status: true,
          receiver_id: receiver,
          message: `Receiver ${pyStr(receiver_id)}'s latest message deleted successfully.`,
        });
      }
    }
    return errorResult(`Receiver ID ${pyStr(receiver_id)} not found.`);
  }

  view_messages_sent(): PyValue {
    if (!pyTruthy(this.current_user)) return errorResult(NOT_LOGGED_IN);
    // Every message of the inbox, grouped by receiver (the reference does not filter by sender).
    const sent: PyDict = new Map();
    for (const message of this.inbox) {
      const [receiver, content] = firstItem(message);
      const existing = lookupOrUndefined(sent, receiver);
      if (existing === undefined) dictSet(sent, receiver, [content]);
      else appendTo(existing, content);
    }
    return pyDict({ messages: sent });
  }

  add_contact(user_name: PyValue): PyValue {
    if (dictHas(this.user_map, hashable(user_name))) {
      return errorResult(`User name '${pyStr(user_name)}' already exists.`);
    }
    // The count goes up even when the resulting id turns out to be taken.
    this.user_count = increment(this.user_count);
    const userId = `USR${zfill(pyStr(this.user_count), 3)}`;
    if (listContains([...this.user_map.values()], userId)) {
      return errorResult(`User ID '${userId}' already exists.`);
    }
    dictSet(this.user_map, user_name, userId);
    return pyDict({
      added_status: true,
      user_id: userId,
      message: `Contact '${pyStr(user_name)}' added successfully.`,
    });
  }

  search_messages(keyword: PyValue): PyValue {
    if (!pyTruthy(this.current_user)) return errorResult(NOT_LOGGED_IN);
    const needle = lower(keyword);
    const results: PyValue[] = [];
    for (const message of this.inbox) {
      const [receiver, content] = firstItem(message);
      if (lower(content).includes(needle)) {
        results.push(pyDict({ receiver_id: receiver, message: content }));
      }
    }
    return pyDict({ results });
  }

  get_message_stats(): PyValue {
    if (!pyTruthy(this.current_user)) return errorResult(NOT_LOGGED_IN);
    let receivedCount = 0n;
    const contacts = new PySet();
    for (const message of this.inbox) {
      const [receiver] = firstItem(message);
      receivedCount += 1n;
      if (!setHas(contacts, receiver)) contacts.items.add(receiver);
    }
    return pyDict({
      stats: pyDict({ received_count: receivedCount, total_contacts: BigInt(contacts.items.size) }),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Python operations used above

function errorResult(message: string): PyDict {
  return pyDict({ error: message });
}

/** `scenario.get(key, fallback)`: a key present with value None gives None, not the fallback. */
function scenarioGet(scenario: PyDict, key: string, fallback: PyValue): PyValue {
  return scenario.has(key) ? scenario.get(key)! : fallback;
}

function expectDict(v: PyValue, name: string): PyDict {
  if (v instanceof Map) return v;
  throw new PyException('TypeError', `MessageAPI scenario '${name}' must be a dict, not ${pyTypeName(v)}`);
}

function expectList(v: PyValue, name: string): PyValue[] {
  if (Array.isArray(v)) return v;
  throw new PyException('TypeError', `MessageAPI scenario '${name}' must be a list, not ${pyTypeName(v)}`);
}

function seedOf(v: PyValue): bigint | number {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new PyException('TypeError', `unsupported random seed type: '${pyTypeName(v)}'`);
}

/** The value as a dict key; Python raises TypeError for lists, dicts and sets. */
function hashable(v: PyValue): PyKey {
  if (Array.isArray(v) || v instanceof Map || v instanceof PySet) {
    throw new PyException('TypeError', `unhashable type: '${pyTypeName(v)}'`);
  }
  if (v instanceof PyTuple) {
    v.items.forEach(hashable);
    return v;
  }
  // Other objects (only Ellipsis can come from a call) hash by identity in Python; a Map can hold
  // them as keys too, and every printer of dict keys accepts them.
  if (v instanceof PyObject) return v as unknown as PyKey;
  return v;
}

/** `d[k]` for a key known to be present. */
function lookup(d: PyDict, key: PyValue): PyValue {
  return lookupOrUndefined(d, key) ?? null;
}

function lookupOrUndefined(d: PyDict, key: PyValue): PyValue | undefined {
  const k = hashable(key);
  if (d.has(k)) return d.get(k);
  for (const [existing, value] of d) if (pyEquals(existing, k)) return value;
  return undefined;
}

/** `d[k] = v`: an equal existing key keeps its identity and position. */
function dictSet(d: PyDict, key: PyValue, value: PyValue): void {
  const k = hashable(key);
  if (!d.has(k)) {
    for (const existing of d.keys()) {
      if (pyEquals(existing, k)) {
        d.set(existing, value);
        return;
      }
    }
  }
  d.set(k, value);
}

/** `x in container` for the containers `generated_ids` can hold. */
function pyContains(container: PyValue, x: bigint): boolean {
  if (container instanceof PySet) return setHas(container, x);
  if (Array.isArray(container)) return listContains(container, x);
  if (container instanceof Map) return dictHas(container, x);
  throw new PyException('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** `list(message.items())[0]` of an inbox entry. */
function firstItem(message: PyValue): [PyKey, PyValue] {
  if (!(message instanceof Map)) {
    throw new PyException('AttributeError', `'${pyTypeName(message)}' object has no attribute 'items'`);
  }
  const first = message.entries().next();
  if (first.done === true) throw new PyException('IndexError', 'list index out of range');
  return first.value;
}

function appendTo(list: PyValue, item: PyValue): void {
  if (!Array.isArray(list)) {
    throw new PyException('AttributeError', `'${pyTypeName(list)}' object has no attribute 'append'`);
  }
  list.push(item);
}

/** `s.lower()`; any other type has no `lower` attribute. */
function lower(s: PyValue): string {
  if (typeof s !== 'string') {
    throw new PyException('AttributeError', `'${pyTypeName(s)}' object has no attribute 'lower'`);
  }
  return s.toLowerCase();
}

/** `x += 1` on a counter (an int in every scenario). */
function increment(v: PyValue): PyValue {
  if (typeof v === 'bigint') return v + 1n;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return (v ? 1n : 0n) + 1n;
  throw new PyException('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(v)}' and 'int'`);
}

/** Python `str.zfill(width)`: zeros after a leading sign. */
function zfill(s: string, width: number): string {
  if (s.length >= width) return s;
  const sign = s.startsWith('-') || s.startsWith('+') ? s[0]! : '';
  return sign + '0'.repeat(width - s.length) + s.slice(sign.length);
}
