import { describe, expect, it } from 'vitest';
import { jsonDumps } from '../../src/py/json.js';
import { PyTuple, pyDict, type PyDict, type PyValue } from '../../src/py/value.js';
import { TravelAPI } from '../../src/sim/travel-api.js';
import { EMPTY_CONTEXT, callMethod, loadSim, raised, show } from '../helpers/sim.js';

/** 2024-09-01, a fixed "today" for the age check. */
const today = (): Date => new Date(2024, 8, 1);

const api = (scenario: Record<string, PyValue> = {}, longContext = false, ctx = EMPTY_CONTEXT): TravelAPI =>
  loadSim((c) => new TravelAPI(c, today), scenario, longContext, ctx);

const card = (balance: PyValue, cardholder = 'Ada Lovelace'): PyDict =>
  pyDict({
    card_number: '4111111111111111',
    expiration_date: '12/2030',
    cardholder_name: cardholder,
    card_verification_number: 123n,
    balance,
  });

/** A logged-in traveller with one card, shaped like the dataset's scenarios. */
function loggedIn(extra: Record<string, PyValue> = {}): Record<string, PyValue> {
  return {
    credit_card_list: pyDict({ card_1: card(5000.0) }),
    booking_record: pyDict({
      booking_1: pyDict({
        card_id: 'card_1',
        travel_date: '2024-12-24',
        travel_from: 'SFO',
        travel_to: 'LAX',
        travel_class: 'economy',
        travel_cost: 200.0,
        transaction_id: 'trans_1',
      }),
    }),
    access_token: 'tok',
    token_type: 'Bearer',
    token_expires_in: 3600n,
    token_scope: 'read_write',
    user_first_name: 'Ada',
    user_last_name: 'Lovelace',
    ...extra,
  };
}

const state = (t: TravelAPI): string => jsonDumps(new Map(t._publicState()));

describe('TravelAPI scenario loading', () => {
  it('has the reference defaults in vars() order', () => {
    const t = api();
    expect(t._publicState().map(([k]) => k)).toEqual([
      'credit_card_list',
      'booking_record',
      'access_token',
      'token_type',
      'token_expires_in',
      'token_scope',
      'user_first_name',
      'user_last_name',
      'budget_limit',
      'long_context',
    ]);
    expect(state(t)).toBe(
      '{"credit_card_list": {}, "booking_record": {}, "access_token": null, "token_type": null, "token_expires_in": null, ' +
        '"token_scope": null, "user_first_name": null, "user_last_name": null, "budget_limit": null, "long_context": false}',
    );
  });

  it('keeps scenario values and ignores unknown keys', () => {
    const t = api(loggedIn({ budget_limit: 1000.0, current_location: 'Rivermist' }));
    expect(t.budget_limit).toBe(1000.0);
    expect(t.access_token).toBe('tok');
    expect(t._publicState().some(([k]) => k === 'current_location')).toBe(false);
  });

  it('merges the long-context cards and bookings without overwriting, sharing the extension dicts', () => {
    const extensionCard = card(7500.0, 'Jane Smith');
    const ctx = {
      longContext: pyDict({
        CREDIT_CARD_EXTENSION: pyDict({ card_1: card(1.0, 'Other'), ext_card: extensionCard }),
        BOOKING_RECORD_EXTENSION: pyDict({ booking_901: pyDict({ card_id: 'ext_card', travel_cost: 400.0 }) }),
      }),
    };
    const t = api(loggedIn(), true, ctx);
    expect([...t.credit_card_list.keys()]).toEqual(['card_1', 'ext_card']);
    expect((t.credit_card_list.get('card_1') as PyDict).get('cardholder_name')).toBe('Ada Lovelace');
    expect(t.credit_card_list.get('ext_card')).toBe(extensionCard);
    expect([...t.booking_record.keys()]).toEqual(['booking_1', 'booking_901']);
    expect(t.long_context).toBe(true);
  });

  it('seeds ids from random_seed', () => {
    const t = api({ random_seed: 7n });
    const other = api();
    expect(show(t.authenticate_travel('a', 'b', 'c', 'read', 'A', 'B'))).not.toBe(
      show(other.authenticate_travel('a', 'b', 'c', 'read', 'A', 'B')),
    );
  });
});

