/**
 * TravelAPI: the simulated travel-booking backend of the multi-turn categories.
 *
 * Port of the reference's `travel_booking.py` (spec §6.7): a token-based login, credit cards with
 * balances, flight prices from a fixed route table, bookings, invoices, insurance and currency
 * conversion. Ids come from a seeded CPython-compatible generator, drawn in the reference's order.
 */
import { pyRound } from '../py/builtins.js';
import { strptime, type DateTimeFields } from '../py/datetime.js';
import { pyBinaryOp, pyDeepCopy } from '../py/operators.js';
import {
  augmented,
  deleteItem,
  dictContains,
  dictGetOr,
  getItem,
  noAttribute,
  pyCompare,
  pyContains,
  pyFloat,
  pyIterate,
  requireHashable,
  setItem,
} from '../py/ops.js';
import { PyRandom } from '../py/random.js';
import { pyRepr, pyStr } from '../py/repr.js';
import { decimalDigitValue } from '../py/str.js';
import { PyException, listContains, pyDict, pyEquals, type PyDict, type PyValue } from '../py/value.js';
import { expectDict, randomSeed } from './scenario.js';
import { SimulatedApi, opt, req, type MethodSignatures, type SimContext } from './simulated-api.js';

/** The reference's DEFAULT_STATE seed. */
const DEFAULT_RANDOM_SEED = 141053n;

/** Where `verify_traveler_information` reads today's date (the reference reads the real clock). */
export type TodayClock = () => Date;
const realToday: TodayClock = () => new Date();

