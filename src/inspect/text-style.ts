/** ANSI styling for terminal output, switched off entirely when colour is not wanted. */

/** The styles the inspect commands use; each returns its input unchanged when colour is off. */
export interface TextStyle {
  readonly enabled: boolean;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly magenta: (s: string) => string;
}

const wrap =
  (open: number, close: number) =>
  (s: string): string =>
    s === '' ? s : `\u001b[${open}m${s}\u001b[${close}m`;

const identity = (s: string): string => s;

/** A style that colours (`enabled`) or leaves text plain. */
export function createTextStyle(enabled: boolean): TextStyle {
  if (!enabled) {
    return { enabled, bold: identity, dim: identity, red: identity, green: identity, yellow: identity, cyan: identity, magenta: identity };
  }
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}

/** `--color` values. */
export type ColorMode = 'auto' | 'always' | 'never';

/**
 * Whether to colour: `always`/`never` win; `auto` colours only a terminal and honours NO_COLOR
 * (https://no-color.org: set and non-empty disables colour).
 */
export function shouldColor(mode: ColorMode, isTty: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return isTty;
}
