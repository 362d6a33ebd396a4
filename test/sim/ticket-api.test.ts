import { describe, expect, it } from 'vitest';
import { pyDict, type PyValue } from '../../src/py/value.js';
import { TicketAPI } from '../../src/sim/ticket-api.js';
import { callMethod, loadSim, raised, show } from '../helpers/sim.js';

const api = (scenario: Record<string, PyValue> = {}): TicketAPI => loadSim((ctx) => new TicketAPI(ctx), scenario);

const ticket = (id: bigint, status: string, createdBy: string) =>
  pyDict({ id, title: `T${id}`, description: 'd', status, priority: 2n, created_by: createdBy });

function withQueue(): TicketAPI {
  return api({
    current_user: 'ann',
    ticket_counter: 4n,
    ticket_queue: [ticket(1n, 'Open', 'ann'), ticket(2n, 'Closed', 'bob'), ticket(3n, 'open', 'ann')],
  });
}

describe('TicketAPI state', () => {
  it('lists the public state in the reference order with the default values', () => {
    expect(show(pyDict(api()._publicState()))).toBe('{"ticket_queue": [], "ticket_counter": 1, "current_user": null}');
  });

  it('takes every attribute from the scenario', () => {
    const t = api({ ticket_queue: [ticket(9n, 'Open', 'x')], ticket_counter: 10n, current_user: 'x' });
    expect(show(pyDict(t._publicState()))).toBe(
      '{"ticket_queue": [{"id": 9, "title": "T9", "description": "d", "status": "Open", "priority": 2, "created_by": "x"}], ' +
        '"ticket_counter": 10, "current_user": "x"}',
    );
  });
});

describe('TicketAPI login', () => {
  it('ticket_login accepts any non-empty pair', () => {
    const t = api();
    expect(show(t.ticket_get_login_status())).toBe('{"login_status": false}');
    expect(show(t.ticket_login('ann', ''))).toBe('{"success": false}');
    expect(show(t.ticket_login('ann', 'pw'))).toBe('{"success": true}');
    expect(t.current_user).toBe('ann');
    expect(show(t.ticket_get_login_status())).toBe('{"login_status": true}');
  });

  it('logout', () => {
    const t = api({ current_user: 'ann' });
    expect(show(t.logout())).toBe('{"success": true}');
    expect(t.current_user).toBeNull();
    expect(show(t.logout())).toBe('{"success": false}');
  });
});