describe('TravelAPI login and tokens', () => {
  it('authenticate_travel sets a 6-digit token from the seeded generator', () => {
    const t = api();
    expect(show(callMethod(t, 'travel_get_login_status'))).toBe('{"status": false}');
    const result = callMethod(t, 'authenticate_travel', {
      client_id: 'id',
      client_secret: 'secret',
      refresh_token: 'refresh',
      grant_type: 'read_write',
      user_first_name: 'Michael',
      user_last_name: 'Thompson',
    });
    expect(show(result)).toBe('{"expires_in": 2, "access_token": "251675", "token_type": "Bearer", "scope": "read_write"}');
    expect(t.token_expires_in).toBe(2n);
    expect(t.user_first_name).toBe('Michael');
    expect(show(callMethod(t, 'travel_get_login_status'))).toBe('{"status": true}');
  });

  it('travel_get_login_status is false for an expired (0) token', () => {
    expect(show(api(loggedIn({ token_expires_in: 0n })).travel_get_login_status())).toBe('{"status": false}');
  });

  it('get_budget_fiscal_year is constant', () => {
    expect(show(callMethod(api(), 'get_budget_fiscal_year'))).toBe('{"budget_fiscal_year": "2018"}');
    expect(show(callMethod(api(), 'get_budget_fiscal_year', { lastModifiedAfter: '2020-01-01T00:00:00' }))).toBe(
      '{"budget_fiscal_year": "2018"}',
    );
  });
});

describe('TravelAPI credit cards', () => {
  const args = (access_token: PyValue, card_number: PyValue = '4000111122223333') => ({
    access_token,
    card_number,
    expiration_date: '12/2028',
    cardholder_name: 'Ada Lovelace',
    card_verification_number: 456n,
  });

  it('register_credit_card checks the token first', () => {
    expect(show(callMethod(api(), 'register_credit_card', args('x')))).toBe('{"error": "Token not initialized"}');
    expect(show(callMethod(api(loggedIn({ token_expires_in: 0n })), 'register_credit_card', args('tok')))).toBe(
      '{"error": "Token expired"}',
    );
    expect(show(callMethod(api(loggedIn()), 'register_credit_card', args('wrong')))).toBe('{"error": "Invalid access token"}');
  });

  it('register_credit_card stores a 12-digit id and a random int balance, drawn in that order', () => {
    const t = api(loggedIn());
    expect(show(callMethod(t, 'register_credit_card', args('tok')))).toBe('{"card_id": "262919693687"}');
    expect(show(t.credit_card_list.get('262919693687')!)).toBe(
      '{"card_number": "4000111122223333", "expiration_date": "12/2028", "cardholder_name": "Ada Lovelace", ' +
        '"card_verification_number": 456, "balance": 44620}',
    );
  });

  it('register_credit_card compares the card number with the card ids (reference quirk)', () => {
    const t = api(loggedIn());
    expect(show(callMethod(t, 'register_credit_card', args('tok', 'card_1')))).toBe('{"error": "Card already registered"}');
    expect(raised(() => callMethod(t, 'register_credit_card', args('tok', ['x'])))).toBe("TypeError: unhashable type: 'list'");
  });

  it('get_credit_card_balance returns the balance or lists the card ids', () => {
    const t = api(loggedIn({ credit_card_list: pyDict({ card_1: card(5000.0), card_2: card(12n) }) }));
    expect(show(callMethod(t, 'get_credit_card_balance', { access_token: 'tok', card_id: 'card_1' }))).toBe(
      '{"card_balance": 5000.0}',
    );
    expect(show(callMethod(t, 'get_credit_card_balance', { access_token: 'tok', card_id: 'card_2' }))).toBe(
      '{"card_balance": 12}',
    );
    expect(show(callMethod(t, 'get_credit_card_balance', { access_token: 'tok', card_id: 'nope' }))).toBe(
      `{"error": "Card not registered. Here are a list of card_id's: ['card_1', 'card_2']"}`,
    );
    expect(show(callMethod(t, 'get_credit_card_balance', { access_token: 'bad', card_id: 'card_1' }))).toBe(
      '{"error": "Invalid access token"}',
    );
    expect(show(api(loggedIn({ token_expires_in: 0n })).get_credit_card_balance('tok', 'card_1'))).toBe(
      '{"error": "Token expired"}',
    );
  });

  it('get_all_credit_cards returns the live dict', () => {
    const t = api(loggedIn());
    const result = callMethod(t, 'get_all_credit_cards') as PyDict;
    expect(result.get('credit_card_list')).toBe(t.credit_card_list);
    expect(show(result)).toBe(
      '{"credit_card_list": {"card_1": {"card_number": "4111111111111111", "expiration_date": "12/2030", ' +
        '"cardholder_name": "Ada Lovelace", "card_verification_number": 123, "balance": 5000.0}}}',
    );
  });
});

