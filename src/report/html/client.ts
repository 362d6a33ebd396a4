/**
 * Code that runs in the report page, plus the HTML builder the server side shares with it.
 *
 * The page's script is the source text of the functions in `CLIENT_FUNCTIONS`
 * (`Function.prototype.toString`), so that it is type-checked here and unit-testable in Node.
 * Rules for everything in that list:
 * - function declarations only, referring to each other by name (keep them in this one file:
 *   test transforms rewrite names imported from other modules);
 * - no other free variables than JavaScript built-ins (no DOM globals either: the document is a
 *   parameter of `startReport`);
 * - every text that comes from the data goes through `h` / `escapeHtml` (model output is untrusted).
 */

import type {
  AgenticFailureView,
  AgenticStepView,
  FailureView,
  MessageView,
  ReportData,
  SectionView,
  StateDiffView,
  StepView,
  TurnView,
} from './report-data.js';

// ---------------------------------------------------------------------------------------------
// HTML building

/** Markup that is already safe (built by `h` or escaped). */
export interface Html {
  readonly html: string;
}

/** Content of an element: text (escaped), markup, nested lists; null/undefined/false render nothing. */
export type Child = string | number | Html | null | undefined | false | readonly Child[];

/** Attribute values: text (escaped), numbers; `true` writes the bare name, null/undefined/false omit it. */
export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&#39;';
    }
  });
}

/** Mark markup as safe. Only for markup made here, never for data. */
export function raw(html: string): Html {
  return { html };
}

/** Markup of a list of children. */
export function renderChildren(children: readonly Child[]): string {
  let out = '';
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (typeof child === 'string') out += escapeHtml(child);
    else if (typeof child === 'number') out += escapeHtml(String(child));
    else if (Array.isArray(child)) out += renderChildren(child as readonly Child[]);
    else out += (child as Html).html;
  }
  return out;
}

/**
 * An element. Tag and attribute names are checked (they never come from data); event-handler
 * attributes are refused, as the page adds its listeners from its script.
 */
export function h(tag: string, attrs: Attrs | null, ...children: Child[]): Html {
  if (!/^[a-zA-Z][a-zA-Z0-9-]*$/.test(tag)) throw new Error('invalid tag name: ' + tag);
  let open = '<' + tag;
  if (attrs !== null) {
    for (const name of Object.keys(attrs)) {
      if (!/^[a-zA-Z][a-zA-Z0-9:-]*$/.test(name) || /^on/i.test(name)) throw new Error('invalid attribute name: ' + name);
      const value = attrs[name];
      if (value === null || value === undefined || value === false) continue;
      open += value === true ? ' ' + name : ' ' + name + '="' + escapeHtml(String(value)) + '"';
    }
  }
  open += '>';
  if (/^(?:br|hr|input|meta|col|wbr)$/.test(tag)) return raw(open);
  return raw(open + renderChildren(children) + '</' + tag + '>');
}

/** Children as one fragment. */
export function fragment(...children: Child[]): Html {
  return raw(renderChildren(children));
}

/** `text` cut to `max` characters with an ellipsis. */
export function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : oneLine.slice(0, max - 1) + '…';
}

// ---------------------------------------------------------------------------------------------
// Text diff (model vs ground truth)

/** A run of tokens that both sides share (0), only the left has (-1), or only the right has (1). */
export interface DiffPart {
  readonly op: -1 | 0 | 1;
  readonly text: string;
}

/** Words, runs of spaces, and single other characters: fine enough to show what changed in a value. */
export function tokenize(text: string): string[] {
  return text.match(/\w+|\s+|[^\w\s]/g) ?? [];
}

/**
 * The shortest edit script between two token lists (Myers' O((N+M)·D) algorithm) as merged parts,
 * or null when more than `maxEdits` insertions and deletions would be needed.
 */
