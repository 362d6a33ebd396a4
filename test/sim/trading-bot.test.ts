import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/exec/state-snapshot.js';
import { pyDict, type PyDict, type PyValue } from '../../src/py/value.js';
import { TradingBot } from '../../src/sim/trading-bot.js';
import { shownOrRaised } from '../helpers/sim.js';

// Expected strings were printed by the reference trading_bot.py (TZ=UTC) through the executor's
// serialisation: json.dumps for dicts, str() for lists.

/** A small stand-in for long_context.json with the lists and templates this class reads. */
const FILLER: PyDict = pyDict({
  MA_5_EXTENSION: [1.5, 2.0],
  MA_20_EXTENSION: [3.25],
  ORDER_DETAIL_EXTENSION: pyDict({ overview: '{symbol} leads. {{not a field}}', risks: 'Risks for {symbol}.' }),
  WATCH_LIST_EXTENSION: ['JHGUN', 'LMAT', '...'],
  TRANSACTION_HISTORY_EXTENSION: [
    pyDict({ type: 'deposit', amount: 9933.53, timestamp: '2024-05-01 22:14:05.858817' }),
  ],
  TECHNOLOGY_EXTENSION: ['LGY', 'HW'],
  AUTOMOBILE_EXTENSION: ['UNUGJ'],
});

const i = (n: number): bigint => BigInt(n);

function makeBot(scenario: Record<string, PyValue> = {}, longContext = false): TradingBot {
  const bot = new TradingBot({ longContext: FILLER });
  bot._loadScenario(pyDict(scenario), longContext);
  return bot;
}

const loggedIn = (scenario: Record<string, PyValue> = {}): TradingBot => makeBot({ authenticated: true, ...scenario });

/** The result string as the executor shows it, or `raises <Type>: <message>`. */
const run = shownOrRaised;

const state = (bot: TradingBot): string => canonicalJson(new Map(bot._publicState()));

describe('TradingBot state', () => {
  it('lists the public state in vars() order, long_context last', () => {
    expect(makeBot()._publicState().map(([name]) => name)).toEqual([
      'orders',
      'account_info',
      'authenticated',
      'market_status',
      'order_counter',
      'stocks',
      'watch_list',
      'transaction_history',
      'long_context',
    ]);
  });

  it('loads the default state with ints and floats as in Python', () => {
    const text = state(makeBot());
    expect(text.startsWith('{"account_info":{"account_id":12345,"balance":10000.0,"binding_card":1974202140965533},')).toBe(true);
    expect(text).toContain('"order_counter":12446,"orders":{"12345":{"amount":10,"id":12345,"order_type":"Buy","price":210.65');
    expect(text).toContain('"QUAS":{"MA(20)":728.0,"MA(5)":726.45');
    expect(text.endsWith('"transaction_history":[],"watch_list":["NVDA"]}')).toBe(true);
  });

  it('turns digit-string order ids into ints and keeps other keys (dataset quirk "order_type")', () => {
    const bot = loggedIn({
      orders: pyDict({ '12345': pyDict({ symbol: 'AAPL', status: 'Completed' }), order_type: 'Buy' }),
    });
    expect([...bot.orders.keys()]).toEqual([12345n, 'order_type']);
    expect(run(() => bot.get_order_history())).toBe('{"history": [12345, "order_type"]}');
    expect(run(() => bot.cancel_order('order_type'))).toBe("raises TypeError: string indices must be integers, not 'str'");
  });

  it('keeps a scenario value that is present even when it is None', () => {
    expect(makeBot({ market_status: null }).market_status).toBe(null);
  });
});

