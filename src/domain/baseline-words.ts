/**
 * What every output says in place of the changes against a baseline when no strategy of the run
 * could be paired with it (no question in common): figures over other questions are not changes.
 */
export const NO_CHANGES_AGAINST_BASELINE = "no changes are shown: no question of this run was asked in the baseline";