describe('TravelAPI.get_flight_cost', () => {
  const cost = (t: TravelAPI, travel_from: PyValue, travel_to: PyValue, travel_date: PyValue, travel_class: PyValue) =>
    show(callMethod(t, 'get_flight_cost', { travel_from, travel_to, travel_date, travel_class }));

  it('multiplies the base price by the class factor and doubles it on even digit sums', () => {
    const t = api();
    expect(cost(t, 'SFO', 'LAX', '2024-11-16', 'economy')).toBe('{"travel_cost_list": [200.0]}'); // sum 17
    expect(cost(t, 'SFO', 'LAX', '2024-11-15', 'economy')).toBe('{"travel_cost_list": [400.0]}'); // sum 16
    expect(cost(t, 'SFO', 'LAX', '2024-11-15', 'business')).toBe('{"travel_cost_list": [800.0]}');
    expect(cost(t, 'SFO', 'LAX', '2024-11-16', 'first')).toBe('{"travel_cost_list": [1000.0]}');
    expect(cost(t, 'JFK', 'PEK', 'no digits', 'economy')).toBe('{"travel_cost_list": [2000.0]}'); // sum 0
  });

  it('raises for unknown routes (checked first) and classes', () => {
    const t = api();
    expect(raised(() => cost(t, 'LAX', 'SFX', '2024-11-16', 'luxury'))).toBe(
      'ValueError: No available route for the given airports.',
    );
    expect(raised(() => cost(t, 'LAX', 'SFO', '2024-11-16', 'luxury'))).toBe(
      'ValueError: Invalid travel class. Options are: economy, business, first.',
    );
    expect(raised(() => cost(t, 'LAX', 'SFO', 20241116n, 'economy'))).toBe("TypeError: 'int' object is not iterable");
  });

  it('lists the price of every route in long context', () => {
    const t = api({}, true, {
      longContext: pyDict({ CREDIT_CARD_EXTENSION: new Map(), BOOKING_RECORD_EXTENSION: new Map() }),
    });
    const list = (callMethod(t, 'get_flight_cost', {
      travel_from: 'SFO',
      travel_to: 'LAX',
      travel_date: '2024-11-16',
      travel_class: 'business',
    }) as PyDict).get('travel_cost_list') as number[];
    expect(list).toHaveLength(153);
    expect(list.slice(0, 3)).toEqual([400, 1000, 800]);
    expect(list.at(-1)).toBe(440);
  });
});

