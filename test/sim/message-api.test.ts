import { describe, expect, it } from 'vitest';
import { PySet, pyDict, type PyDict, type PyValue } from '../../src/py/value.js';
import { MessageAPI } from '../../src/sim/message-api.js';
import { loadSim, raised, show } from '../helpers/sim.js';

/** A MessageAPI after `_load_scenario(scenario)`. */
const api = (scenario: Record<string, PyValue> = {}): MessageAPI => loadSim((ctx) => new MessageAPI(ctx), scenario);

const loggedIn = (): MessageAPI => api({ current_user: 'USR001' });

describe('MessageAPI state', () => {
  it('lists the public state in the reference order with the default values', () => {
    const state = api()._publicState();
    expect(state.map(([name]) => name)).toEqual([
      'generated_ids',
      'user_count',
      'user_map',
      'inbox',
      'message_count',
      'current_user',
    ]);
    expect(state[0]![1]).toBeInstanceOf(PySet);
    expect(show(pyDict(state.slice(1)))).toBe(
      '{"user_count": 4, "user_map": {"Alice": "USR001", "Bob": "USR002", "Catherine": "USR003", "Daniel": "USR004"}, ' +
        '"inbox": [{"USR002": "My name is Alice. I want to connect."}, {"USR003": "Could you upload the file?"}, ' +
        '{"USR004": "Could you upload the file?"}], "message_count": 3, "current_user": null}',
    );
  });

  it('takes every attribute from the scenario, keeping None as given', () => {
    const m = api({
      user_count: 1n,
      user_map: pyDict({ Zed: 'USR001' }),
      inbox: [],
      message_count: 0n,
      current_user: 'USR001',
    });
    expect(show(pyDict(m._publicState().slice(1)))).toBe(
      '{"user_count": 1, "user_map": {"Zed": "USR001"}, "inbox": [], "message_count": 0, "current_user": "USR001"}',
    );
  });

  it('does not share the default state between instances', () => {
    const a = api({ current_user: 'USR001' });
    a.add_contact('Eve');
    a.send_message('USR002', 'hi');
    const b = api();
    expect(b.user_map.size).toBe(4);
    expect(b.inbox.length).toBe(3);
  });

  it('exposes every public method in _signatures', () => {
    expect(Object.keys(api()._signatures)).toEqual([
      'list_users',
      'get_user_id',
      'message_login',
      'message_get_login_status',
      'send_message',
      'delete_message',
      'view_messages_sent',
      'add_contact',
      'search_messages',
      'get_message_stats',
    ]);
  });
});

describe('MessageAPI users and login', () => {
  it('list_users', () => {
    expect(show(api().list_users())).toBe('{"user_list": ["Alice", "Bob", "Catherine", "Daniel"]}');
  });

  it('get_user_id', () => {
    const m = api();
    expect(show(m.get_user_id('Bob'))).toBe('{"user_id": "USR002"}');
    expect(show(m.get_user_id('bob'))).toBe('{"error": "User \'bob\' not found in the workspace."}');
    expect(show(m.get_user_id(5n))).toBe('{"error": "User \'5\' not found in the workspace."}');
    expect(raised(() => m.get_user_id(['Bob']))).toBe("TypeError: unhashable type: 'list'");
  });

  it('message_login and message_get_login_status', () => {
    const m = api();
    expect(show(m.message_get_login_status())).toBe('{"login_status": false}');
    expect(show(m.message_login('USR009'))).toBe('{"login_status": false, "message": "User ID \'USR009\' not found."}');
    expect(m.current_user).toBeNull();
    expect(show(m.message_login('USR003'))).toBe(
      '{"login_status": true, "message": "User \'USR003\' logged in successfully."}',
    );
    expect(m.current_user).toBe('USR003');
    expect(show(m.message_get_login_status())).toBe('{"login_status": true}');
  });

  it('add_contact assigns the next zero-padded id', () => {
    const m = api();
    expect(show(m.add_contact('Eve'))).toBe(
      '{"added_status": true, "user_id": "USR005", "message": "Contact \'Eve\' added successfully."}',
    );
    expect(m.user_count).toBe(5n);
    expect([...m.user_map]).toContainEqual(['Eve', 'USR005']);
    expect(show(m.add_contact('Alice'))).toBe('{"error": "User name \'Alice\' already exists."}');
    expect(m.user_count).toBe(5n);
  });

  it('add_contact counts up even when the new id is already taken', () => {
    const m = api({ user_count: 1n, user_map: pyDict({ A: 'USR001', B: 'USR002' }) });
    expect(show(m.add_contact('C'))).toBe('{"error": "User ID \'USR002\' already exists."}');
    expect(m.user_count).toBe(2n);
    expect(show(m.add_contact('C'))).toContain('"user_id": "USR003"');
    const big = api({ user_count: 1233n });
    expect(show(big.add_contact('X'))).toContain('"user_id": "USR1234"');
  });
});

