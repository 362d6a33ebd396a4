/**
 * TradingBot: the simulated brokerage account of the multi-turn categories.
 *
 * Port of the reference's `trading_bot.py` (spec §6.6). The state is plain Python data (dicts keep
 * insertion order, order ids are ints), and methods return the reference's dicts and lists as is.
 * Prices and balances stay floats, so `json.dumps` prints them with a `.0` where Python does.
 */
import { formatFixed } from '../py/builtins.js';
import { daysSinceYearOne, strptime, type StrptimeFormat } from '../py/datetime.js';
import { pyBinaryOp } from '../py/operators.js';
import {
  augmented,
  dictContains,
  dictGetOr,
  expectDictFor,
  expectStr,
  getItem,
  joinStrings,
  lower,
  pyAbs,
  pyCompare,
  pyFloat,
  pyIntConvert,
  pyIterate,
  requireHashable,
  setItem,
} from '../py/ops.js';
import { PyRandom } from '../py/random.js';
import { pyRepr, pyStr } from '../py/repr.js';
import {
  PY_ELLIPSIS,
  PyException,
  listContains,
  pyDict,
  pyEquals,
  pyTruthy,
  pyTypeName,
  type PyDict,
  type PyKey,
  type PyValue,
} from '../py/value.js';
import { randomSeed } from './scenario.js';
import { SimulatedApi, opt, req, type MethodSignatures } from './simulated-api.js';

const SIGNATURES: MethodSignatures = {
  get_current_time: [],
  get_symbol_by_name: [req('name')],
  get_stock_info: [req('symbol')],
  get_order_details: [req('order_id')],
  cancel_order: [req('order_id')],
  place_order: [req('order_type'), req('symbol'), req('price'), req('amount')],
  withdraw_funds: [req('amount')],
  get_account_info: [],
  trading_login: [req('username'), req('password')],
  trading_get_login_status: [],
  trading_logout: [],
  fund_account: [req('amount')],
  remove_stock_from_watchlist: [req('symbol')],
  get_watchlist: [],
  get_order_history: [],
  get_transaction_history: [opt('start_date', null), opt('end_date', null)],
  get_available_stocks: [req('sector')],
  filter_stocks_by_price: [req('stocks'), req('min_price'), req('max_price')],
  add_to_watchlist: [req('stock')],
  notify_price_change: [req('stocks'), req('threshold')],
};

// ---------------------------------------------------------------------------------------------
// Default state (the reference's DEFAULT_STATE); built fresh for every load, like its deepcopy.

const DEFAULT_RANDOM_SEED = 1053520n;

/** One default stock: price, percent change, volume, 5- and 20-day moving averages (all floats). */
function stock(price: number, percentChange: number, volume: number, ma5: number, ma20: number): PyDict {
  return pyDict({ price, percent_change: percentChange, volume, 'MA(5)': ma5, 'MA(20)': ma20 });
}

function defaultOrders(): PyDict {
  return new Map<PyKey, PyValue>([
    [
      12345n,
      pyDict({ id: 12345n, order_type: 'Buy', symbol: 'AAPL', price: 210.65, amount: 10n, status: 'Completed' }),
    ],
    [
      12446n,
      pyDict({ id: 12446n, order_type: 'Sell', symbol: 'GOOG', price: 2840.56, amount: 5n, status: 'Pending' }),
    ],
  ]);
}

function defaultAccountInfo(): PyDict {
  return pyDict({ account_id: 12345n, balance: 10000.0, binding_card: 1974202140965533n });
}

function defaultStocks(): PyDict {
  return pyDict({
    AAPL: stock(227.16, 0.17, 2.552, 227.11, 227.09),
    GOOG: stock(2840.34, 0.24, 1.123, 2835.67, 2842.15),
    TSLA: stock(667.92, -0.12, 1.654, 671.15, 668.2),
    MSFT: stock(310.23, 0.09, 3.234, 309.88, 310.11),
    NVDA: stock(220.34, 0.34, 1.234, 220.45, 220.67),
    ALPH: stock(1320.45, -0.08, 1.567, 1321.12, 1325.78),
    OMEG: stock(457.23, 0.12, 2.345, 456.78, 458.12),
    QUAS: stock(725.89, -0.03, 1.789, 726.45, 728.0),
    NEPT: stock(88.34, 0.19, 0.654, 88.21, 88.67),
    SYNX: stock(345.67, 0.11, 2.112, 345.34, 346.12),
    ZETA: stock(22.09, -0.05, 0.789, 22.12, 22.34),
  });
}

