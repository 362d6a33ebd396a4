/**
 * Official single-turn entries that no answer can pass: their possible answers contradict their
 * function docs (or the checker cannot accept any value), so the reference fails every model on
 * them. Value: the checker's error_type.
 */
export const UNPASSABLE_OFFICIAL_ENTRIES: Readonly<Record<string, string>> = {
  // ArrayList of `any`: elements stay strings, but the possible answer holds ints and bools.
  simple_java_36: 'value_error:list/tuple',
  simple_java_65: 'value_error:list/tuple',
  // The possible dict's value is a string, not a list of values: only a one-character value would pass.
  simple_java_64: 'value_error:dict_value',
  // Required parameters whose list of acceptable values is empty. (A required parameter whose only
  // value is the optional marker "" passes when it is sent as "".)
  'live_simple_106-63-0': 'simple_function_checker:missing_required',
  'live_simple_112-68-0': 'simple_function_checker:missing_required',
  // The possible answer names a parameter the doc does not have, and omits a required one.
  'live_multiple_964-207-0': 'simple_function_checker:missing_required',
  // The possible answer requires a parameter the doc does not have.
  'live_multiple_862-181-3': 'simple_function_checker:missing_optional',
};