/** Base price (USD, economy) of every route, in the reference's table order. */
const ROUTE_BASE_COSTS: readonly (readonly [string, string, number])[] = [
  ['SFO', 'LAX', 200], ['SFO', 'JFK', 500], ['SFO', 'ORD', 400], ['SFO', 'BOS', 450], ['SFO', 'RMS', 300],
  ['SFO', 'SBK', 350], ['SFO', 'MPC', 370], ['SFO', 'SVP', 320], ['SFO', 'SHD', 330], ['SFO', 'SSV', 340],
  ['SFO', 'OKD', 360], ['SFO', 'WLB', 310], ['SFO', 'CRH', 380], ['SFO', 'ATV', 390], ['SFO', 'PHV', 420],
  ['SFO', 'GFD', 430], ['SFO', 'CIA', 700], ['LAX', 'SFO', 100], ['LAX', 'JFK', 600], ['LAX', 'ORD', 500],
  ['LAX', 'BOS', 550], ['LAX', 'RMS', 310], ['LAX', 'SBK', 320], ['LAX', 'MPC', 330], ['LAX', 'SVP', 340],
  ['LAX', 'SHD', 350], ['LAX', 'SSV', 360], ['LAX', 'OKD', 370], ['LAX', 'WLB', 380], ['LAX', 'CRH', 390],
  ['LAX', 'ATV', 400], ['LAX', 'PHV', 410], ['LAX', 'GFD', 420], ['LAX', 'HND', 430], ['JFK', 'ORD', 300],
  ['JFK', 'BOS', 250], ['JFK', 'RMS', 450], ['JFK', 'SBK', 460], ['JFK', 'MPC', 470], ['JFK', 'SVP', 480],
  ['JFK', 'SHD', 490], ['JFK', 'SSV', 500], ['JFK', 'OKD', 510], ['JFK', 'WLB', 520], ['JFK', 'CRH', 530],
  ['JFK', 'ATV', 540], ['JFK', 'PHV', 550], ['JFK', 'GFD', 560], ['JFK', 'LAX', 570], ['JFK', 'HND', 800],
  ['JFK', 'PVG', 950], ['JFK', 'PEK', 1000], ['ORD', 'LAX', 180], ['ORD', 'BOS', 200], ['ORD', 'RMS', 350],
  ['ORD', 'SBK', 360], ['ORD', 'MPC', 370], ['ORD', 'SVP', 380], ['ORD', 'SHD', 390], ['ORD', 'SSV', 400],
  ['ORD', 'OKD', 410], ['ORD', 'WLB', 420], ['ORD', 'CRH', 430], ['ORD', 'ATV', 440], ['ORD', 'PHV', 450],
  ['ORD', 'GFD', 460], ['BOS', 'RMS', 400], ['BOS', 'SBK', 410], ['BOS', 'MPC', 420], ['BOS', 'SVP', 430],
  ['BOS', 'SHD', 440], ['BOS', 'SSV', 450], ['BOS', 'OKD', 460], ['BOS', 'WLB', 470], ['BOS', 'CRH', 480],
  ['BOS', 'ATV', 490], ['BOS', 'PHV', 500], ['BOS', 'GFD', 510], ['RMS', 'BOS', 200], ['RMS', 'JFK', 210],
  ['RMS', 'SBK', 220], ['RMS', 'MPC', 230], ['RMS', 'SVP', 240], ['RMS', 'SHD', 250], ['RMS', 'SSV', 260],
  ['RMS', 'OKD', 270], ['RMS', 'WLB', 280], ['RMS', 'CRH', 290], ['RMS', 'ATV', 300], ['RMS', 'PHV', 310],
  ['RMS', 'GFD', 320], ['RMS', 'LAX', 330], ['SBK', 'MPC', 200], ['SBK', 'SVP', 210], ['SBK', 'SHD', 220],
  ['SBK', 'SSV', 230], ['SBK', 'OKD', 240], ['SBK', 'WLB', 250], ['SBK', 'CRH', 260], ['SBK', 'ATV', 270],
  ['SBK', 'PHV', 280], ['SBK', 'GFD', 290], ['MPC', 'SVP', 210], ['MPC', 'SHD', 220], ['MPC', 'SSV', 230],
  ['MPC', 'OKD', 240], ['MPC', 'WLB', 250], ['MPC', 'CRH', 260], ['MPC', 'ATV', 270], ['MPC', 'PHV', 280],
  ['MPC', 'GFD', 290], ['SVP', 'SHD', 230], ['SVP', 'SSV', 240], ['SVP', 'OKD', 250], ['SVP', 'WLB', 260],
  ['SVP', 'CRH', 270], ['SVP', 'ATV', 280], ['SVP', 'PHV', 290], ['SVP', 'GFD', 300], ['SHD', 'SSV', 220],
  ['SHD', 'OKD', 230], ['SHD', 'WLB', 240], ['SHD', 'CRH', 250], ['SHD', 'ATV', 260], ['SHD', 'PHV', 270],
  ['SHD', 'GFD', 280], ['SSV', 'OKD', 240], ['SSV', 'WLB', 250], ['SSV', 'CRH', 260], ['SSV', 'ATV', 270],
  ['SSV', 'PHV', 280], ['SSV', 'GFD', 290], ['OKD', 'WLB', 230], ['OKD', 'CRH', 240], ['OKD', 'ATV', 250],
  ['OKD', 'PHV', 260], ['OKD', 'GFD', 270], ['WLB', 'CRH', 250], ['WLB', 'ATV', 260], ['WLB', 'PHV', 270],
  ['WLB', 'GFD', 280], ['CRH', 'ATV', 240], ['CRH', 'PHV', 250], ['CRH', 'GFD', 260], ['CRH', 'SFO', 270],
  ['CRH', 'RMS', 280], ['CRH', 'HKG', 290], ['CRH', 'JFK', 300], ['ATV', 'PHV', 230], ['ATV', 'GFD', 240],
  ['PHV', 'GFD', 220], ['LHR', 'CDG', 100], ['OKD', 'LAX', 220],
];
const routeKey = (from: string, to: string): string => `${from}|${to}`;
const BASE_COST_BY_ROUTE: ReadonlyMap<string, number> = new Map(
  ROUTE_BASE_COSTS.map(([from, to, cost]) => [routeKey(from, to), cost]),
);

/** Price multiplier of each travel class. */
const CLASS_FACTORS: ReadonlyMap<string, number> = new Map([
  ['economy', 1],
  ['business', 2],
  ['first', 5],
]);

/**
 * BFCL parity: travel_booking.py::book_flight — the error text embeds `str({"economy", "business",
 * "first"})`, whose order depends on CPython's per-process string hashing. Over PYTHONHASHSEED
 * 0–9999 (fresh compile) the literal's own order is the most frequent (20.9%; the others 12.7–18.5%,
 * because colliding entries keep insertion order), so we use it. A cached .pyc can shift the odds.
 */
const VALID_CLASSES_REPR = "{'economy', 'business', 'first'}";

/** `list_all_airports()`, in the reference's order. */
const ALL_AIRPORTS: readonly string[] = [
  'RMS', 'SBK', 'MPC', 'SVP', 'SHD', 'CDG', 'LHR', 'SSV', 'OKD', 'WLB', 'PEK', 'HND',
  'HKG', 'CIA', 'CRH', 'ATV', 'PHV', 'GFD', 'SFO', 'LAX', 'JFK', 'ORD', 'BOS',
];