/** Company name → symbol for `get_symbol_by_name`. */
const SYMBOL_BY_NAME: ReadonlyMap<string, string> = new Map([
  ['Apple', 'AAPL'],
  ['Google', 'GOOG'],
  ['Tesla', 'TSLA'],
  ['Microsoft', 'MSFT'],
  ['Nvidia', 'NVDA'],
  ['Zeta Corp', 'ZETA'],
  ['Alpha Tech', 'ALPH'],
  ['Omega Industries', 'OMEG'],
  ['Quasar Ltd.', 'QUAS'],
  ['Neptune Systems', 'NEPT'],
  ['Synex Solutions', 'SYNX'],
  ['Amazon', 'AMZN'],
  ['Gorilla', 'GORI'],
]);

/** The reference's fixed clock, `datetime(2024, 9, 1, 10, 30)`, as UTC milliseconds. */
const CURRENT_TIME_MS = Date.UTC(2024, 8, 1, 10, 30, 0);
/** `CURRENT_TIME.strftime("%I:%M %p")`. */
const CURRENT_TIME_TEXT = '10:30 AM';
const SECONDS_PER_DAY = 86400n;

// ---------------------------------------------------------------------------------------------
// Python operations specific to this class

/** Python `d.copy()` on a value that must be a dict. */
const copyDict = (d: PyValue): PyDict => new Map(expectDictFor(d, 'copy'));

/** Python `f"{x:.2f}"` for an int, float or bool (an int is converted to float first). */
function formatTwoDecimals(x: PyValue): string {
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') return formatFixed(pyFloat(x), 2);
  throw new PyException('ValueError', `Unknown format code 'f' for object of type '${pyTypeName(x)}'`);
}

/** `template.format(symbol=symbol)` for the long-context order metadata. */
function formatWithSymbol(template: PyValue, symbol: PyValue): PyValue {
  return expectStr(template, 'format').replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (name !== 'symbol') throw new PyException('KeyError', pyRepr(name ?? ''));
    return pyStr(symbol);
  });
}

// ---------------------------------------------------------------------------------------------
// Dates (datetime.strptime with the two formats the reference uses)

/** `datetime.strptime(text, format)` as seconds since 0001-01-01 00:00:00. */
function strptimeSeconds(text: PyValue, format: StrptimeFormat): number {
  const t = strptime(text, format);
  return daysSinceYearOne(t.year, t.month, t.day) * 86400 + t.hour * 3600 + t.minute * 60 + t.second;
}

/** `timestamp.strftime("%Y-%m-%d %H:%M:%S")` for UTC milliseconds. */
function formatTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-09-02T05:40:15.000Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

// ---------------------------------------------------------------------------------------------

export class TradingBot extends SimulatedApi {
  readonly _className = 'TradingBot';
  readonly _signatures = SIGNATURES;

  // Public state, in the order the reference's `_load_scenario` assigns it (= `vars()` order).
  orders: PyDict = new Map();
  account_info: PyDict = new Map();
  authenticated: PyValue = false;
  market_status: PyValue = 'Closed';
  order_counter: PyValue = 12446n;
  stocks: PyDict = new Map();
  watch_list: PyValue[] = [];
  transaction_history: PyValue[] = [];
  long_context = false;

  private _random = new PyRandom(DEFAULT_RANDOM_SEED);