describe('read-only methods', () => {
  it('get_current_time and get_symbol_by_name', () => {
    const bot = makeBot();
    expect(run(() => bot.get_current_time())).toBe('{"current_time": "10:30 AM"}');
    expect(run(() => bot.get_symbol_by_name('Apple'))).toBe('{"symbol": "AAPL"}');
    expect(run(() => bot.get_symbol_by_name('Foo'))).toBe('{"symbol": "Stock not found"}');
  });

  it('get_stock_info', () => {
    const bot = makeBot();
    expect(run(() => bot.get_stock_info('AAPL'))).toBe(
      '{"price": 227.16, "percent_change": 0.17, "volume": 2.552, "MA(5)": 227.11, "MA(20)": 227.09}',
    );
    expect(run(() => bot.get_stock_info('XYZ'))).toBe(`{"error": "Stock with symbol 'XYZ' not found."}`);
    expect(run(() => bot.get_stock_info(['AAPL']))).toBe("raises TypeError: unhashable type: 'list'");
  });

  it('get_order_details, with the no-space error text', () => {
    const bot = makeBot();
    expect(run(() => bot.get_order_details(i(12345)))).toBe(
      '{"id": 12345, "order_type": "Buy", "symbol": "AAPL", "price": 210.65, "amount": 10, "status": "Completed"}',
    );
    expect(run(() => bot.get_order_details(12345.0))).toContain('"id": 12345');
    expect(run(() => bot.get_order_details(i(999)))).toBe(
      '{"error": "Order with ID 999 not found.Here is the list of orders_id: [12345, 12446]"}',
    );
    expect(run(() => bot.get_order_details('12345'))).toBe(
      '{"error": "Order with ID 12345 not found.Here is the list of orders_id: [12345, 12446]"}',
    );
  });

  it('get_available_stocks, filter_stocks_by_price and notify_price_change', () => {
    const bot = makeBot();
    expect(run(() => bot.get_available_stocks('Technology'))).toBe('{"stock_list": ["AAPL", "GOOG", "MSFT", "NVDA"]}');
    expect(run(() => bot.get_available_stocks('Automobile'))).toBe('{"stock_list": ["TSLA", "F", "GM"]}');
    expect(run(() => bot.get_available_stocks('Energy'))).toBe('{"stock_list": []}');
    expect(run(() => bot.filter_stocks_by_price(['AAPL', 'GOOG', 'ZETA', 'XYZ'], i(20), i(300)))).toBe(
      '{"filtered_stocks": ["AAPL", "ZETA"]}',
    );
    expect(run(() => bot.filter_stocks_by_price(['AAPL'], '1', i(300)))).toBe(
      "raises TypeError: '>=' not supported between instances of 'float' and 'str'",
    );
    expect(run(() => bot.notify_price_change(['AAPL', 'GOOG', 'TSLA'], 0.15))).toBe(
      '{"notification": "Stocks AAPL, GOOG have significant price changes."}',
    );
    expect(run(() => bot.notify_price_change(['ZETA'], 0.5))).toBe(
      '{"notification": "No significant price changes in the selected stocks."}',
    );
  });
});

describe('login and account', () => {
  it('trading_login, trading_get_login_status and trading_logout', () => {
    const bot = makeBot();
    expect(run(() => bot.trading_get_login_status())).toBe('{"status": false}');
    expect(run(() => bot.trading_login('u', 'p'))).toBe('{"status": "Logged in successfully"}');
    expect(run(() => bot.trading_login('u', 'p'))).toBe('{"status": "Already logged in"}');
    expect(run(() => bot.trading_get_login_status())).toBe('{"status": true}');
    expect(run(() => bot.trading_logout())).toBe('{"status": "Logged out successfully"}');
    expect(run(() => bot.trading_logout())).toBe('{"status": "No user is currently logged in"}');
  });

  it('methods that need a login answer with their error (lists for the history methods)', () => {
    const bot = makeBot();
    expect(run(() => bot.get_account_info())).toBe(
      '{"error": "User not authenticated. Please log in to view account information."}',
    );
    expect(run(() => bot.place_order('Buy', 'AAPL', 227.16, i(10)))).toBe(
      '{"error": "User not authenticated. Please log in to place an order."}',
    );
    expect(run(() => bot.fund_account(i(5)))).toBe('{"error": "User not authenticated. Please log in to fund the account."}');
    expect(run(() => bot.withdraw_funds(i(5)))).toBe(
      '{"error": "User not authenticated. Please log in to make a transaction."}',
    );
    expect(run(() => bot.remove_stock_from_watchlist('NVDA'))).toBe(
      '{"error": "User not authenticated. Please log in to modify the watchlist."}',
    );
    expect(run(() => bot.get_watchlist())).toBe("['Error: User not authenticated. Please log in to view the watchlist.']");
    expect(run(() => bot.get_order_history())).toBe(
      "[{'error': 'User not authenticated. Please log in to view order history.'}]",
    );
    expect(run(() => bot.get_transaction_history())).toBe(
      "[{'error': 'User not authenticated. Please log in to view transaction history.'}]",
    );
  });

  it('get_account_info returns the account dict', () => {
    expect(run(() => loggedIn().get_account_info())).toBe(
      '{"account_id": 12345, "balance": 10000.0, "binding_card": 1974202140965533}',
    );
  });
});