describe('MessageAPI messages', () => {
  it('requires a logged-in user', () => {
    const m = api();
    const error = '{"error": "No user is currently logged in."}';
    expect(show(m.send_message('USR002', 'hi'))).toBe(error);
    expect(show(m.delete_message('USR002'))).toBe(error);
    expect(show(m.view_messages_sent())).toBe(error);
    expect(show(m.search_messages('file'))).toBe(error);
    expect(show(m.get_message_stats())).toBe(error);
  });

  it('send_message draws ids from Random(200191) and appends to the inbox', () => {
    const m = loggedIn();
    expect(show(m.send_message('USR002', 'Hello'))).toBe(
      '{"sent_status": true, "message_id": {"new_id": 67410}, "message": "Message sent to \'USR002\' successfully."}',
    );
    expect(show(m.send_message('USR003', 'Again'))).toContain('{"new_id": 41772}');
    expect(show(m.send_message('USR004', 'Third'))).toContain('{"new_id": 24547}');
    expect(m.message_count).toBe(6n);
    expect(show(m.inbox.at(-1)!)).toBe('{"USR004": "Third"}');
    expect([...(m.generated_ids as PySet).items]).toEqual([67410n, 41772n, 24547n]);
  });

  it('send_message redraws ids that were already generated', () => {
    const m = api({ current_user: 'USR001', generated_ids: new PySet([67410n]) });
    expect(show(m.send_message('USR002', 'x'))).toContain('{"new_id": 41772}');
  });

  it('send_message uses the scenario random_seed', () => {
    const m = api({ current_user: 'USR001', random_seed: 200191n });
    expect(show(m.send_message('USR002', 'x'))).toContain('{"new_id": 67410}');
    const other = api({ current_user: 'USR001', random_seed: 1n });
    expect(show(other.send_message('USR002', 'x'))).toContain('{"new_id": 27611}');
  });

  it('send_message rejects unknown receivers without drawing an id', () => {
    const m = loggedIn();
    expect(show(m.send_message('USR999', 'x'))).toBe('{"error": "Receiver ID \'USR999\' not found."}');
    expect(m.message_count).toBe(3n);
    expect(show(m.send_message('USR002', 'x'))).toContain('{"new_id": 67410}');
  });

  it('delete_message removes the latest message to the receiver', () => {
    const m = loggedIn();
    m.send_message('USR003', 'newer');
    expect(show(m.delete_message('USR003'))).toBe(
      '{"deleted_status": true, "receiver_id": "USR003", "message": "Receiver USR003\'s latest message deleted successfully."}',
    );
    expect(show(m.inbox)).toBe(
      "[{'USR002': 'My name is Alice. I want to connect.'}, {'USR003': 'Could you upload the file?'}, {'USR004': 'Could you upload the file?'}]",
    );
    expect(m.message_count).toBe(4n); // not decremented
    expect(show(m.delete_message('USR001'))).toBe('{"error": "Receiver ID USR001 not found."}');
  });

  it('delete_message removes the first entry equal to the latest match (list.remove)', () => {
    const m = api({
      current_user: 'USR001',
      inbox: [pyDict({ USR002: 'same' }), pyDict({ USR003: 'between' }), pyDict({ USR002: 'same' })],
    });
    m.delete_message('USR002');
    expect(show(m.inbox)).toBe("[{'USR003': 'between'}, {'USR002': 'same'}]");
  });

  it('view_messages_sent groups the whole inbox by receiver', () => {
    const m = loggedIn();
    m.send_message('USR002', 'second');
    expect(show(m.view_messages_sent())).toBe(
      '{"messages": {"USR002": ["My name is Alice. I want to connect.", "second"], ' +
        '"USR003": ["Could you upload the file?"], "USR004": ["Could you upload the file?"]}}',
    );
  });

  it('view_messages_sent keeps list-valued scenario messages as they are', () => {
    const m = api({ current_user: 'USR001', inbox: [pyDict({ USR002: ['a'] }), pyDict({ USR002: 'b' })] });
    expect(show(m.view_messages_sent())).toBe('{"messages": {"USR002": [["a"], "b"]}}');
  });

  it('search_messages is case-insensitive', () => {
    const m = loggedIn();
    expect(show(m.search_messages('FILE'))).toBe(
      '{"results": [{"receiver_id": "USR003", "message": "Could you upload the file?"}, ' +
        '{"receiver_id": "USR004", "message": "Could you upload the file?"}]}',
    );
    expect(show(m.search_messages('nothing'))).toBe('{"results": []}');
    expect(raised(() => m.search_messages(3n))).toBe("AttributeError: 'int' object has no attribute 'lower'");
  });

  it('search_messages fails on a list-valued message like the reference', () => {
    const m = api({ current_user: 'USR001', inbox: [pyDict({ USR002: ['Meeting'] })] });
    expect(raised(() => m.search_messages('meet'))).toBe("AttributeError: 'list' object has no attribute 'lower'");
  });

  it('get_message_stats counts messages and distinct receivers', () => {
    const m = loggedIn();
    m.send_message('USR002', 'x');
    expect(show(m.get_message_stats())).toBe('{"stats": {"received_count": 4, "total_contacts": 3}}');
  });

  it('an empty inbox entry raises IndexError', () => {
    const m = api({ current_user: 'USR001', inbox: [new Map() as PyDict] });
    expect(raised(() => m.get_message_stats())).toBe('IndexError: list index out of range');
  });
});