describe('TravelAPI.book_flight', () => {
  const book = (t: TravelAPI, overrides: Record<string, PyValue> = {}) =>
    show(
      callMethod(t, 'book_flight', {
        access_token: 'tok',
        card_id: 'card_1',
        travel_date: '2024-11-16',
        travel_from: 'SFO',
        travel_to: 'LAX',
        travel_class: 'business',
        ...overrides,
      }),
    );

  it('books, charges the card and records the booking', () => {
    const t = api(loggedIn());
    expect(book(t)).toBe(
      '{"booking_id": "3426812", "transaction_id": "45451592", "booking_status": true, "booking_history": {}}',
    );
    expect((t.credit_card_list.get('card_1') as PyDict).get('balance')).toBe(4600.0);
    expect(show(t.booking_record.get('3426812')!)).toBe(
      '{"card_id": "card_1", "travel_date": "2024-11-16", "travel_from": "SFO", "travel_to": "LAX", ' +
        '"travel_class": "business", "travel_cost": 400.0, "transaction_id": "45451592"}',
    );
  });

  it('turns an int balance into a float once charged', () => {
    const t = api(loggedIn({ credit_card_list: pyDict({ card_1: card(1000n) }) }));
    book(t);
    expect((t.credit_card_list.get('card_1') as PyDict).get('balance')).toBe(600);
    expect(show(t.credit_card_list)).toContain('"balance": 600.0');
  });

  it('validates in the reference order', () => {
    expect(book(api(loggedIn({ token_expires_in: 0n })), { access_token: 'bad' })).toBe(
      '{"booking_status": false, "error": "Token expired"}',
    );
    const t = api(loggedIn({ credit_card_list: pyDict({ card_1: card(300.0), no_balance: pyDict({}) }) }));
    expect(book(t, { access_token: 'bad', card_id: 'x' })).toBe(
      '{"booking_status": false, "error": "Invalid access token"}',
    );
    expect(book(t, { card_id: 'x', travel_from: 'XXX' })).toBe('{"booking_status": false, "error": "Card not registered"}');
    expect(book(t, { card_id: 'no_balance' })).toBe('{"booking_status": false, "error": "Balance not found"}');
    expect(book(t, { travel_from: 'XXX', travel_to: 'YYY' })).toBe(
      '{"booking_status": false, "error": "Invalid departure airport code: XXX"}',
    );
    expect(book(t, { travel_to: 'YYY', travel_date: 'bad' })).toBe(
      '{"booking_status": false, "error": "Invalid destination airport code: YYY"}',
    );
    expect(book(t, { travel_date: '16/11/2024', travel_class: 'luxury' })).toBe(
      '{"booking_status": false, "error": "Invalid date format. Use YYYY-MM-DD."}',
    );
    expect(book(t, { travel_class: 'luxury', travel_to: 'PEK' })).toBe(
      `{"booking_status": false, "error": "Invalid travel class. Must be one of {'economy', 'business', 'first'}"}`,
    );
    expect(book(t, { travel_to: 'PEK' })).toBe(
      '{"booking_status": false, "error": "No available route for the given airports."}',
    );
    expect(book(t, { travel_class: 'first' })).toBe('{"booking_status": false, "error": "Insufficient funds"}');
    const limited = api(loggedIn({ budget_limit: 6000.0 }));
    expect(book(limited)).toBe('{"booking_status": false, "error": "Balance is less than budget limit"}');
    expect(limited.booking_record.size).toBe(1);
  });

  it('accepts the dates strptime("%Y-%m-%d") accepts', () => {
    const t = api(loggedIn({ credit_card_list: pyDict({ card_1: card(1e9) }) }));
    const ok = (date: string) => book(t, { travel_date: date }).includes('"booking_status": true');
    expect(ok('2024-1-5')).toBe(true);
    expect(ok('2024-01- 5')).toBe(true);
    expect(ok('2024-02-29')).toBe(true);
    expect(ok('2023-02-29')).toBe(false);
    expect(ok('2024-04-31')).toBe(false);
    expect(ok('2024-01-011')).toBe(false);
    expect(ok('0000-01-01')).toBe(false);
    expect(ok('24-01-01')).toBe(false);
    expect(ok('2024-11-16 ')).toBe(false);
    expect(raised(() => book(t, { travel_date: 20241116n }))).toBe(
      'TypeError: strptime() argument 1 must be str, not int',
    );
  });

  it('returns the whole booking record in long context', () => {
    const ctx = {
      longContext: pyDict({
        CREDIT_CARD_EXTENSION: new Map(),
        BOOKING_RECORD_EXTENSION: pyDict({ booking_901: pyDict({ card_id: 'c', travel_cost: 400.0 }) }),
      }),
    };
    const t = api(loggedIn(), true, ctx);
    const result = callMethod(t, 'book_flight', {
      access_token: 'tok',
      card_id: 'card_1',
      travel_date: '2024-11-16',
      travel_from: 'SFO',
      travel_to: 'LAX',
      travel_class: 'economy',
    }) as PyDict;
    expect(result.get('booking_history')).toBe(t.booking_record);
    expect([...t.booking_record.keys()]).toEqual(['booking_1', 'booking_901', '3426812']);
  });
});

