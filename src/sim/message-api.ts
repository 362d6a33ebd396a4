/**
 * MessageAPI: the simulated workspace messenger of the multi-turn categories.
 *
 * Port of the reference's `message_api.py` (spec §6.3). Users are a name → id dict, the "inbox" is
 * a list of one-entry dicts `{receiver_id: message}` holding every message ever sent, and message
 * ids come from a per-instance CPython-compatible random generator.
 */
import {
  augmented,
  dictContains,
  dictGetOr,
  dictLookup,
  dictSet,
  expectListFor,
  getItem,
  hashKey,
  lower,
  noAttribute,
  pyContains,
} from '../py/ops.js';
import { PyRandom } from '../py/random.js';
import { pyStr } from '../py/repr.js';
import { PyException, PySet, listContains, pyDict, pyEquals, pyTruthy, setHas, type PyDict, type PyKey, type PyValue } from '../py/value.js';
import { randomSeed } from './scenario.js';
import { SimulatedApi, req, type MethodSignatures } from './simulated-api.js';

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

/** Python signatures of the public methods (one table for every instance). */
const SIGNATURES: MethodSignatures = {
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

  readonly _signatures = SIGNATURES;

  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    const get = (key: string, fallback: PyValue): PyValue => dictGetOr(scenario, key, fallback);
    this._random = new PyRandom(randomSeed(get('random_seed', DEFAULT_RANDOM_SEED)));
    this.generated_ids = get('generated_ids', new PySet());
    this.user_count = get('user_count', 4n);
    this.user_map = this._scenarioDict(scenario, 'user_map', () => defaultUserMap());
    this.inbox = this._scenarioList(scenario, 'inbox', () => defaultInbox());
    this.message_count = get('message_count', 3n);
    this.current_user = get('current_user', null);
  }

  /** A fresh message id: redrawn while it collides with an id already handed out. */
  private _generateId(): PyDict {
    let newId = this._random.randint(MESSAGE_ID_MIN, MESSAGE_ID_MAX);
    while (pyContains(this.generated_ids, newId)) {
      newId = this._random.randint(MESSAGE_ID_MIN, MESSAGE_ID_MAX);
    }
    if (!(this.generated_ids instanceof PySet)) throw noAttribute(this.generated_ids, 'add');
    this.generated_ids.items.add(newId);
    return pyDict({ new_id: newId });
  }

  list_users(): PyValue {
    return pyDict({ user_list: [...this.user_map.keys()] });
  }

  get_user_id(user: PyValue): PyValue {
    if (!dictContains(this.user_map, user)) {
      return errorResult(`User '${pyStr(user)}' not found in the workspace.`);
    }
    return pyDict({ user_id: getItem(this.user_map, user) });
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
    this.inbox.push(new Map([[hashKey(receiver_id), message]]));
    this.message_count = augmented('+', this.message_count, 1n);
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
      const existing = dictLookup(sent, receiver);
      if (existing === undefined) dictSet(sent, receiver, [content]);
      else expectListFor(existing, 'append').push(content);
    }
    return pyDict({ messages: sent });
  }

  add_contact(user_name: PyValue): PyValue {
    if (dictContains(this.user_map, user_name)) {
      return errorResult(`User name '${pyStr(user_name)}' already exists.`);
    }
    // The count goes up even when the resulting id turns out to be taken.
    this.user_count = augmented('+', this.user_count, 1n);
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

/** `list(message.items())[0]` of an inbox entry. */
function firstItem(message: PyValue): [PyKey, PyValue] {
  if (!(message instanceof Map)) throw noAttribute(message, 'items');
  const first = message.entries().next();
  if (first.done === true) throw new PyException('IndexError', 'list index out of range');
  return first.value;
}

/** Python `str.zfill(width)`: zeros after a leading sign. */
function zfill(s: string, width: number): string {
  if (s.length >= width) return s;
  const sign = s.startsWith('-') || s.startsWith('+') ? s[0]! : '';
  return sign + '0'.repeat(width - s.length) + s.slice(sign.length);
}
