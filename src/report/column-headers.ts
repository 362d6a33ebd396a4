/**
 * Header rows of the leaderboard CSVs (names and order of the reference's `constants/column_headers.py`).
 * They are part of the output format, so they stay verbatim.
 */

import { FORMAT_SENSITIVITY_CONFIGS } from '../spec/categories.js';

export const COLUMNS_NON_LIVE: readonly string[] = [
  'Rank',
  'Model',
  'Non-Live Overall Acc',
  'AST Summary',
  'Simple AST',
  'Python Simple AST',
  'Java Simple AST',
  'JavaScript Simple AST',
  'Multiple AST',
  'Parallel AST',
  'Parallel Multiple AST',
  'Irrelevance Detection',
];

export const COLUMNS_LIVE: readonly string[] = [
  'Rank',
  'Model',
  'Live Overall Acc',
  'AST Summary',
  'Python Simple AST',
  'Python Multiple AST',
  'Python Parallel AST',
  'Python Parallel Multiple AST',
  'Irrelevance Detection',
  'Relevance Detection',
];

export const COLUMNS_MULTI_TURN: readonly string[] = [
  'Rank',
  'Model',
  'Multi Turn Overall Acc',
  'Base',
  'Miss Func',
  'Miss Param',
  'Long Context',
];

export const COLUMNS_AGENTIC: readonly string[] = [
  'Rank',
  'Model',
  'Agentic Overall Acc',
  'Web Search Summary',
  'Web Search Base',
  'Web Search No Snippet',
  'Memory Summary',
  'Memory KV',
  'Memory Vector',
  'Memory Recursive Summarization',
];

/** The format-sensitivity header: four fixed columns, then `Config <config>` for each of the 26 configurations. */
export const COLUMNS_FORMAT_SENSITIVITY: readonly string[] = [
  'Rank',
  'Model',
  'Format Sensitivity Max Delta',
  'Format Sensitivity Standard Deviation',
  ...FORMAT_SENSITIVITY_CONFIGS.map((config) => `Config ${config}`),
];

export const COLUMNS_OVERALL: readonly string[] = [
  'Rank',
  'Overall Acc',
  'Model',
  'Model Link',
  'Total Cost ($)',
  'Latency Mean (s)',
  'Latency Standard Deviation (s)',
  'Latency 95th Percentile (s)',
  'Non-Live AST Acc',
  'Non-Live Simple AST',
  'Non-Live Multiple AST',
  'Non-Live Parallel AST',
  'Non-Live Parallel Multiple AST',
  'Live Acc',
  'Live Simple AST',
  'Live Multiple AST',
  'Live Parallel AST',
  'Live Parallel Multiple AST',
  'Multi Turn Acc',
  'Multi Turn Base',
  'Multi Turn Miss Func',
  'Multi Turn Miss Param',
  'Multi Turn Long Context',
  'Web Search Acc',
  'Web Search Base',
  'Web Search No Snippet',
  'Memory Acc',
  'Memory KV',
  'Memory Vector',
  'Memory Recursive Summarization',
  'Relevance Detection',
  'Irrelevance Detection',
  'Format Sensitivity Max Delta',
  'Format Sensitivity Standard Deviation',
  'Organization',
  'License',
];
