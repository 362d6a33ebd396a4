import { describe, expect, it } from 'vitest';

import {
  AGENTIC_CATEGORY,
  ALL_CATEGORIES,
  ALL_SCORING_CATEGORIES,
  CATEGORY_INFO,
  DEFAULT_PROMPT_FORMAT_CONFIG,
  FORMAT_SENSITIVITY_CONFIGS,
  LIVE_CATEGORY,
  MEMORY_CATEGORY,
  MULTI_TURN_CATEGORY,
  NON_LIVE_CATEGORY,
  SINGLE_TURN_CATEGORY,
  TEST_COLLECTION_MAPPING,
  WEB_SEARCH_CATEGORY,
  compareSortKeys,
  containMultiTurnInteraction,
  extractMemoryBackendType,
  extractPromptFormatFromId,
  extractTestCategoryFromFileName,
  extractTestCategoryFromId,
  getCategoryInfo,
  getDirectoryStructureByCategory,
  getDirectoryStructureById,
  getFileNameByCategory,
  getGeneralGrouping,
  isAgentic,
  isCategory,
  isJava,
  isJs,
  isLive,
  isMemory,
  isMemoryPrereq,
  isMultiTurn,
  isNonLive,
  isRelevanceOrIrrelevance,
  parseTestCategoryArgument,
  sortById,
  sortKey,
  v3CategoryName,
} from '../../src/spec/categories.js';
import { UsageError } from '../../src/util/errors.js';

describe('category lists', () => {
  it('has the 23 v4 categories in reference order', () => {
    expect(ALL_CATEGORIES).toEqual([
      'simple_python', 'simple_java', 'simple_javascript', 'multiple', 'parallel', 'parallel_multiple', 'irrelevance',
      'live_simple', 'live_multiple', 'live_parallel', 'live_parallel_multiple', 'live_irrelevance', 'live_relevance',
      'multi_turn_base', 'multi_turn_miss_func', 'multi_turn_miss_param', 'multi_turn_long_context',
      'memory_kv', 'memory_vector', 'memory_rec_sum', 'web_search_base', 'web_search_no_snippet',
      'format_sensitivity',
    ]);
    expect(NON_LIVE_CATEGORY).toHaveLength(7);
    expect(LIVE_CATEGORY).toHaveLength(6);
    expect(MULTI_TURN_CATEGORY).toHaveLength(4);
    expect(WEB_SEARCH_CATEGORY).toEqual(['web_search_base', 'web_search_no_snippet']);
    expect(MEMORY_CATEGORY).toEqual(['memory_kv', 'memory_vector', 'memory_rec_sum']);
    expect(SINGLE_TURN_CATEGORY).toEqual([...NON_LIVE_CATEGORY, ...LIVE_CATEGORY]);
    expect(AGENTIC_CATEGORY).toEqual([...MEMORY_CATEGORY, ...WEB_SEARCH_CATEGORY]);
    expect(ALL_SCORING_CATEGORIES).toHaveLength(22);
  });

  it('has the reference groups with their expansions', () => {
    expect([...TEST_COLLECTION_MAPPING.keys()]).toEqual([
      'all', 'all_scoring', 'multi_turn', 'single_turn', 'live', 'non_live', 'non_python', 'python', 'memory', 'web_search', 'agentic',
    ]);
    expect(TEST_COLLECTION_MAPPING.get('non_python')).toEqual(['simple_java', 'simple_javascript']);
    expect(TEST_COLLECTION_MAPPING.get('python')).toEqual([
      'simple_python', 'irrelevance', 'parallel', 'multiple', 'parallel_multiple', 'live_simple', 'live_multiple',
      'live_parallel', 'live_parallel_multiple', 'live_irrelevance', 'live_relevance',
    ]);
    expect(TEST_COLLECTION_MAPPING.get('all')).toBe(ALL_CATEGORIES);
    expect(TEST_COLLECTION_MAPPING.has('format_sensitivity')).toBe(false);
    expect(isCategory('format_sensitivity')).toBe(true);
    expect(isCategory('simple')).toBe(false);
  });
});

