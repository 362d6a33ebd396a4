/**
 * The leaderboard after an evaluation run (eval_runner.py::main's last step): the models of this
 * run, with the cost and latency of their result files, plus every score file in the score folder.
 */

import { buildLeaderboardCsvs, type LeaderboardModel, type LeaderboardOptions, type ModelMetadata } from './leaderboard.js';
import { assembleLeaderboardTable, loadScoreHeaders, type EvaluatedModel } from './score-files.js';

/** The six CSVs by file name, and the leaderboard's models with their scores. */
export interface RunLeaderboard {
  readonly csvs: Map<string, string>;
  readonly models: LeaderboardModel[];
}

export function buildRunLeaderboard(
  evaluated: readonly EvaluatedModel[],
  scoreDir: string,
  metadataOf: (modelDir: string) => ModelMetadata,
  options: LeaderboardOptions,
): RunLeaderboard {
  const table = assembleLeaderboardTable(evaluated, loadScoreHeaders(scoreDir));
  const models: LeaderboardModel[] = table.map((entry) => ({ ...entry, metadata: metadataOf(entry.modelDir) }));
  return { csvs: buildLeaderboardCsvs(models, options), models };
}
