/**
 * TicketAPI: the simulated support-ticket system of the multi-turn categories.
 *
 * Port of the reference's `ticket_api.py` (spec §6.5). Tickets are dicts in a queue (a list),
 * found by their `id` field; any non-empty username/password pair logs in.
 */
import { compareCodePoints } from '../py/builtins.js';
import { augmented, dictGetOr, dictSet, expectDictFor, expectStrItems, getItem, lower, pyCompare } from '../py/ops.js';
import { pyStr } from '../py/repr.js';
import { listContains, pyDict, pyEquals, pyTruthy, type PyDict, type PyKey, type PyValue } from '../py/value.js';
import { SimulatedApi, opt, req, type MethodSignatures } from './simulated-api.js';

/** Allowed priorities, 5 being the most urgent. */
const MIN_PRIORITY = 1n;
const MAX_PRIORITY = 5n;
/** Fields `edit_ticket` may change. */
const EDITABLE_FIELDS: readonly string[] = ['title', 'description', 'status', 'priority'];

const ticketNotFound = (ticketId: PyValue): PyDict => pyDict({ error: `Ticket with ID ${pyStr(ticketId)} not found.` });

/** Python signatures of the public methods (one table for every instance). */
const SIGNATURES: MethodSignatures = {
  create_ticket: [req('title'), opt('description', ''), opt('priority', 1n)],
  get_ticket: [req('ticket_id')],
  close_ticket: [req('ticket_id')],
  resolve_ticket: [req('ticket_id'), req('resolution')],
  edit_ticket: [req('ticket_id'), req('updates')],
  ticket_login: [req('username'), req('password')],
  ticket_get_login_status: [],
  logout: [],
  get_user_tickets: [opt('status', null)],
};

export class TicketAPI extends SimulatedApi {
  readonly _className = 'TicketAPI';

  // Public state, in the order the reference's `_load_scenario` assigns it (= `vars()` order).
  /** Ticket dicts `{id, title, description, status, priority, created_by[, resolution]}`. */
  ticket_queue: PyValue[] = [];
  /** Id of the next created ticket. */
  ticket_counter: PyValue = 1n;
  current_user: PyValue = null;

  readonly _signatures = SIGNATURES;

  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    this.ticket_queue = this._scenarioList(scenario, 'ticket_queue', () => []);
    this.ticket_counter = dictGetOr(scenario, 'ticket_counter', 1n);
    this.current_user = dictGetOr(scenario, 'current_user', null);
  }

  create_ticket(title: PyValue, description: PyValue, priority: PyValue): PyValue {
    if (!pyTruthy(this.current_user)) {
      return pyDict({ error: 'User not authenticated. Please log in to create a ticket.' });
    }
    if (pyCompare('<', priority, MIN_PRIORITY) || pyCompare('>', priority, MAX_PRIORITY)) {
      return pyDict({ error: 'Invalid priority. Priority must be between 1 and 5.' });
    }
    const ticket = pyDict({
      id: this.ticket_counter,
      title,
      description,
      status: 'Open',
      priority,
      created_by: this.current_user,
    });
    this.ticket_queue.push(ticket);
    this.ticket_counter = augmented('+', this.ticket_counter, 1n);
    return ticket;
  }

  get_ticket(ticket_id: PyValue): PyValue {
    return this._findTicket(ticket_id) ?? ticketNotFound(ticket_id);
  }

  close_ticket(ticket_id: PyValue): PyValue {
    const ticket = this._findTicket(ticket_id);
    if (ticket === undefined) return ticketNotFound(ticket_id);
    if (pyEquals(getItem(ticket, 'status'), 'Closed')) {
      return pyDict({ error: `Ticket with ID ${pyStr(ticket_id)} is already closed.` });
    }
    dictSet(ticket, 'status', 'Closed');
    return pyDict({ status: `Ticket ${pyStr(ticket_id)} has been closed successfully.` });
  }

  resolve_ticket(ticket_id: PyValue, resolution: PyValue): PyValue {
    const ticket = this._findTicket(ticket_id);
    if (ticket === undefined) return ticketNotFound(ticket_id);
    if (pyEquals(getItem(ticket, 'status'), 'Resolved')) {
      return pyDict({ error: `Ticket with ID ${pyStr(ticket_id)} is already resolved.` });
    }
    dictSet(ticket, 'status', 'Resolved');
    dictSet(ticket, 'resolution', resolution);
    return pyDict({ status: `Ticket ${pyStr(ticket_id)} has been resolved successfully.` });
  }

  edit_ticket(ticket_id: PyValue, updates: PyValue): PyValue {
    const ticket = this._findTicket(ticket_id);
    if (ticket === undefined) return ticketNotFound(ticket_id);
    const changes = expectDictFor(updates, 'keys');
    const invalid = invalidFields([...changes.keys()]);
    if (invalid.length > 0) return pyDict({ error: `Invalid fields for update: ${invalid.join(', ')}` });
    for (const [key, value] of changes) {
      if (value !== null) dictSet(ticket, key, value);
    }
    return pyDict({ status: `Ticket ${pyStr(ticket_id)} has been updated successfully.` });
  }

  ticket_login(username: PyValue, password: PyValue): PyValue {
    // Any non-empty pair is accepted (the reference does no real credential check).
    if (pyTruthy(username) && pyTruthy(password)) {
      this.current_user = username;
      return pyDict({ success: true });
    }
    return pyDict({ success: false });
  }

  ticket_get_login_status(): PyValue {
    return pyDict({ login_status: pyTruthy(this.current_user) });
  }

  logout(): PyValue {
    if (!pyTruthy(this.current_user)) return pyDict({ success: false });
    this.current_user = null;
    return pyDict({ success: true });
  }

  /** LIST of the current user's tickets, optionally of one status (case-insensitive). */
  get_user_tickets(status: PyValue): PyValue {
    // The error comes back as a one-element list, not as a dict.
    if (!pyTruthy(this.current_user)) {
      return [pyDict({ error: 'User not authenticated. Please log in to view tickets.' })];
    }
    let userTickets = this.ticket_queue.filter((ticket) => pyEquals(getItem(ticket, 'created_by'), this.current_user));
    if (pyTruthy(status)) {
      userTickets = userTickets.filter((ticket) => lower(getItem(ticket, 'status')) === lower(status));
    }
    return userTickets;
  }

  /** The first ticket whose `id` equals `ticketId` (Python `==`: `1.0` finds ticket 1, `'1'` does not). */
  private _findTicket(ticketId: PyValue): PyDict | undefined {
    for (const ticket of this.ticket_queue) {
      if (pyEquals(getItem(ticket, 'id'), ticketId)) return ticket as PyDict;
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Python operations used above

/**
 * `set(updates.keys()) - valid_fields`, joined with `', '` by the caller.
 * BFCL parity: ticket_api.py::edit_ticket — the invalid fields are joined in set iteration order,
 * which for str keys depends on CPython's per-process hash seed (spec §10). We list them sorted by
 * code point instead, a stable order; with a single invalid field the text is identical.
 */
function invalidFields(keys: PyKey[]): string[] {
  const invalid: PyKey[] = [];
  for (const key of keys) {
    if (typeof key === 'string' && EDITABLE_FIELDS.includes(key)) continue;
    if (!listContains(invalid, key)) invalid.push(key);
  }
  // `str.join` accepts only strings.
  return expectStrItems(invalid).sort(compareCodePoints);
}