/** City → nearest airport for `get_nearest_airport_by_city`. */
const AIRPORT_BY_CITY: ReadonlyMap<string, string> = new Map([
  ['Rivermist', 'RMS'],
  ['Stonebrook', 'SBK'],
  ['Maplecrest', 'MPC'],
  ['Silverpine', 'SVP'],
  ['Shadowridge', 'SHD'],
  ['London', 'LHR'],
  ['Paris', 'CDG'],
  ['Sunset Valley', 'SSV'],
  ['Oakendale', 'OKD'],
  ['Willowbend', 'WLB'],
  ['Crescent Hollow', 'CRH'],
  ['Autumnville', 'ATV'],
  ['Pinehaven', 'PHV'],
  ['Greenfield', 'GFD'],
  ['San Francisco', 'SFO'],
  ['Los Angeles', 'LAX'],
  ['New York', 'JFK'],
  ['Chicago', 'ORD'],
  ['Boston', 'BOS'],
  ['Beijing', 'PEK'],
  ['Hong Kong', 'HKG'],
  ['Rome', 'CIA'],
  ['Tokyo', 'HND'],
]);

/** USD → currency rates, in the reference's order; ints stay ints (they decide `value * rate`'s type). */
const USD_EXCHANGE_RATES: readonly (readonly [string, bigint | number])[] = [
  ['RMB', 7n],
  ['EUR', 0.8],
  ['JPY', 110n],
  ['GBP', 0.7],
  ['CAD', 1.3],
  ['AUD', 1.4],
  ['INR', 70n],
  ['RUB', 60n],
  ['BRL', 3.8],
  ['MXN', 20n],
];

const CUSTOMER_SUPPORT_REPLY =
  'Thank you for contacting customer support. Your message has been received and we will get back to you shortly.';

/** Python signatures of the public methods (one table for every instance). */
const SIGNATURES: MethodSignatures = {
  authenticate_travel: [
    req('client_id'),
    req('client_secret'),
    req('refresh_token'),
    req('grant_type'),
    req('user_first_name'),
    req('user_last_name'),
  ],
  travel_get_login_status: [],
  get_budget_fiscal_year: [opt('lastModifiedAfter', null), opt('includeRemoved', null)],
  register_credit_card: [
    req('access_token'),
    req('card_number'),
    req('expiration_date'),
    req('cardholder_name'),
    req('card_verification_number'),
  ],
  get_flight_cost: [req('travel_from'), req('travel_to'), req('travel_date'), req('travel_class')],
  get_credit_card_balance: [req('access_token'), req('card_id')],
  book_flight: [
    req('access_token'),
    req('card_id'),
    req('travel_date'),
    req('travel_from'),
    req('travel_to'),
    req('travel_class'),
  ],
  retrieve_invoice: [req('access_token'), opt('booking_id', null), opt('insurance_id', null)],
  get_booking_history: [req('access_token')],
  list_all_airports: [],
  cancel_booking: [req('access_token'), req('booking_id')],
  compute_exchange_rate: [req('base_currency'), req('target_currency'), req('value')],
  verify_traveler_information: [req('first_name'), req('last_name'), req('date_of_birth'), req('passport_number')],
  set_budget_limit: [req('access_token'), req('budget_limit')],
  get_nearest_airport_by_city: [req('location')],
  purchase_insurance: [
    req('access_token'),
    req('insurance_type'),
    req('booking_id'),
    req('insurance_cost'),
    req('card_id'),
  ],
  contact_customer_support: [req('booking_id'), req('message')],
  get_all_credit_cards: [],
};

export class TravelAPI extends SimulatedApi {
  readonly _className = 'TravelAPI';

  // Public state, in the order the reference's `_load_scenario` assigns it (= `vars()` order).
  /** card id → `{card_number, expiration_date, cardholder_name, card_verification_number, balance}`. */
  credit_card_list: PyDict = new Map();
  /** booking id → `{card_id, travel_date, travel_from, travel_to, travel_class, travel_cost, transaction_id}`. */
  booking_record: PyDict = new Map();
  access_token: PyValue = null;
  token_type: PyValue = null;
  token_expires_in: PyValue = null;
  token_scope: PyValue = null;
  user_first_name: PyValue = null;
  user_last_name: PyValue = null;
  budget_limit: PyValue = null;
  long_context: boolean = false;