describe('orders', () => {
  it('cancel_order', () => {
    const bot = makeBot();
    expect(run(() => bot.cancel_order(i(12345)))).toBe(`{"error": "Can't cancel order 12345. Order is already completed."}`);
    expect(run(() => bot.cancel_order(i(12446)))).toBe('{"order_id": 12446, "status": "Cancelled"}');
    expect(run(() => bot.cancel_order(i(1)))).toBe('{"error": "Order with ID 1 not found."}');
  });

  it('place_order validates symbol, values and funds', () => {
    const bot = loggedIn();
    expect(run(() => bot.place_order('Buy', 'XYZ', i(1), i(1)))).toBe('{"error": "Invalid stock symbol: XYZ"}');
    expect(run(() => bot.place_order('Buy', 'AAPL', i(0), i(1)))).toBe(
      '{"error": "Price and amount must be positive values."}',
    );
    expect(run(() => bot.place_order('Buy', 'AAPL', 227.16, i(100)))).toBe(
      '{"error": "Insufficient funds: required $22716.00 but only $10000.00 available."}',
    );
    expect(run(() => bot.place_order(i(5), 'AAPL', i(1), i(1)))).toBe("raises AttributeError: 'int' object has no attribute 'lower'");
  });

  it('place_order stores a float price, answers "Pending" and overwrites the default order 12446', () => {
    const bot = loggedIn();
    expect(run(() => bot.place_order('Buy', 'AAPL', i(227), i(10)))).toBe(
      '{"order_id": 12446, "order_type": "Buy", "status": "Pending", "price": 227.0, "amount": 10}',
    );
    expect(run(() => bot.place_order('Sell', 'NVDA', i(300), i(1000)))).toBe(
      '{"order_id": 12447, "order_type": "Sell", "status": "Pending", "price": 300.0, "amount": 1000}',
    );
    expect(state(bot)).toContain(
      '"order_counter":12448,"orders":{"12345":{"amount":10,"id":12345,"order_type":"Buy","price":210.65,"status":"Completed","symbol":"AAPL"},' +
        '"12446":{"amount":10,"id":12446,"order_type":"Buy","price":227.0,"status":"Open","symbol":"AAPL"},' +
        '"12447":{"amount":1000,"id":12447,"order_type":"Sell","price":300.0,"status":"Open","symbol":"NVDA"}}',
    );
    expect(run(() => bot.get_order_history())).toBe('{"history": [12345, 12446, 12447]}');
  });
});

describe('funds and transaction history', () => {
  it('withdraw_funds checks the market, the amount and the balance', () => {
    const bot = loggedIn();
    expect(run(() => bot.withdraw_funds(i(100)))).toBe('{"error": "Market is closed. Transactions are not allowed."}');
    bot.market_status = 'Open';
    expect(run(() => bot.withdraw_funds(i(0)))).toBe('{"error": "Transaction amount must be positive."}');
    expect(run(() => bot.withdraw_funds(i(1000000000)))).toBe('{"error": "Insufficient funds for withdrawal."}');
  });

  it('records transactions with timestamps from the seeded generator', () => {
    const bot = loggedIn({ market_status: 'Open' });
    expect(run(() => bot.withdraw_funds(i(500)))).toBe('{"status": "Withdrawal successful", "new_balance": 9500.0}');
    expect(run(() => bot.fund_account(i(1000)))).toBe('{"status": "Account funded successfully", "new_balance": 10500.0}');
    expect(run(() => bot.fund_account(i(-1)))).toBe('{"error": "Funding amount must be positive."}');
    expect(run(() => bot.fund_account('100'))).toBe("raises TypeError: '<=' not supported between instances of 'str' and 'int'");
    expect(run(() => bot.get_transaction_history())).toBe(
      '{"transaction_history": [{"type": "withdrawal", "amount": 500, "timestamp": "2024-09-02 05:40:15"}, ' +
        '{"type": "deposit", "amount": 1000, "timestamp": "2024-09-01 12:26:34"}]}',
    );
  });

  it('filters by date; the end date is its midnight', () => {
    const bot = loggedIn({ market_status: 'Open' });
    bot.withdraw_funds(i(500));
    bot.fund_account(i(1000));
    expect(run(() => bot.get_transaction_history('2024-09-02'))).toBe(
      '{"transaction_history": [{"type": "withdrawal", "amount": 500, "timestamp": "2024-09-02 05:40:15"}]}',
    );
    expect(run(() => bot.get_transaction_history(null, '2024-09-02'))).toBe(
      '{"transaction_history": [{"type": "deposit", "amount": 1000, "timestamp": "2024-09-01 12:26:34"}]}',
    );
    expect(run(() => bot.get_transaction_history('2024-9-1', '2024-09-03'))).toContain('"amount": 500');
  });

  it('raises strptime errors for bad dates', () => {
    const bot = loggedIn();
    expect(run(() => bot.get_transaction_history('2024/09/01'))).toBe(
      "raises ValueError: time data '2024/09/01' does not match format '%Y-%m-%d'",
    );
    expect(run(() => bot.get_transaction_history('2024-09-01 10:00:00'))).toBe(
      'raises ValueError: unconverted data remains:  10:00:00',
    );
    expect(run(() => bot.get_transaction_history('2024-02-30'))).toBe('raises ValueError: day is out of range for month');
    expect(run(() => bot.get_transaction_history(i(20240901)))).toBe(
      'raises TypeError: strptime() argument 1 must be str, not int',
    );
  });
});