  _loadScenario(scenario: PyDict, longContext: boolean): void {
    const get = (key: string, fallback: PyValue): PyValue => dictGetOr(scenario, key, fallback);
    // BFCL parity: trading_bot.py::_load_scenario — digit-string order ids become int keys.
    const orders = this._scenarioDict(scenario, 'orders', () => defaultOrders());
    this.orders = new Map([...orders].map(([k, v]) => [typeof k === 'string' && /^[0-9]+$/.test(k) ? BigInt(k) : k, v]));
    this.account_info = this._scenarioDict(scenario, 'account_info', () => defaultAccountInfo());
    this.authenticated = get('authenticated', false);
    this.market_status = get('market_status', 'Closed');
    this.order_counter = get('order_counter', 12446n);
    this.stocks = this._scenarioDict(scenario, 'stocks', () => defaultStocks());
    this.watch_list = this._scenarioList(scenario, 'watch_list', () => ['NVDA']);
    this.transaction_history = this._scenarioList(scenario, 'transaction_history', () => []);
    this.long_context = longContext;
    this._random = new PyRandom(randomSeed(get('random_seed', DEFAULT_RANDOM_SEED)));
  }

  /** A long-context filler list from long_context.json. */
  private _fillerList(name: string): PyValue[] {
    const value = this._filler.get(name);
    return Array.isArray(value) ? value : [];
  }

  /** `CURRENT_TIME + randint(0, 86400)` seconds, as the reference's transaction timestamps. */
  private _generateTransactionTimestamp(): string {
    // BFCL parity: trading_bot.py::_generate_transaction_timestamp — randint over the epoch seconds of
    // [now, now + 1 day]; only the width of the range matters, so the offset is computed in UTC.
    const offset = this._random.randint(0n, SECONDS_PER_DAY);
    return formatTimestamp(CURRENT_TIME_MS + Number(offset) * 1000);
  }

  get_current_time(): PyValue {
    return pyDict({ current_time: CURRENT_TIME_TEXT });
  }

  get_symbol_by_name(name: PyValue): PyValue {
    requireHashable(name);
    const symbol = typeof name === 'string' ? SYMBOL_BY_NAME.get(name) : undefined;
    return pyDict({ symbol: symbol ?? 'Stock not found' });
  }

  get_stock_info(symbol: PyValue): PyValue {
    if (!dictContains(this.stocks, symbol)) return pyDict({ error: `Stock with symbol '${pyStr(symbol)}' not found.` });
    if (this.long_context) {
      const info = copyDict(getItem(this.stocks, symbol));
      setItem(info, 'MA(5)', this._fillerList('MA_5_EXTENSION'));
      setItem(info, 'MA(20)', this._fillerList('MA_20_EXTENSION'));
      return info;
    }
    return getItem(this.stocks, symbol);
  }

  get_order_details(order_id: PyValue): PyValue {
    if (!dictContains(this.orders, order_id)) {
      // BFCL parity: trading_bot.py::get_order_details — no space before "Here is the list".
      return pyDict({
        error: `Order with ID ${pyStr(order_id)} not found.Here is the list of orders_id: ${pyRepr([...this.orders.keys()])}`,
      });
    }
    if (this.long_context) {
      const order = copyDict(getItem(this.orders, order_id));
      const symbol = getItem(order, 'symbol');
      const metadata: PyDict = new Map();
      const templates = this._filler.get('ORDER_DETAIL_EXTENSION');
      for (const [key, template] of templates instanceof Map ? templates : []) {
        try {
          metadata.set(key, formatWithSymbol(template, symbol));
        } catch (e) {
          if (e instanceof PyException && e.pyType === 'KeyError') {
            return pyDict({ error: `KeyError during formatting: ${e.message}` });
          }
          throw e;
        }
      }
      order.set('metadata', metadata);
      return order;
    }
    return getItem(this.orders, order_id);
  }

  cancel_order(order_id: PyValue): PyValue {
    if (!dictContains(this.orders, order_id)) return pyDict({ error: `Order with ID ${pyStr(order_id)} not found.` });
    const order = getItem(this.orders, order_id);
    if (pyEquals(getItem(order, 'status'), 'Completed')) {
      return pyDict({ error: `Can't cancel order ${pyStr(order_id)}. Order is already completed.` });
    }
    setItem(order, 'status', 'Cancelled');
    return pyDict({ order_id, status: 'Cancelled' });
  }