  private _random = new PyRandom(DEFAULT_RANDOM_SEED);
  /** `"from|to|class|date"` → price, refreshed by every `get_flight_cost` call. */
  private _flightCostLookup = new Map<string, number>();
  private readonly _today: TodayClock;

  readonly _signatures = SIGNATURES;

  /** `today` is only read by `verify_traveler_information` (age check); tests inject a fixed date. */
  constructor(ctx: SimContext, today: TodayClock = realToday) {
    super(ctx);
    this._today = today;
  }

  _loadScenario(scenario: PyDict, longContext: boolean): void {
    const get = (key: string, fallback: PyValue): PyValue => dictGetOr(scenario, key, fallback);
    this._random = new PyRandom(randomSeed(get('random_seed', DEFAULT_RANDOM_SEED)));
    this.credit_card_list = this._scenarioDict(scenario, 'credit_card_list', () => new Map());
    this.booking_record = this._scenarioDict(scenario, 'booking_record', () => new Map());
    this.access_token = get('access_token', null);
    this.token_type = get('token_type', null);
    this.token_expires_in = get('token_expires_in', null);
    this.token_scope = get('token_scope', null);
    this.user_first_name = get('user_first_name', null);
    this.user_last_name = get('user_last_name', null);
    this.budget_limit = get('budget_limit', null);
    this.long_context = longContext;
    if (longContext) {
      addMissingEntries(this.credit_card_list, this._extension('CREDIT_CARD_EXTENSION'));
      addMissingEntries(this.booking_record, this._extension('BOOKING_RECORD_EXTENSION'));
    }
  }

  authenticate_travel(
    _client_id: PyValue,
    _client_secret: PyValue,
    _refresh_token: PyValue,
    grant_type: PyValue,
    user_first_name: PyValue,
    user_last_name: PyValue,
  ): PyValue {
    this.token_expires_in = 2n;
    this.access_token = this._random.randint(100000n, 999999n).toString();
    this.token_type = 'Bearer';
    this.token_scope = grant_type;
    this.user_first_name = user_first_name;
    this.user_last_name = user_last_name;
    return pyDict({ expires_in: 2n, access_token: this.access_token, token_type: 'Bearer', scope: grant_type });
  }

  travel_get_login_status(): PyValue {
    const loggedOut = this.token_expires_in === null || pyEquals(this.token_expires_in, 0n);
    return pyDict({ status: !loggedOut });
  }

  get_budget_fiscal_year(_lastModifiedAfter: PyValue, _includeRemoved: PyValue): PyValue {
    return pyDict({ budget_fiscal_year: '2018' });
  }

  register_credit_card(
    access_token: PyValue,
    card_number: PyValue,
    expiration_date: PyValue,
    cardholder_name: PyValue,
    card_verification_number: PyValue,
  ): PyValue {
    if (this.token_expires_in === null) return pyDict({ error: 'Token not initialized' });
    if (this._tokenExpired()) return pyDict({ error: 'Token expired' });
    if (!pyEquals(access_token, this.access_token)) return pyDict({ error: 'Invalid access token' });
    // BFCL parity: travel_booking.py::register_credit_card — the card *number* is looked up among
    // the card *ids* (the dict keys), so a number is only "already registered" if it is an id.
    if (dictContains(this.credit_card_list, card_number)) return pyDict({ error: 'Card already registered' });
    const cardId = this._random.randint(100000000000n, 999999999999n).toString();
    this.credit_card_list.set(
      cardId,
      pyDict({
        card_number,
        expiration_date,
        cardholder_name,
        card_verification_number,
        balance: this._random.randint(10000n, 99999n),
      }),
    );
    return pyDict({ card_id: cardId });
  }