describe('predicates (substring tests on categories and ids)', () => {
  it.each([
    ['simple_python', { nonLive: true, live: false, multiTurn: false, agentic: false, java: false, js: false }],
    ['simple_java', { nonLive: true, live: false, multiTurn: false, agentic: false, java: true, js: false }],
    ['simple_javascript', { nonLive: true, live: false, multiTurn: false, agentic: false, java: false, js: true }],
    ['live_simple_3-1-0', { nonLive: false, live: true, multiTurn: false, agentic: false, java: false, js: false }],
    ['multi_turn_miss_func_7', { nonLive: false, live: false, multiTurn: true, agentic: false, java: false, js: false }],
    ['memory_kv_prereq_0-student-0', { nonLive: false, live: false, multiTurn: false, agentic: true, java: false, js: false }],
    ['web_search_no_snippet_4', { nonLive: false, live: false, multiTurn: false, agentic: true, java: false, js: false }],
    // BFCL parity: a format-sensitivity id embeds the original id; is_non_live tests format sensitivity first.
    ['format_sensitivity_3:ret_fmt=json&x:live_simple_2-2-0', { nonLive: false, live: true, multiTurn: false, agentic: false, java: false, js: false }],
  ])('%s', (s, expected) => {
    expect({
      nonLive: isNonLive(s),
      live: isLive(s),
      multiTurn: isMultiTurn(s),
      agentic: isAgentic(s),
      java: isJava(s),
      js: isJs(s),
    }).toEqual(expected);
  });

  it('knows relevance, memory prereqs and multi-turn interaction', () => {
    expect(isRelevanceOrIrrelevance('live_relevance')).toBe(true);
    expect(isRelevanceOrIrrelevance('irrelevance_3')).toBe(true);
    expect(isRelevanceOrIrrelevance('multiple')).toBe(false);
    expect(isMemory('memory_rec_sum')).toBe(true);
    expect(isMemoryPrereq('memory_kv_prereq')).toBe(true);
    expect(isMemoryPrereq('memory_kv')).toBe(false);
    expect(containMultiTurnInteraction('web_search_base_1')).toBe(true);
    expect(containMultiTurnInteraction('parallel_1')).toBe(false);
  });
});

describe('grouping and directories', () => {
  it('maps categories and ids to their result folders', () => {
    expect(getGeneralGrouping('irrelevance')).toBe('non_live');
    expect(getGeneralGrouping('live_relevance')).toBe('live');
    expect(getGeneralGrouping('multi_turn_base')).toBe('multi_turn');
    expect(getGeneralGrouping('web_search_base')).toBe('agentic');
    expect(getGeneralGrouping('format_sensitivity_0:cfg:live_simple_0-0-0')).toBe('format_sensitivity');
    expect(getDirectoryStructureByCategory('memory_rec_sum')).toBe('agentic/memory/rec_sum');
    expect(getDirectoryStructureByCategory('simple_java')).toBe('non_live');
    expect(getDirectoryStructureById('memory_vector_prereq_2-finance-1')).toBe('agentic/memory/vector');
    expect(getDirectoryStructureById('memory_kv_3-student-0')).toBe('agentic/memory/kv');
    expect(extractMemoryBackendType('memory_kv')).toBe('kv');
    expect(() => extractMemoryBackendType('simple_python')).toThrow(UsageError);
  });

  it('describes every category', () => {
    expect([...CATEGORY_INFO.keys()]).toEqual(ALL_CATEGORIES);
    expect(getCategoryInfo('web_search_no_snippet')).toMatchObject({
      group: 'agentic',
      directory: 'agentic',
      dataFile: 'BFCL_v4_web_search.json',
      possibleAnswerFile: 'BFCL_v4_web_search.json',
      hasPossibleAnswer: true,
      isAgentic: true,
      v3DataFile: undefined,
    });
    expect(getCategoryInfo('live_irrelevance')).toMatchObject({ hasPossibleAnswer: false, possibleAnswerFile: undefined });
    expect(getCategoryInfo('format_sensitivity')).toMatchObject({
      isScoring: false,
      hasPossibleAnswer: true,
      possibleAnswerFile: undefined,
      dataFile: 'BFCL_v4_format_sensitivity.json',
    });
    expect(getCategoryInfo('simple_python').v3DataFile).toBe('BFCL_v3_simple.json');
    expect(getCategoryInfo('multi_turn_base').v3DataFile).toBe('BFCL_v3_multi_turn_base.json');
    expect(getCategoryInfo('memory_kv').dataFile).toBe('BFCL_v4_memory.json');
    expect(v3CategoryName('simple_javascript')).toBe('javascript');
    expect(v3CategoryName('memory_kv')).toBeUndefined();
  });
});