export function diffTokens(a: readonly string[], b: readonly string[], maxEdits: number): DiffPart[] | null {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  // trace[d] is the furthest x reached on each diagonal after d - 1 edits.
  const trace: Int32Array[] = [];
  let edits = -1;
  for (let d = 0; d <= limit && edits < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[start + x] === b[start + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        edits = d;
        break;
      }
    }
  }
  if (edits < 0) return null;

  // Walk back from the end, collecting single-token operations in reverse.
  const reversed: DiffPart[] = [];
  let x = n;
  let y = m;
  for (let d = edits; d > 0; d--) {
    const previous = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && previous[offset + k - 1]! < previous[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = previous[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      reversed.push({ op: 0, text: a[start + x - 1]! });
      x--;
      y--;
    }
    if (down) {
      reversed.push({ op: 1, text: b[start + y - 1]! });
      y--;
    } else {
      reversed.push({ op: -1, text: a[start + x - 1]! });
      x--;
    }
  }
  while (x > 0 && y > 0) {
    reversed.push({ op: 0, text: a[start + x - 1]! });
    x--;
    y--;
  }

  const parts: DiffPart[] = [];
  const add = (op: -1 | 0 | 1, text: string): void => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last !== undefined && last.op === op) parts[parts.length - 1] = { op, text: last.text + text };
    else parts.push({ op, text });
  };
  add(0, a.slice(0, start).join(''));
  for (let i = reversed.length - 1; i >= 0; i--) add(reversed[i]!.op, reversed[i]!.text);
  add(0, a.slice(endA).join(''));
  return parts;
}