  get_flight_cost(travel_from: PyValue, travel_to: PyValue, travel_date: PyValue, travel_class: PyValue): PyValue {
    const baseCost = routeBaseCost(travel_from, travel_to);
    if (baseCost === undefined) throw new PyException('ValueError', 'No available route for the given airports.');
    const factor = typeof travel_class === 'string' ? CLASS_FACTORS.get(travel_class) : undefined;
    if (factor === undefined) {
      throw new PyException('ValueError', 'Invalid travel class. Options are: economy, business, first.');
    }
    // Flights cost double on dates whose digit sum is even.
    const dateMultiplier = digitSum(travel_date) % 2n === 0n ? 2 : 1;
    const cost = (base: number): number => base * factor * dateMultiplier;

    const suffix = `${pyStr(travel_class)}|${pyStr(travel_date)}`;
    this._flightCostLookup = new Map();
    if (!this.long_context) {
      const price = cost(baseCost);
      this._flightCostLookup.set(`${pyStr(travel_from)}|${pyStr(travel_to)}|${suffix}`, price);
      return pyDict({ travel_cost_list: [price] });
    }
    // BFCL parity: travel_booking.py::get_flight_cost — in long context the list holds the price
    // of every route in the table (same class and date), not only the requested one.
    const prices: PyValue[] = [];
    for (const [from, to, base] of ROUTE_BASE_COSTS) {
      const price = cost(base);
      this._flightCostLookup.set(`${from}|${to}|${suffix}`, price);
      prices.push(price);
    }
    return pyDict({ travel_cost_list: prices });
  }

  get_credit_card_balance(access_token: PyValue, card_id: PyValue): PyValue {
    if (this._tokenExpired()) return pyDict({ error: 'Token expired' });
    if (!pyEquals(access_token, this.access_token)) return pyDict({ error: 'Invalid access token' });
    if (!dictContains(this.credit_card_list, card_id)) {
      const ids = pyRepr([...this.credit_card_list.keys()]);
      return pyDict({ error: `Card not registered. Here are a list of card_id's: ${ids}` });
    }
    return pyDict({ card_balance: getItem(getItem(this.credit_card_list, card_id), 'balance') });
  }

  book_flight(
    access_token: PyValue,
    card_id: PyValue,
    travel_date: PyValue,
    travel_from: PyValue,
    travel_to: PyValue,
    travel_class: PyValue,
  ): PyValue {
    const failure = (error: string): PyDict => pyDict({ booking_status: false, error });
    if (this._tokenExpired()) return failure('Token expired');
    if (!pyEquals(access_token, this.access_token)) return failure('Invalid access token');
    if (!dictContains(this.credit_card_list, card_id)) return failure('Card not registered');
    const card = getItem(this.credit_card_list, card_id);
    if (!pyContains(card, 'balance')) return failure('Balance not found');

    if (!listContains(ALL_AIRPORTS, travel_from)) {
      return failure(`Invalid departure airport code: ${pyStr(travel_from)}`);
    }
    if (!listContains(ALL_AIRPORTS, travel_to)) return failure(`Invalid destination airport code: ${pyStr(travel_to)}`);
    if (parseIsoDate(travel_date) === undefined) return failure('Invalid date format. Use YYYY-MM-DD.');
    requireHashable(travel_class);
    if (typeof travel_class !== 'string' || !CLASS_FACTORS.has(travel_class)) {
      return failure(`Invalid travel class. Must be one of ${VALID_CLASSES_REPR}`);
    }

    let travelCost: number;
    try {
      this.get_flight_cost(travel_from, travel_to, travel_date, travel_class);
      const cached = this._flightCostLookup.get(
        `${pyStr(travel_from)}|${pyStr(travel_to)}|${travel_class}|${pyStr(travel_date)}`,
      );
      if (cached === undefined) return failure('No available route for the given parameters');
      travelCost = cached;
    } catch (e) {
      if (e instanceof PyException && e.pyType === 'ValueError') return failure(e.message);
      throw e;
    }

    const balance = getItem(card, 'balance');
    if (pyCompare('<', balance, travelCost)) return failure('Insufficient funds');
    if (this.budget_limit !== null && pyCompare('<', balance, this.budget_limit)) {
      return failure('Balance is less than budget limit');
    }
    setItem(card, 'balance', augmented('-', balance, travelCost));
    const bookingId = this._random.randint(1000000n, 9999999n).toString();
    const transactionId = this._random.randint(10000000n, 99999999n).toString();
    this.booking_record.set(
      bookingId,
      pyDict({
        card_id,
        travel_date,
        travel_from,
        travel_to,
        travel_class,
        travel_cost: travelCost,
        transaction_id: transactionId,
      }),
    );
    return pyDict({
      booking_id: bookingId,
      transaction_id: transactionId,
      booking_status: true,
      // BFCL parity: travel_booking.py::book_flight — only long context shows the (whole) record.
      booking_history: this.long_context ? this.booking_record : new Map(),
    });
  }