describe('watchlist', () => {
  it('add_to_watchlist (no login needed), get_watchlist and remove_stock_from_watchlist', () => {
    const bot = loggedIn();
    expect(run(() => bot.get_watchlist())).toBe('{"watchlist": ["NVDA"]}');
    expect(run(() => bot.add_to_watchlist('TSLA'))).toBe('{"watchlist": ["NVDA", "TSLA"]}');
    expect(run(() => bot.add_to_watchlist('XYZ'))).toBe('{"watchlist": ["NVDA", "TSLA"]}');
    expect(run(() => bot.remove_stock_from_watchlist('NVDA'))).toBe(
      '{"status": "Stock NVDA removed from watchlist successfully."}',
    );
    expect(run(() => bot.remove_stock_from_watchlist('NVDA'))).toBe('{"error": "Stock NVDA not found in watchlist."}');
    expect(run(() => makeBot().add_to_watchlist('QUAS'))).toBe('{"watchlist": ["NVDA", "QUAS"]}');
  });
});

describe('long context', () => {
  const bot = (): TradingBot =>
    makeBot(
      {
        authenticated: true,
        orders: pyDict({ '12345': pyDict({ symbol: 'AAPL', price: 210.65, num_shares: i(10), status: 'Completed' }), order_type: 'Buy' }),
      },
      true,
    );

  it('replaces the moving averages and adds formatted order metadata', () => {
    expect(run(() => bot().get_stock_info('AAPL'))).toBe(
      '{"price": 227.16, "percent_change": 0.17, "volume": 2.552, "MA(5)": [1.5, 2.0], "MA(20)": [3.25]}',
    );
    expect(run(() => bot().get_order_details(i(12345)))).toBe(
      '{"symbol": "AAPL", "price": 210.65, "num_shares": 10, "status": "Completed", ' +
        '"metadata": {"overview": "AAPL leads. {not a field}", "risks": "Risks for AAPL."}}',
    );
    expect(run(() => bot().get_order_details('order_type'))).toBe("raises AttributeError: 'str' object has no attribute 'copy'");
  });

  it('returns the watchlist as a list ending in Ellipsis, and extends histories and sectors', () => {
    expect(run(() => bot().get_watchlist())).toBe("['NVDA', 'JHGUN', 'LMAT', Ellipsis]");
    expect(run(() => bot().get_transaction_history())).toBe(
      '{"transaction_history": [{"type": "deposit", "amount": 9933.53, "timestamp": "2024-05-01 22:14:05.858817"}]}',
    );
    expect(run(() => bot().get_available_stocks('Technology'))).toBe(
      '{"stock_list": ["AAPL", "GOOG", "MSFT", "NVDA", "LGY", "HW"]}',
    );
    expect(run(() => bot().get_available_stocks('Automobile'))).toBe('{"stock_list": ["TSLA", "F", "GM", "UNUGJ"]}');
    expect(bot().long_context).toBe(true);
  });
});