describe('TicketAPI tickets', () => {
  it('create_ticket needs a user and a priority from 1 to 5', () => {
    const t = api();
    expect(show(t.create_ticket('x', '', 1n))).toBe(
      '{"error": "User not authenticated. Please log in to create a ticket."}',
    );
    t.ticket_login('ann', 'pw');
    const invalid = '{"error": "Invalid priority. Priority must be between 1 and 5."}';
    expect(show(t.create_ticket('x', '', 0n))).toBe(invalid);
    expect(show(t.create_ticket('x', '', 6n))).toBe(invalid);
    expect(show(t.create_ticket('x', '', 5.5))).toBe(invalid);
    expect(raised(() => t.create_ticket('x', '', '3'))).toBe(
      "TypeError: '<' not supported between instances of 'str' and 'int'",
    );
    expect(t.ticket_queue).toEqual([]);
  });

  it('create_ticket with the signature defaults', () => {
    const t = api({ current_user: 'ann' });
    expect(show(callMethod(t, 'create_ticket', { title: 'Broken' }))).toBe(
      '{"id": 1, "title": "Broken", "description": "", "status": "Open", "priority": 1, "created_by": "ann"}',
    );
    expect(show(callMethod(t, 'create_ticket', { title: 'Urgent', description: 'now', priority: 5.0 }))).toBe(
      '{"id": 2, "title": "Urgent", "description": "now", "status": "Open", "priority": 5.0, "created_by": "ann"}',
    );
    expect(t.ticket_counter).toBe(3n);
    expect(t.ticket_queue.length).toBe(2);
  });

  it('get_ticket compares ids with Python ==', () => {
    const t = withQueue();
    expect(show(t.get_ticket(2n))).toBe(
      '{"id": 2, "title": "T2", "description": "d", "status": "Closed", "priority": 2, "created_by": "bob"}',
    );
    expect(show(t.get_ticket(2))).toContain('"id": 2');
    expect(show(t.get_ticket('2'))).toBe('{"error": "Ticket with ID 2 not found."}');
  });

  it('a ticket without an id field raises KeyError', () => {
    const t = api({ ticket_queue: [pyDict({ status: 'Open' })] });
    expect(raised(() => t.get_ticket(1n))).toBe("KeyError: 'id'");
  });

  it('close_ticket', () => {
    const t = withQueue();
    expect(show(t.close_ticket(1n))).toBe('{"status": "Ticket 1 has been closed successfully."}');
    expect(show(t.get_ticket(1n))).toContain('"status": "Closed"');
    expect(show(t.close_ticket(1n))).toBe('{"error": "Ticket with ID 1 is already closed."}');
    expect(show(t.close_ticket(99n))).toBe('{"error": "Ticket with ID 99 not found."}');
  });

  it('resolve_ticket adds a resolution field at the end', () => {
    const t = withQueue();
    expect(show(t.resolve_ticket(3n, 'fixed'))).toBe('{"status": "Ticket 3 has been resolved successfully."}');
    expect(show(t.get_ticket(3n))).toBe(
      '{"id": 3, "title": "T3", "description": "d", "status": "Resolved", "priority": 2, "created_by": "ann", "resolution": "fixed"}',
    );
    expect(show(t.resolve_ticket(3n, 'again'))).toBe('{"error": "Ticket with ID 3 is already resolved."}');
    expect(show(t.resolve_ticket(99n, 'x'))).toBe('{"error": "Ticket with ID 99 not found."}');
  });

  it('edit_ticket updates the given fields, skipping None values', () => {
    const t = withQueue();
    expect(show(t.edit_ticket(1n, pyDict({ priority: 4n, title: null, status: 'In Progress' })))).toBe(
      '{"status": "Ticket 1 has been updated successfully."}',
    );
    expect(show(t.get_ticket(1n))).toBe(
      '{"id": 1, "title": "T1", "description": "d", "status": "In Progress", "priority": 4, "created_by": "ann"}',
    );
    expect(show(t.edit_ticket(99n, pyDict({})))).toBe('{"error": "Ticket with ID 99 not found."}');
  });

  it('edit_ticket rejects unknown fields, listed in sorted order', () => {
    const t = withQueue();
    expect(show(t.edit_ticket(1n, pyDict({ owner: 'x', title: 'y' })))).toBe(
      '{"error": "Invalid fields for update: owner"}',
    );
    expect(show(t.edit_ticket(1n, pyDict({ zeta: 1n, alpha: 2n })))).toBe(
      '{"error": "Invalid fields for update: alpha, zeta"}',
    );
    expect(show(t.get_ticket(1n))).toContain('"title": "T1"');
    expect(raised(() => t.edit_ticket(1n, new Map([[1n, 'x']])))).toBe(
      'TypeError: sequence item 0: expected str instance, int found',
    );
    expect(raised(() => t.edit_ticket(1n, ['title']))).toBe("AttributeError: 'list' object has no attribute 'keys'");
  });
});

describe('TicketAPI get_user_tickets', () => {
  it('returns a one-element error list when nobody is logged in', () => {
    expect(show(api().get_user_tickets(null))).toBe(
      "[{'error': 'User not authenticated. Please log in to view tickets.'}]",
    );
  });

  it("returns the current user's tickets, optionally filtered by status (case-insensitive)", () => {
    const t = withQueue();
    const ids = (v: PyValue) => (v as Map<string, PyValue>[]).map((x) => x.get('id'));
    expect(ids(callMethod(t, 'get_user_tickets', {}))).toEqual([1n, 3n]);
    expect(ids(t.get_user_tickets('OPEN'))).toEqual([1n, 3n]);
    expect(ids(t.get_user_tickets('Closed'))).toEqual([]);
    expect(ids(t.get_user_tickets(''))).toEqual([1n, 3n]);
    expect(show(t.get_user_tickets('closed'))).toBe('[]');
    expect(raised(() => t.get_user_tickets(1n))).toBe("AttributeError: 'int' object has no attribute 'lower'");
  });

  it('a ticket without created_by raises KeyError', () => {
    const t = api({ current_user: 'ann', ticket_queue: [pyDict({ id: 1n, status: 'Open' })] });
    expect(raised(() => t.get_user_tickets(null))).toBe("KeyError: 'created_by'");
  });
});