  retrieve_invoice(access_token: PyValue, booking_id: PyValue, _insurance_id: PyValue): PyValue {
    if (this._tokenExpired()) return pyDict({ error: 'Token expired' });
    if (!pyEquals(access_token, this.access_token)) return pyDict({ error: 'Invalid access token' });
    if (!dictContains(this.booking_record, booking_id)) return pyDict({ error: 'Booking not found' });
    const booking = getItem(this.booking_record, booking_id);
    const field = (name: string): PyValue => getItem(booking, name);
    const invoice = pyDict({
      booking_id,
      travel_date: field('travel_date'),
      travel_from: field('travel_from'),
      travel_to: field('travel_to'),
      travel_class: field('travel_class'),
      travel_cost: field('travel_cost'),
      transaction_id: field('transaction_id'),
    });
    return pyDict({ invoice });
  }

  get_booking_history(access_token: PyValue): PyValue {
    if (this._tokenExpired()) return pyDict({ error: 'Token expired' });
    if (!pyEquals(access_token, this.access_token)) return pyDict({ error: 'Invalid access token' });
    return pyDict({ booking_history: pyDeepCopy(this.booking_record) });
  }

  list_all_airports(): PyValue {
    return [...ALL_AIRPORTS];
  }

  cancel_booking(access_token: PyValue, booking_id: PyValue): PyValue {
    const failure = (error: string): PyDict => pyDict({ cancel_status: false, error });
    if (this._tokenExpired()) return failure('Token expired');
    if (!pyEquals(access_token, this.access_token)) return failure('Invalid access token');
    if (!dictContains(this.booking_record, booking_id)) return failure('Booking not found');
    const booking = getItem(this.booking_record, booking_id);
    const cardId = getItem(booking, 'card_id');
    const travelCost = getItem(booking, 'travel_cost');
    const card = getItem(this.credit_card_list, cardId);
    setItem(card, 'balance', augmented('+', getItem(card, 'balance'), travelCost));
    deleteItem(this.booking_record, booking_id);
    return pyDict({ cancel_status: true });
  }

  compute_exchange_rate(base_currency: PyValue, target_currency: PyValue, value: PyValue): PyValue {
    for (const [currency, rate] of USD_EXCHANGE_RATES) {
      if (pyEquals(base_currency, 'USD') && pyEquals(target_currency, currency)) {
        return pyDict({ exchanged_value: pyFloat(pyBinaryOp('*', value, rate)) });
      }
      if (pyEquals(base_currency, currency) && pyEquals(target_currency, 'USD')) {
        // BFCL parity: travel_booking.py::compute_exchange_rate — only this direction is rounded.
        return pyDict({ exchanged_value: pyRound(pyFloat(pyBinaryOp('/', value, rate)), 2) });
      }
    }
    throw new PyException('ValueError', 'No available exchange rate for the given currencies.');
  }

  verify_traveler_information(
    first_name: PyValue,
    last_name: PyValue,
    date_of_birth: PyValue,
    passport_number: PyValue,
  ): PyValue {
    const failure = (reason: string): PyDict => pyDict({ verification_status: false, verification_failure: reason });
    if (!pyEquals(this.user_first_name, first_name) || !pyEquals(this.user_last_name, last_name)) {
      // BFCL parity: travel_booking.py::verify_traveler_information — no space after the period.
      return failure(
        'Cannot book flight information for another user.' +
          `Expected ${pyStr(this.user_first_name)} ${pyStr(this.user_last_name)}, ` +
          `got ${pyStr(first_name)} ${pyStr(last_name)}`,
      );
    }
    const birth = parseIsoDate(date_of_birth);
    if (birth === undefined) return failure('Invalid date of birth format. Please use YYYY-MM-DD.');
    if (ageOn(this._today(), birth) < 18) return failure('Traveler must be at least 18 years old.');
    if (typeof passport_number !== 'string') throw noAttribute(passport_number, 'startswith');
    if (!passport_number.startsWith('US')) return failure('Passport must be issued by the United States.');
    return pyDict({ verification_status: true });
  }

  set_budget_limit(access_token: PyValue, budget_limit: PyValue): PyValue {
    if (this._tokenExpired()) return pyDict({ error: 'Token expired' });
    if (!pyEquals(access_token, this.access_token)) return pyDict({ error: 'Invalid access token' });
    const limit = pyFloat(budget_limit);
    this.budget_limit = limit;
    return pyDict({ budget_limit: limit });
  }