describe('TravelAPI bookings', () => {
  it('retrieve_invoice returns the booking fields', () => {
    const t = api(loggedIn());
    expect(show(callMethod(t, 'retrieve_invoice', { access_token: 'tok', booking_id: 'booking_1' }))).toBe(
      '{"invoice": {"booking_id": "booking_1", "travel_date": "2024-12-24", "travel_from": "SFO", "travel_to": "LAX", ' +
        '"travel_class": "economy", "travel_cost": 200.0, "transaction_id": "trans_1"}}',
    );
    expect(show(callMethod(t, 'retrieve_invoice', { access_token: 'tok' }))).toBe('{"error": "Booking not found"}');
    expect(show(callMethod(t, 'retrieve_invoice', { access_token: 'bad', booking_id: 'booking_1' }))).toBe(
      '{"error": "Invalid access token"}',
    );
    expect(show(api(loggedIn({ token_expires_in: 0n })).retrieve_invoice('tok', 'booking_1', null))).toBe(
      '{"error": "Token expired"}',
    );
  });

  it('get_booking_history returns a copy', () => {
    const t = api(loggedIn());
    const result = callMethod(t, 'get_booking_history', { access_token: 'tok' }) as PyDict;
    expect(result.get('booking_history')).not.toBe(t.booking_record);
    expect(show(result)).toBe(
      '{"booking_history": {"booking_1": {"card_id": "card_1", "travel_date": "2024-12-24", "travel_from": "SFO", ' +
        '"travel_to": "LAX", "travel_class": "economy", "travel_cost": 200.0, "transaction_id": "trans_1"}}}',
    );
    expect(show(callMethod(t, 'get_booking_history', { access_token: 'bad' }))).toBe('{"error": "Invalid access token"}');
    expect(show(api(loggedIn({ token_expires_in: 0n })).get_booking_history('tok'))).toBe('{"error": "Token expired"}');
  });

  it('cancel_booking refunds the card and deletes the booking', () => {
    const t = api(loggedIn());
    expect(show(callMethod(t, 'cancel_booking', { access_token: 'tok', booking_id: 'nope' }))).toBe(
      '{"cancel_status": false, "error": "Booking not found"}',
    );
    expect(show(callMethod(t, 'cancel_booking', { access_token: 'bad', booking_id: 'booking_1' }))).toBe(
      '{"cancel_status": false, "error": "Invalid access token"}',
    );
    expect(show(callMethod(t, 'cancel_booking', { access_token: 'tok', booking_id: 'booking_1' }))).toBe(
      '{"cancel_status": true}',
    );
    expect((t.credit_card_list.get('card_1') as PyDict).get('balance')).toBe(5200.0);
    expect(t.booking_record.size).toBe(0);
    expect(show(api(loggedIn({ token_expires_in: 0n })).cancel_booking('tok', 'booking_1'))).toBe(
      '{"cancel_status": false, "error": "Token expired"}',
    );
  });

  it('cancel_booking raises a KeyError when the booked card is gone', () => {
    const t = api(loggedIn({ credit_card_list: pyDict({}) }));
    expect(raised(() => t.cancel_booking('tok', 'booking_1'))).toBe("KeyError: 'card_1'");
  });

  it('contact_customer_support needs an existing booking', () => {
    const t = api(loggedIn());
    expect(show(callMethod(t, 'contact_customer_support', { booking_id: 'booking_1', message: 'Help' }))).toBe(
      '{"customer_support_message": "Thank you for contacting customer support. ' +
        'Your message has been received and we will get back to you shortly."}',
    );
    expect(show(callMethod(t, 'contact_customer_support', { booking_id: 'x', message: 'Help' }))).toBe(
      '{"error": "Booking not found"}',
    );
  });

  it('purchase_insurance charges the card and returns a 9-digit id', () => {
    const t = api(loggedIn({ budget_limit: 100.0 }));
    const buy = (overrides: Record<string, PyValue> = {}) =>
      show(
        callMethod(t, 'purchase_insurance', {
          access_token: 'tok',
          insurance_type: 'comprehensive',
          booking_id: 'booking_1',
          insurance_cost: 50n,
          card_id: 'card_1',
          ...overrides,
        }),
      );
    expect(buy({ access_token: 'bad' })).toBe('{"insurance_status": false, "error": "Invalid access token"}');
    expect(buy({ insurance_cost: 150.0, booking_id: 'x' })).toBe(
      '{"insurance_status": false, "error": "Exceeded budget limit"}',
    );
    expect(buy({ booking_id: 'x', card_id: 'y' })).toBe('{"insurance_status": false, "error": "Booking not found"}');
    expect(buy({ card_id: 'y' })).toBe('{"insurance_status": false, "error": "Credit card not registered"}');
    expect(buy()).toBe('{"insurance_id": "255316027", "insurance_status": true}');
    expect((t.credit_card_list.get('card_1') as PyDict).get('balance')).toBe(4950.0);
    expect(raised(() => buy({ insurance_cost: 'x' }))).toBe(
      "TypeError: '<' not supported between instances of 'float' and 'str'",
    );
    expect(show(api(loggedIn({ token_expires_in: 0n })).purchase_insurance('tok', 'a', 'booking_1', 1n, 'card_1'))).toBe(
      '{"insurance_status": false, "error": "Token expired"}',
    );
  });

  it('purchase_insurance keeps an int balance an int for an int cost', () => {
    const t = api(loggedIn({ credit_card_list: pyDict({ card_1: card(1000n) }) }));
    t.purchase_insurance('tok', 'basic', 'booking_1', 30n, 'card_1');
    expect((t.credit_card_list.get('card_1') as PyDict).get('balance')).toBe(970n);
    expect(raised(() => t.purchase_insurance('tok', 'basic', 'booking_1', 'x', 'card_1'))).toBe(
      "TypeError: unsupported operand type(s) for -=: 'int' and 'str'",
    );
  });
});

