import { GorillaFileSystem } from './gorilla-file-system.js';
import { MathAPI } from './math-api.js';
import { MessageAPI } from './message-api.js';
import { TicketAPI } from './ticket-api.js';
import { TradingBot } from './trading-bot.js';
import { TravelAPI } from './travel-api.js';
import { TwitterAPI } from './twitter-api.js';
import { VehicleControlAPI } from './vehicle-control-api.js';
import type { SimContext, SimulatedApi } from './simulated-api.js';

type SimConstructor = new (ctx: SimContext) => SimulatedApi;

/** The eight simulated classes of the multi-turn suite, by the reference's class name. */
export const SIMULATED_CLASSES: Readonly<Record<string, SimConstructor>> = {
  GorillaFileSystem,
  MathAPI,
  MessageAPI,
  TwitterAPI,
  TicketAPI,
  TradingBot,
  TravelAPI,
  VehicleControlAPI,
};

/** Classes without state: no scenario is loaded and no state is logged or compared. */
export const STATELESS_CLASSES: ReadonlySet<string> = new Set(['MathAPI']);

/** Classes whose state is kept out of the inference log (the agentic backends). */
export const OMIT_STATE_INFO_CLASSES: ReadonlySet<string> = new Set([
  'MemoryAPI_kv',
  'MemoryAPI_vector',
  'MemoryAPI_rec_sum',
  'WebSearchAPI',
]);

/** Function-doc file of each class inside `multi_turn_func_doc/`. */
export const FUNC_DOC_FILE_BY_CLASS: Readonly<Record<string, string>> = {
  GorillaFileSystem: 'gorilla_file_system.json',
  MathAPI: 'math_api.json',
  MessageAPI: 'message_api.json',
  TwitterAPI: 'posting_api.json',
  TicketAPI: 'ticket_api.json',
  TradingBot: 'trading_bot.json',
  TravelAPI: 'travel_booking.json',
  VehicleControlAPI: 'vehicle_control.json',
  WebSearchAPI: 'web_search.json',
  MemoryAPI_kv: 'memory_kv.json',
  MemoryAPI_vector: 'memory_vector.json',
  MemoryAPI_rec_sum: 'memory_rec_sum.json',
};

/** Create a simulated instance by class name; throws for classes we do not simulate. */
export function createSimulatedInstance(className: string, ctx: SimContext): SimulatedApi {
  const ctor = SIMULATED_CLASSES[className];
  if (ctor === undefined) throw new Error(`No simulated class named '${className}'`);
  return new ctor(ctx);
}