/** The two sides of a comparison, with what only one side has highlighted. */
export function renderComparison(left: string, right: string, leftLabel: string, rightLabel: string): Html {
  const parts: DiffPart[] | null = left === right ? [{ op: 0, text: left }] : diffTokens(tokenize(left), tokenize(right), 3000);
  const side = (keep: -1 | 1, text: string): Html => {
    if (parts === null) return h('pre', { class: 'value' }, text);
    const tag = keep === -1 ? 'del' : 'ins';
    return h(
      'pre',
      { class: 'value' },
      parts.filter((p) => p.op === 0 || p.op === keep).map((p) => (p.op === 0 ? p.text : h(tag, null, p.text))),
    );
  };
  return h(
    'div',
    { class: 'compare' },
    h('div', { class: 'side side-model' }, h('div', { class: 'side-label' }, leftLabel), side(-1, left)),
    h('div', { class: 'side side-truth' }, h('div', { class: 'side-label' }, rightLabel), side(1, right)),
    parts === null ? h('p', { class: 'note' }, 'The two values differ too much to highlight the changes.') : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Failure rendering

/** The folded line of one failure in the list. */
export function renderFailureSummary(failure: FailureView, index: number): Html {
  return h(
    'details',
    { class: 'failure', 'data-index': index, id: 'failure-' + index },
    h(
      'summary',
      null,
      h('span', { class: 'f-model' }, failure.model),
      h('span', { class: 'f-id' }, failure.id),
      h('span', { class: 'badge badge-' + failure.errorClass }, failure.errorClass),
      h('span', { class: 'f-type' }, failure.errorType),
      h('span', { class: 'f-reason' }, shorten(failure.reasons[0] ?? '', 180)),
    ),
    h('div', { class: 'failure-body' }),
  );
}

function renderMessages(messages: readonly MessageView[]): Html {
  return h(
    'div',
    { class: 'messages' },
    messages.map((m) => h('div', { class: 'msg msg-' + m.role.replace(/[^a-z_]/g, '') }, h('span', { class: 'role' }, m.role), h('pre', null, m.content))),
  );
}

function renderSection(section: SectionView, shared: readonly string[]): Html {
  let body: Html;
  if (section.kind === 'messages') body = renderMessages(section.messages);
  else if (section.kind === 'shared') body = h('pre', null, shared[section.ref] ?? '');
  else if (section.kind === 'list') body = h('ul', { class: 'plain' }, section.items.map((item) => h('li', null, h('pre', null, item))));
  else body = h('pre', null, section.text);
  return h('details', { class: 'section', open: section.open }, h('summary', null, section.title), body);
}

function renderStep(step: StepView, index: number): Html {
  return h(
    'div',
    { class: 'step' },
    h('div', { class: 'step-label' }, 'step ' + index),
    h('div', { class: 'msg msg-assistant' }, h('span', { class: 'role' }, 'assistant'), h('pre', null, step.output)),
    step.decoded !== null && step.decoded.length > 0
      ? h('div', { class: 'calls' }, h('span', { class: 'role' }, 'decoded'), h('pre', null, step.decoded.join('\n')))
      : null,
    step.toolResults.length > 0
      ? h('div', { class: 'msg msg-tool' }, h('span', { class: 'role' }, 'tool'), h('pre', null, step.toolResults.join('\n')))
      : null,
    step.events.map((e) => h('div', { class: 'event' }, e)),
  );
}

function renderTurn(turn: TurnView): Html {
  return h(
    'details',
    { class: 'turn turn-' + turn.status.replace(/ /g, '-'), open: turn.status === 'failed' },
    h('summary', null, 'Turn ' + turn.index + ' — ' + turn.status),
    turn.user.length > 0 ? renderMessages(turn.user) : h('p', { class: 'note' }, 'No user message in this turn.'),
    h(
      'div',
      { class: 'turn-columns' },
      h(
        'div',
        { class: 'turn-model' },
        h('h5', null, 'Model'),
        turn.steps.length > 0 ? turn.steps.map((s, i) => renderStep(s, i)) : h('p', { class: 'note' }, 'No model steps recorded.'),
        turn.checked !== null && !turn.steps.some((s) => s.decoded !== null)
          ? h(
              'div',
              { class: 'checked' },
              h('div', { class: 'step-label' }, 'as the checker decoded and executed it'),
              turn.checked.length > 0
                ? turn.checked.map((c) =>
                    h('div', { class: 'step' }, h('pre', null, c.calls.join('\n')), c.results.length > 0 ? h('div', { class: 'msg msg-tool' }, h('span', { class: 'role' }, 'tool'), h('pre', null, c.results.join('\n'))) : null),
                  )
                : h('p', { class: 'note' }, 'No decodable calls.'),
            )
          : null,
      ),
      h(
        'div',
        { class: 'turn-truth' },
        h('h5', null, 'Ground truth'),
        turn.groundTruthCalls.length > 0 ? h('pre', null, turn.groundTruthCalls.join('\n')) : h('p', { class: 'note' }, 'No calls expected.'),
        turn.groundTruthResults !== null && turn.groundTruthResults.length > 0
          ? h('div', { class: 'msg msg-tool' }, h('span', { class: 'role' }, 'results'), h('pre', null, turn.groundTruthResults.join('\n')))
          : null,
      ),
    ),
  );
}

function renderStateDiff(diff: StateDiffView): Html {
  const where = (diff.className !== '' ? diff.className : 'state') + (diff.turn !== null ? ' after turn ' + diff.turn : '');
  return h(
    'div',
    { class: 'state-diff' },
    h('h4', null, 'State diff: ' + where),
    diff.rows.map((row) =>
      h('div', { class: 'diff-row' }, h('div', { class: 'diff-attr' }, row.attribute), renderComparison(row.model, row.groundTruth, 'model', 'ground truth')),
    ),
  );
}

/** One step of an agentic conversation: the model's output, each call beside its tool result, events. */
function renderAgenticStep(step: AgenticStepView, index: number): Html {
  return h(
    'div',
    { class: 'step' + (step.final ? ' step-final' : '') },
    h('div', { class: 'step-label' }, 'step ' + index + (step.final ? ' — the final answer scored' : '')),
    h('div', { class: 'msg msg-assistant' }, h('span', { class: 'role' }, 'assistant'), h('pre', null, step.output)),
    step.calls.map((c) =>
      h(
        'div',
        { class: 'agentic-call' },
        h('div', { class: 'calls' }, h('span', { class: 'role' }, c.kind), h('pre', null, c.call)),
        c.result !== null ? h('div', { class: 'msg msg-tool' }, h('span', { class: 'role' }, 'result'), h('pre', null, c.result)) : null,
      ),
    ),
    step.events.map((e) => h('div', { class: 'event' }, e)),
  );
}

/** An agentic failure: the answer as scored against the expected answers, the memory start, the conversation. */
function renderAgentic(agentic: AgenticFailureView): Html {
  return h(
    'div',
    { class: 'agentic' },
    h('h4', null, 'Answer'),
    h(
      'div',
      { class: 'compare' },
      h(
        'div',
        { class: 'side side-model' },
        h('div', { class: 'side-label' }, 'final answer (as scored)'),
        h('pre', { class: 'value' }, agentic.finalAnswer ?? '(none: no step that is not a function call)'),
        agentic.standardizedAnswer !== null ? h('p', { class: 'note' }, 'normalised: ' + agentic.standardizedAnswer) : null,
      ),
      h(
        'div',
        { class: 'side side-truth' },
        h('div', { class: 'side-label' }, 'expected (any of)'),
        h('ul', { class: 'plain expected-answers' }, agentic.expectedAnswers.map((a) => h('li', null, h('pre', null, a)))),
        agentic.standardizedExpected.length > 0 ? h('p', { class: 'note' }, 'normalised: ' + agentic.standardizedExpected.join(' | ')) : null,
      ),
    ),
    agentic.memoryStart !== null || agentic.promptMemory !== null
      ? h(
          'div',
          { class: 'agentic-memory' },
          h('h4', null, 'Memory'),
          agentic.memoryStart !== null ? h('p', null, agentic.memoryStart) : null,
          agentic.promptMemory !== null
            ? h('div', { class: 'msg msg-system' }, h('span', { class: 'role' }, agentic.promptMemory.role + ' in the system message'), h('pre', null, agentic.promptMemory.content))
            : null,
        )
      : null,
    h('h4', null, 'Conversation (' + agentic.toolCalls + ')'),
    agentic.turns.map((turn) =>
      h(
        'details',
        { class: 'turn turn-agentic', open: true },
        h('summary', null, 'Turn ' + turn.index),
        turn.messages.length > 0 ? renderMessages(turn.messages) : null,
        h('div', { class: 'agentic-steps' }, turn.steps.length > 0 ? turn.steps.map((s, i) => renderAgenticStep(s, i)) : h('p', { class: 'note' }, 'No model steps recorded.')),
      ),
    ),
  );
}

/**
 * The unfolded detail of one failure: checker's reason, state diff, conversation, record fields.
 * `shared` is `ReportData.sharedTexts`.
 */
export function renderFailureDetail(failure: FailureView, shared: readonly string[]): Html {
  return h(
    'div',
    { class: 'detail' },
    h(
      'div',
      { class: 'reason' },
      h('h4', null, 'Checker: ', h('code', null, failure.errorType)),
      h('ul', { class: 'plain' }, failure.reasons.map((r) => h('li', null, h('pre', null, r)))),
      failure.usage !== null ? h('p', { class: 'usage' }, failure.usage) : null,
    ),
    failure.agentic !== undefined ? renderAgentic(failure.agentic) : null,
    failure.stateDiff !== null ? renderStateDiff(failure.stateDiff) : null,
    failure.turns !== null ? h('div', { class: 'turns' }, h('h4', null, 'Conversation'), failure.turns.map(renderTurn)) : null,
    failure.sections.map((section) => renderSection(section, shared)),
  );
}

/** The failure list's filter: empty strings match everything. */
export interface FailureFilter {
  readonly model: string;
  readonly category: string;
  readonly errorClass: string;
  readonly errorType: string;
  /** Case-insensitive text looked for in the id and the checker's messages. */
  readonly text: string;
}

export function failureMatches(failure: FailureView, filter: FailureFilter): boolean {
  if (filter.model !== '' && failure.model !== filter.model) return false;
  if (filter.category !== '' && failure.category !== filter.category) return false;
  if (filter.errorClass !== '' && failure.errorClass !== filter.errorClass) return false;
  if (filter.errorType !== '' && failure.errorType !== filter.errorType) return false;
  const needle = filter.text.trim().toLowerCase();
  if (needle === '') return true;
  if (failure.id.toLowerCase().includes(needle)) return true;
  return failure.reasons.some((r) => r.toLowerCase().includes(needle));
}

// ---------------------------------------------------------------------------------------------
// Page wiring (the only part that touches the DOM)

/** The parts of the DOM the page uses (structural, so the real `document` fits). */
export interface PageElement {
  textContent: string | null;
  innerHTML: string;
  hidden: boolean;
  value: string;
  open: boolean;
  readonly dataset: Readonly<Record<string, string | undefined>>;
  addEventListener(type: string, listener: (event: PageEvent) => void, capture?: boolean): void;
  insertAdjacentHTML(position: 'beforeend', html: string): void;
  querySelector(selector: string): PageElement | null;
  closest(selector: string): PageElement | null;
  scrollIntoView(): void;
  dispatchEvent(event: unknown): boolean;
}

export interface PageEvent {
  readonly target: PageElement | null;
}

export interface PageDocument {
  getElementById(id: string): PageElement | null;
  addEventListener(type: string, listener: (event: PageEvent) => void, capture?: boolean): void;
}

/** Read the embedded data and wire the failure browser. */
export function startReport(doc: PageDocument): void {
  // Number of folded failures added to the list at a time.
  const PAGE_SIZE = 100;
  const byId = (id: string): PageElement => {
    const element = doc.getElementById(id);
    if (element === null) throw new Error('report element missing: #' + id);
    return element;
  };
  const data = JSON.parse(byId('report-data').textContent ?? '{}') as ReportData;
  const list = byId('failure-list');
  const count = byId('failure-count');
  const more = byId('failure-more');
  const selects = {
    model: byId('filter-model'),
    category: byId('filter-category'),
    errorClass: byId('filter-class'),
    errorType: byId('filter-type'),
  };
  const search = byId('filter-text');

  const fill = (select: PageElement, values: readonly string[], labels: Readonly<Record<string, string>>): void => {
    const options = [h('option', { value: '' }, 'all')];
    for (const v of values) options.push(h('option', { value: v }, labels[v] ?? v));
    select.innerHTML = renderChildren(options);
  };
  const modelNames: Record<string, string> = {};
  for (const m of data.models) modelNames[m.dir] = m.name;
  const unique = (pick: (f: FailureView) => string): string[] => {
    const seen: string[] = [];
    for (const f of data.failures) if (!seen.includes(pick(f))) seen.push(pick(f));
    return seen;
  };
  fill(selects.model, data.models.map((m) => m.dir), modelNames);
  fill(selects.category, data.categories, {});
  fill(selects.errorClass, data.errorClasses, {});
  fill(selects.errorType, unique((f) => f.errorType).sort(), {});

  let matches: number[] = [];
  let shown = 0;
  const showMore = (): void => {
    const next = matches.slice(shown, shown + PAGE_SIZE);
    list.insertAdjacentHTML('beforeend', next.map((i) => renderFailureSummary(data.failures[i]!, i).html).join(''));
    shown += next.length;
    more.hidden = shown >= matches.length;
    count.textContent = 'Showing ' + shown + ' of ' + matches.length + ' matching failures (' + data.failures.length + ' in all).';
  };
  const apply = (): void => {
    const filter: FailureFilter = {
      model: selects.model.value,
      category: selects.category.value,
      errorClass: selects.errorClass.value,
      errorType: selects.errorType.value,
      text: search.value,
    };
    matches = [];
    data.failures.forEach((f, i) => {
      if (failureMatches(f, filter)) matches.push(i);
    });
    list.innerHTML = '';
    shown = 0;
    showMore();
  };

  // Details are rendered from the data when a failure is first unfolded.
  list.addEventListener(
    'toggle',
    (event) => {
      const target = event.target;
      if (target === null || !target.open || target.dataset['index'] === undefined) return;
      const body = target.querySelector('.failure-body');
      if (body === null || body.innerHTML !== '') return;
      body.innerHTML = renderFailureDetail(data.failures[Number(target.dataset['index'])]!, data.sharedTexts).html;
    },
    true,
  );
  more.addEventListener('click', showMore);
  for (const select of Object.values(selects)) select.addEventListener('change', apply);
  search.addEventListener('input', apply);

  // Cells of the overview tables that carry data-filter-* attributes jump to their failures.
  doc.addEventListener('click', (event) => {
    const cell = event.target === null ? null : event.target.closest('[data-filter-category]');
    if (cell === null) return;
    selects.model.value = cell.dataset['filterModel'] ?? '';
    selects.category.value = cell.dataset['filterCategory'] ?? '';
    selects.errorClass.value = cell.dataset['filterClass'] ?? '';
    selects.errorType.value = '';
    search.value = '';
    apply();
    byId('failures').scrollIntoView();
  });
  apply();
}

/** The functions shipped to the page, in an order where each is defined before the script runs. */
export const CLIENT_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  escapeHtml,
  raw,
  renderChildren,
  h,
  shorten,
  tokenize,
  diffTokens,
  renderComparison,
  renderFailureSummary,
  renderMessages,
  renderSection,
  renderStep,
  renderTurn,
  renderStateDiff,
  renderAgenticStep,
  renderAgentic,
  renderFailureDetail,
  failureMatches,
  startReport,
];

/** The page's script: the client functions, then the call that starts the page, in a closure. */
export function clientScript(): string {
  const body = CLIENT_FUNCTIONS.map((f) => f.toString()).join('\n\n');
  return '(function () {\n"use strict";\n' + body + '\n\nstartReport(document);\n})();\n';
}