  get_nearest_airport_by_city(location: PyValue): PyValue {
    requireHashable(location);
    const airport = typeof location === 'string' ? AIRPORT_BY_CITY.get(location) : undefined;
    return pyDict({ nearest_airport: airport ?? 'Unknown' });
  }

  purchase_insurance(
    access_token: PyValue,
    _insurance_type: PyValue,
    booking_id: PyValue,
    insurance_cost: PyValue,
    card_id: PyValue,
  ): PyValue {
    const failure = (error: string): PyDict => pyDict({ insurance_status: false, error });
    if (this._tokenExpired()) return failure('Token expired');
    if (!pyEquals(access_token, this.access_token)) return failure('Invalid access token');
    if (this.budget_limit !== null && pyCompare('<', this.budget_limit, insurance_cost)) {
      return failure('Exceeded budget limit');
    }
    if (!dictContains(this.booking_record, booking_id)) return failure('Booking not found');
    if (!dictContains(this.credit_card_list, card_id)) return failure('Credit card not registered');
    const card = getItem(this.credit_card_list, card_id);
    setItem(card, 'balance', augmented('-', getItem(card, 'balance'), insurance_cost));
    return pyDict({
      insurance_id: this._random.randint(100000000n, 999999999n).toString(),
      insurance_status: true,
    });
  }

  contact_customer_support(booking_id: PyValue, _message: PyValue): PyValue {
    if (!dictContains(this.booking_record, booking_id)) return pyDict({ error: 'Booking not found' });
    return pyDict({ customer_support_message: CUSTOMER_SUPPORT_REPLY });
  }

  get_all_credit_cards(): PyValue {
    return pyDict({ credit_card_list: this.credit_card_list });
  }

  // -------------------------------------------------------------------------------------------

  /** `self.token_expires_in == 0` (None is not expired: most methods then fail on the token). */
  private _tokenExpired(): boolean {
    return pyEquals(this.token_expires_in, 0n);
  }

  private _extension(name: string): PyDict {
    return expectDict(this._filler.get(name) ?? null, `long-context ${name}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * BFCL parity: travel_booking.py::_add_credit_cards / _add_booking_records — the extension's
 * entries are inserted as the very same dict objects (no copy). The long-context data is loaded
 * once per process (`SimContext`), like the reference's module constants, so a balance change on
 * an extension card is seen by every long-context instance sharing the context: the model's and
 * the ground truth's instances of an entry alike, and later entries.
 */
function addMissingEntries(target: PyDict, extension: PyDict): void {
  for (const [key, value] of extension) if (!target.has(key)) target.set(key, value);
}

/** The base price of a route, or undefined; `(from, to) in base_costs` hashes both parts. */
function routeBaseCost(from: PyValue, to: PyValue): number | undefined {
  requireHashable(from);
  requireHashable(to);
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  return BASE_COST_BY_ROUTE.get(routeKey(from, to));
}

/** `sum(int(c) for c in travel_date if c.isdigit())`. */
function digitSum(date: PyValue): bigint {
  let sum = 0n;
  for (const ch of pyIterate(date)) {
    if (typeof ch !== 'string') throw noAttribute(ch, 'isdigit');
    // Only Nd digits count; Python's isdigit() also accepts e.g. superscripts, on which int() raises.
    const digits = [...ch].map(decimalDigitValue);
    if (digits.length > 0 && digits.every((d) => d !== undefined)) {
      sum += BigInt(digits.reduce<number>((n, d) => n * 10 + d!, 0));
    }
  }
  return sum;
}

/**
 * BFCL parity: `datetime.strptime(text, "%Y-%m-%d")` used as a validity check: a ValueError (no
 * match, leftover text, an impossible date) gives undefined; a non-str argument is a TypeError,
 * which the reference does not catch.
 */
function parseIsoDate(text: PyValue): DateTimeFields | undefined {
  try {
    return strptime(text, '%Y-%m-%d');
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'ValueError') return undefined;
    throw e;
  }
}

/** Completed years between a birth date and `today` (its local calendar date, as `datetime.today()`). */
function ageOn(today: Date, birth: DateTimeFields): number {
  const month = today.getMonth() + 1;
  const day = today.getDate();
  const beforeBirthday = month < birth.month || (month === birth.month && day < birth.day);
  return today.getFullYear() - birth.year - (beforeBirthday ? 1 : 0);
}