describe('ids and file names', () => {
  it.each([
    ['simple_python_12', false, 'simple_python'],
    ['live_simple_12-3-4', false, 'live_simple'],
    ['memory_kv_prereq_3-student-0', false, 'memory_kv_prereq'],
    ['memory_kv_prereq_3-student-0', true, 'memory_kv'],
    ['format_sensitivity_17:ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic:live_simple_2-2-0', false, 'format_sensitivity'],
    ['nounderscore', false, 'nounderscore'],
  ])('extractTestCategoryFromId(%s, %s) = %s', (id, removePrereq, expected) => {
    expect(extractTestCategoryFromId(id, removePrereq)).toBe(expected);
  });

  it('reads the category from data, result and score file names', () => {
    expect(extractTestCategoryFromFileName('BFCL_v4_simple_python.json')).toBe('simple_python');
    expect(extractTestCategoryFromFileName('/r/m/live/BFCL_v4_live_parallel_multiple_result.json')).toBe('live_parallel_multiple');
    expect(extractTestCategoryFromFileName('score/m/BFCL_v4_multi_turn_base_score.json')).toBe('multi_turn_base');
    expect(extractTestCategoryFromFileName('/x/BFCL_v4_dir/BFCL_v4_memory_kv_prereq_result.json')).toBe('memory_kv_prereq');
    expect(extractTestCategoryFromFileName('BFCL_v3_simple_result.json')).toBeUndefined();
    expect(getFileNameByCategory('irrelevance')).toBe('BFCL_v4_irrelevance.json');
    expect(getFileNameByCategory('irrelevance', 'result')).toBe('BFCL_v4_irrelevance_result.json');
    expect(getFileNameByCategory('irrelevance', 'score')).toBe('BFCL_v4_irrelevance_score.json');
  });

  it('lists the 26 format-sensitivity configs in reference order', () => {
    expect(FORMAT_SENSITIVITY_CONFIGS).toHaveLength(26);
    expect(new Set(FORMAT_SENSITIVITY_CONFIGS).size).toBe(26);
    expect(FORMAT_SENSITIVITY_CONFIGS[0]).toBe('ret_fmt=python&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic');
    expect(FORMAT_SENSITIVITY_CONFIGS[5]).toBe('ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic');
    expect(FORMAT_SENSITIVITY_CONFIGS[23]).toBe('ret_fmt=concise_xml&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic');
    expect(FORMAT_SENSITIVITY_CONFIGS[24]).toBe('ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic');
    expect(FORMAT_SENSITIVITY_CONFIGS[25]).toBe('ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental');
  });

  it('extracts the prompt format of an id', () => {
    expect(extractPromptFormatFromId('simple_python_1')).toBe(DEFAULT_PROMPT_FORMAT_CONFIG);
    expect(extractPromptFormatFromId(`format_sensitivity_0:${FORMAT_SENSITIVITY_CONFIGS[3]}:multiple_4`)).toBe(FORMAT_SENSITIVITY_CONFIGS[3]);
    expect(() => extractPromptFormatFromId('a:b')).toThrow(/exactly two colons/);
  });
});

describe('sortKey', () => {
  it('orders by priority, category, then numeric index', () => {
    expect(sortKey('live_simple_12-3-4')).toEqual([2, 'live_simple', 12]);
    expect(sortKey('memory_kv_prereq_3-student-0')).toEqual([0, 'memory_kv_prereq', 3]);
    expect(sortKey('web_search_base_9')).toEqual([1, 'web_search_base', 9]);
    expect(sortKey('multi_turn_base_100')).toEqual([3, 'multi_turn_base', 100]);
    expect(sortKey('memory_vector_7-finance-2')).toEqual([4, 'memory_vector', 7]);
    expect(sortKey('format_sensitivity_12:cfg:live_simple_1-1-0')).toEqual([2, 'format_sensitivity', 12]);
  });

  it('sorts numerically, not lexically, and stably', () => {
    const ids = ['simple_python_10', 'multi_turn_base_2', 'simple_python_9', 'memory_kv_0-student-0', 'web_search_base_1', 'memory_kv_prereq_1-student-0', 'irrelevance_3'];
    expect(sortById(ids.map((id) => ({ id }))).map((e) => e.id)).toEqual([
      'memory_kv_prereq_1-student-0', 'web_search_base_1', 'irrelevance_3', 'simple_python_9', 'simple_python_10', 'multi_turn_base_2', 'memory_kv_0-student-0',
    ]);
    const same = [{ id: 'parallel_1', n: 1 }, { id: 'parallel_1', n: 2 }];
    expect(sortById(same).map((e) => e.n)).toEqual([1, 2]);
    expect(compareSortKeys(sortKey('parallel_2'), sortKey('parallel_10'))).toBeLessThan(0);
  });

  it('rejects malformed indices as the reference does', () => {
    expect(() => sortKey('live_simple_1-2')).toThrow(/Invalid index format/);
    expect(() => sortKey('simple_python_x')).toThrow(/invalid literal for int/);
  });
});

describe('parseTestCategoryArgument', () => {
  it('expands groups, de-duplicates and sorts', () => {
    expect(parseTestCategoryArgument(['non_python', 'simple_java', 'live_simple'])).toEqual(['live_simple', 'simple_java', 'simple_javascript']);
    expect(parseTestCategoryArgument(['all'])).toEqual([...ALL_CATEGORIES].sort());
    expect(parseTestCategoryArgument(['format_sensitivity'])).toEqual(['format_sensitivity']);
    expect(parseTestCategoryArgument([])).toEqual([]);
  });

  it('rejects unknown names with the valid categories and groups', () => {
    let error: unknown;
    try {
      parseTestCategoryArgument(['multiple', 'bogus']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as UsageError).message;
    expect(message).toMatch(/^Invalid test category name provided: bogus\n/);
    for (const name of [...ALL_CATEGORIES, ...TEST_COLLECTION_MAPPING.keys()]) expect(message).toContain(name);
    expect((error as UsageError).exitCode).toBe(2);
  });

  it('points v3 names to their v4 names', () => {
    expect(() => parseTestCategoryArgument(['java'])).toThrow(/"java" is called "simple_java" in v4/);
  });
});