  place_order(order_type: PyValue, symbol: PyValue, price: PyValue, amount: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return pyDict({ error: 'User not authenticated. Please log in to place an order.' });
    }
    if (!dictContains(this.stocks, symbol)) return pyDict({ error: `Invalid stock symbol: ${pyStr(symbol)}` });
    if (pyCompare('<=', price, 0n) || pyCompare('<=', amount, 0n)) {
      return pyDict({ error: 'Price and amount must be positive values.' });
    }
    if (lower(order_type) === 'buy') {
      const totalCost = pyBinaryOp('*', pyFloat(price), pyIntConvert(amount));
      const balance = dictGetOr(this.account_info, 'balance', 0n);
      if (pyCompare('>', totalCost, balance)) {
        return pyDict({
          error: `Insufficient funds: required $${formatTwoDecimals(totalCost)} but only $${formatTwoDecimals(balance)} available.`,
        });
      }
    }
    const floatPrice = pyFloat(price);
    const orderId = this.order_counter;
    // BFCL parity: trading_bot.py::place_order — the new order overwrites any order with the same id
    // (the default state's counter equals an existing id), and the order is stored as "Open" while
    // the reply says "Pending".
    setItem(
      this.orders,
      orderId,
      pyDict({ id: orderId, order_type, symbol, price: floatPrice, amount, status: 'Open' }),
    );
    this.order_counter = augmented('+', this.order_counter, 1n);
    return pyDict({ order_id: orderId, order_type, status: 'Pending', price: floatPrice, amount });
  }

  withdraw_funds(amount: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return pyDict({ error: 'User not authenticated. Please log in to make a transaction.' });
    }
    if (!pyEquals(this.market_status, 'Open')) return pyDict({ error: 'Market is closed. Transactions are not allowed.' });
    if (pyCompare('<=', amount, 0n)) return pyDict({ error: 'Transaction amount must be positive.' });
    if (pyCompare('>', amount, getItem(this.account_info, 'balance'))) {
      return pyDict({ error: 'Insufficient funds for withdrawal.' });
    }
    setItem(this.account_info, 'balance', augmented('-', getItem(this.account_info, 'balance'), amount));
    this.transaction_history.push(
      pyDict({ type: 'withdrawal', amount, timestamp: this._generateTransactionTimestamp() }),
    );
    return pyDict({ status: 'Withdrawal successful', new_balance: getItem(this.account_info, 'balance') });
  }

  get_account_info(): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return pyDict({ error: 'User not authenticated. Please log in to view account information.' });
    }
    return this.account_info;
  }

  trading_login(_username: PyValue, _password: PyValue): PyValue {
    if (pyTruthy(this.authenticated)) return pyDict({ status: 'Already logged in' });
    // Any credentials are accepted, as in the reference.
    this.authenticated = true;
    return pyDict({ status: 'Logged in successfully' });
  }

  trading_get_login_status(): PyValue {
    return pyDict({ status: pyTruthy(this.authenticated) });
  }

  trading_logout(): PyValue {
    if (!pyTruthy(this.authenticated)) return pyDict({ status: 'No user is currently logged in' });
    this.authenticated = false;
    return pyDict({ status: 'Logged out successfully' });
  }

  fund_account(amount: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return pyDict({ error: 'User not authenticated. Please log in to fund the account.' });
    }
    if (pyCompare('<=', amount, 0n)) return pyDict({ error: 'Funding amount must be positive.' });
    setItem(this.account_info, 'balance', augmented('+', getItem(this.account_info, 'balance'), amount));
    this.transaction_history.push(pyDict({ type: 'deposit', amount, timestamp: this._generateTransactionTimestamp() }));
    return pyDict({ status: 'Account funded successfully', new_balance: getItem(this.account_info, 'balance') });
  }

  remove_stock_from_watchlist(symbol: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return pyDict({ error: 'User not authenticated. Please log in to modify the watchlist.' });
    }
    if (!listContains(this.watch_list, symbol)) return pyDict({ error: `Stock ${pyStr(symbol)} not found in watchlist.` });
    this.watch_list.splice(
      this.watch_list.findIndex((item) => pyEquals(item, symbol)),
      1,
    );
    return pyDict({ status: `Stock ${pyStr(symbol)} removed from watchlist successfully.` });
  }

  get_watchlist(): PyValue {
    // BFCL parity: trading_bot.py::get_watchlist — the error and the long-context answer are lists,
    // not dicts; the long-context filler ends with Python's Ellipsis.
    if (!pyTruthy(this.authenticated)) return ['Error: User not authenticated. Please log in to view the watchlist.'];
    if (this.long_context) {
      const filler = this._fillerList('WATCH_LIST_EXTENSION');
      return [...this.watch_list, ...filler.map((item, i) => (i === filler.length - 1 && item === '...' ? PY_ELLIPSIS : item))];
    }
    return pyDict({ watchlist: this.watch_list });
  }

  get_order_history(): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return [pyDict({ error: 'User not authenticated. Please log in to view order history.' })];
    }
    return pyDict({ history: [...this.orders.keys()] });
  }

  get_transaction_history(start_date: PyValue = null, end_date: PyValue = null): PyValue {
    if (!pyTruthy(this.authenticated)) {
      return [pyDict({ error: 'User not authenticated. Please log in to view transaction history.' })];
    }
    // datetime.min / datetime.max when a bound is not given.
    const start = pyTruthy(start_date) ? strptimeSeconds(start_date, '%Y-%m-%d') : -Infinity;
    const end = pyTruthy(end_date) ? strptimeSeconds(end_date, '%Y-%m-%d') : Infinity;
    // BFCL parity: trading_bot.py::get_transaction_history — the end date means its midnight, so
    // transactions later that day are left out.
    const filtered = this.transaction_history.filter((transaction) => {
      const time = strptimeSeconds(getItem(transaction, 'timestamp'), '%Y-%m-%d %H:%M:%S');
      return start <= time && time <= end;
    });
    if (this.long_context) filtered.push(...this._fillerList('TRANSACTION_HISTORY_EXTENSION'));
    return pyDict({ transaction_history: filtered });
  }

  get_available_stocks(sector: PyValue): PyValue {
    const technology: PyValue[] = ['AAPL', 'GOOG', 'MSFT', 'NVDA'];
    const automobile: PyValue[] = ['TSLA', 'F', 'GM'];
    if (this.long_context) {
      technology.push(...this._fillerList('TECHNOLOGY_EXTENSION'));
      automobile.push(...this._fillerList('AUTOMOBILE_EXTENSION'));
    }
    requireHashable(sector);
    const stockList = sector === 'Technology' ? technology : sector === 'Automobile' ? automobile : [];
    return pyDict({ stock_list: stockList });
  }

  filter_stocks_by_price(stocks: PyValue, min_price: PyValue, max_price: PyValue): PyValue {
    const priceOf = (symbol: PyValue): PyValue => dictGetOr(dictGetOr(this.stocks, symbol, new Map()), 'price', 0n);
    const filtered = pyIterate(stocks).filter(
      (symbol) => pyCompare('>=', priceOf(symbol), min_price) && pyCompare('<=', priceOf(symbol), max_price),
    );
    return pyDict({ filtered_stocks: filtered });
  }

  add_to_watchlist(stock: PyValue): PyValue {
    // No login check here, unlike the other watchlist methods (as in the reference).
    if (!listContains(this.watch_list, stock) && dictContains(this.stocks, stock)) this.watch_list.push(stock);
    return pyDict({ watchlist: this.watch_list });
  }

  notify_price_change(stocks: PyValue, threshold: PyValue): PyValue {
    const changed = pyIterate(stocks).filter(
      (symbol) =>
        dictContains(this.stocks, symbol) &&
        pyCompare('>=', pyAbs(getItem(getItem(this.stocks, symbol), 'percent_change')), threshold),
    );
    if (changed.length === 0) return pyDict({ notification: 'No significant price changes in the selected stocks.' });
    return pyDict({ notification: `Stocks ${joinStrings(changed)} have significant price changes.` });
  }
}
