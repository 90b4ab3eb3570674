#!/usr/bin/env node
// The quick start's main job: benchmark all six built-in strategies on the bundled handbook with its
// questions, on the default offline stack, and write both HTML report views. Uses ./.chunkeval
// unless CHUNKEVAL_DATA_DIR says otherwise.
import { benchIntoReports, root } from "./example-run.mjs";

benchIntoReports(
  [root("examples/harbor-light-handbook.docx"), "--questions", root("questions/harbor-light-handbook.json"), "--strategies", "all"],
  "chunkeval-report",
);