describe('TravelAPI lookups and conversions', () => {
  it('list_all_airports returns the fixed list', () => {
    expect(show(callMethod(api(), 'list_all_airports'))).toBe(
      "['RMS', 'SBK', 'MPC', 'SVP', 'SHD', 'CDG', 'LHR', 'SSV', 'OKD', 'WLB', 'PEK', 'HND', 'HKG', 'CIA', 'CRH', " +
        "'ATV', 'PHV', 'GFD', 'SFO', 'LAX', 'JFK', 'ORD', 'BOS']",
    );
  });

  it('get_nearest_airport_by_city maps cities, else "Unknown"', () => {
    expect(show(callMethod(api(), 'get_nearest_airport_by_city', { location: 'Rome' }))).toBe('{"nearest_airport": "CIA"}');
    expect(show(callMethod(api(), 'get_nearest_airport_by_city', { location: 'Atlantis' }))).toBe(
      '{"nearest_airport": "Unknown"}',
    );
    expect(raised(() => api().get_nearest_airport_by_city(['Rome']))).toBe("TypeError: unhashable type: 'list'");
  });

  it('compute_exchange_rate multiplies from USD and rounds (half-even) towards USD', () => {
    const rate = (base_currency: PyValue, target_currency: PyValue, value: PyValue) =>
      show(callMethod(api(), 'compute_exchange_rate', { base_currency, target_currency, value }));
    expect(rate('USD', 'RMB', 100n)).toBe('{"exchanged_value": 700.0}');
    expect(rate('USD', 'EUR', 3n)).toBe('{"exchanged_value": 2.4000000000000004}');
    expect(rate('RMB', 'USD', 100n)).toBe('{"exchanged_value": 14.29}');
    expect(rate('GBP', 'USD', 1000n)).toBe('{"exchanged_value": 1428.57}');
    expect(rate('EUR', 'USD', 50.0)).toBe('{"exchanged_value": 62.5}');
    // Python repeats a string times an int before float() parses it.
    expect(rate('USD', 'RMB', '100')).toBe('{"exchanged_value": 1.001001001001001e+20}');
    expect(raised(() => rate('USD', 'EUR', '100'))).toBe("TypeError: can't multiply sequence by non-int of type 'float'");
    expect(raised(() => rate('RMB', 'USD', '100'))).toBe("TypeError: unsupported operand type(s) for /: 'str' and 'int'");
    expect(raised(() => rate('EUR', 'RMB', 1n))).toBe('ValueError: No available exchange rate for the given currencies.');
  });

  it('set_budget_limit stores float(budget_limit)', () => {
    const t = api(loggedIn());
    expect(show(callMethod(t, 'set_budget_limit', { access_token: 'tok', budget_limit: 1500n }))).toBe(
      '{"budget_limit": 1500.0}',
    );
    expect(t.budget_limit).toBe(1500);
    expect(show(callMethod(t, 'set_budget_limit', { access_token: 'tok', budget_limit: ' 2_000.5 ' }))).toBe(
      '{"budget_limit": 2000.5}',
    );
    expect(raised(() => callMethod(t, 'set_budget_limit', { access_token: 'tok', budget_limit: 'lots' }))).toBe(
      "ValueError: could not convert string to float: 'lots'",
    );
    expect(show(callMethod(t, 'set_budget_limit', { access_token: 'bad', budget_limit: 1n }))).toBe(
      '{"error": "Invalid access token"}',
    );
    expect(show(api(loggedIn({ token_expires_in: 0n })).set_budget_limit('tok', 1n))).toBe('{"error": "Token expired"}');
  });

  it('verify_traveler_information checks name, age on the injected date and passport', () => {
    const t = api(loggedIn());
    const verify = (first_name: PyValue, last_name: PyValue, date_of_birth: PyValue, passport_number: PyValue) =>
      show(callMethod(t, 'verify_traveler_information', { first_name, last_name, date_of_birth, passport_number }));
    expect(verify('Ada', 'Lovelace', '1990-05-10', 'US1234')).toBe('{"verification_status": true}');
    expect(verify('Ada', 'Byron', '1990-05-10', 'US1234')).toBe(
      '{"verification_status": false, "verification_failure": ' +
        '"Cannot book flight information for another user.Expected Ada Lovelace, got Ada Byron"}',
    );
    expect(verify('Ada', 'Lovelace', '10/05/1990', 'US1234')).toBe(
      '{"verification_status": false, "verification_failure": "Invalid date of birth format. Please use YYYY-MM-DD."}',
    );
    // Today is 2024-09-01: 18 on 2024-09-01 passes, on 2024-09-02 not yet.
    expect(verify('Ada', 'Lovelace', '2006-09-01', 'US1234')).toBe('{"verification_status": true}');
    expect(verify('Ada', 'Lovelace', '2006-09-02', 'US1234')).toBe(
      '{"verification_status": false, "verification_failure": "Traveler must be at least 18 years old."}',
    );
    expect(verify('Ada', 'Lovelace', '1990-05-10', 'GB1234')).toBe(
      '{"verification_status": false, "verification_failure": "Passport must be issued by the United States."}',
    );
    expect(raised(() => verify('Ada', 'Lovelace', '1990-05-10', 1234n))).toBe(
      "AttributeError: 'int' object has no attribute 'startswith'",
    );
    expect(
      show(api().verify_traveler_information('Ada', 'Lovelace', '1990-05-10', 'US1')),
    ).toBe(
      '{"verification_status": false, "verification_failure": ' +
        '"Cannot book flight information for another user.Expected None None, got Ada Lovelace"}',
    );
  });

  it('binds arguments like Python', () => {
    expect(raised(() => callMethod(api(), 'get_flight_cost', { travel_from: 'SFO' }))).toMatch(/missing 3 required positional/);
    expect(raised(() => callMethod(api(), 'list_all_airports', { x: 1n }))).toMatch(/unexpected keyword argument 'x'/);
  });

  it('treats tuples like Python in lookups', () => {
    expect(show(api().get_nearest_airport_by_city(new PyTuple(['Rome'])))).toBe('{"nearest_airport": "Unknown"}');
  });
});
